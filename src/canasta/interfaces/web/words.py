"""A refusal in a player's words: the engine's reason without the notation.

The engine explains a refused action in the words of the rules and of the notation
(``illegal action 'meld 2c': wild cards cannot be melded alone: name the meld they join (e.g.
'meld 7: 2c')``); a player at the web table taps cards, melds and the pile and never types an
action. :func:`player_words` keeps the engine's reason (its text is the contract the recorded
corpus checks) and rewrites, for the page only, what speaks of typing: the ``illegal action``
prefix, the quoted verbs, the examples of notation, and the rules' field names.

>>> player_words("illegal action 'draw': you have already drawn this turn")
'You have already drawn this turn.'
>>> player_words("illegal action 'meld 2c': wild cards cannot be melded alone: name the meld "
...              "they join (e.g. 'meld 7: 2c')")
'Wild cards cannot be melded alone: tap the meld they join.'
>>> player_words("not your turn: p2 is to move")
'Not your turn: seat 3 is to move.'
>>> player_words("hand_size must be at least 1")
'“Cards dealt to each player” must be at least 1.'

A hint's reason is the bot's own sentence, spoken as the bot ("my pair of fours is the one to
break"); :func:`hint_words` addresses it to the player, and drops the action it restates (the
page shows the action beside it):

>>> hint_words("discard 4h: my pair of fours is the one to break; keep the 2s: our eights "
...            "need four more for a canasta", "discard 4h")
'Your pair of fours is the one to break; keep the 2s: your eights need four more for a canasta.'
>>> hint_words("ask partner before drawing: I can go out whatever I draw (little is left)", "ask")
'Ask your partner before drawing: you can go out whatever you draw (little is left).'

What a search found (how many deals it played out, by how many points a move beats another) is
kept apart, for a player who asks for the details (:func:`hint_parts`):

>>> words, details = hint_parts("lay off a nine on our nines; played out on 57 deals, it beats "
...                             "discarding Jh by about 20 points", "meld 9s")
>>> words
'Lay off a nine on your nines.'
>>> details
'Played out on 57 deals, it beats discarding Jh by about 20 points.'
"""

from __future__ import annotations

import re

from canasta.family import families

PREFIX = re.compile(r"^illegal action '[^']*':\s*")
EXAMPLE = re.compile(r"\s*\(e\.g\.[^)]*\)")
PHRASES: tuple[tuple[str, str], ...] = (
    ("the turn starts with 'draw' or 'take'", "draw first: tap the stock, or take the pile"),
    ("(or 'pass' when the stock is exhausted)", "(or pass, now that the stock is used up)"),
    ("the answer is 'yes' or 'no'", "answer yes or no"),
    ("name the meld they join", "tap the meld they join"),
    ("a meld lays cards: name them", "select the cards to meld first"),
    ("under these rules 'draw' with a short stock", "under these rules, drawing from a short "
     "stock"),
)
VERBS = {"'draw'": "drawing", "'take'": "taking the pile", "'meld'": "melding",
         "'discard'": "discarding", "'pass'": "passing", "'ask'": "asking your partner",
         "'yes'": "yes", "'no'": "no"}
SEAT = re.compile(r"\bp(\d)\b")
FIELD = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
LABELS = {f.field: f.label for family in families() for f in family.house_rules()}


def _field(match: re.Match[str]) -> str:
    name = match.group(0)
    label = LABELS.get(name)
    return f"“{label}”" if label else name.replace("_", " ")


def player_words(message: str) -> str:
    """``message`` (an engine's or the server's refusal) as a player reads it: a sentence
    with no ``illegal action`` prefix, no quoted verb, no notation example, no field name."""
    text = PREFIX.sub("", message.strip())
    for old, new in PHRASES:
        text = text.replace(old, new)
    text = EXAMPLE.sub("", text)
    for old, new in VERBS.items():
        text = text.replace(old, new)
    text = FIELD.sub(_field, text)
    text = SEAT.sub(lambda m: f"seat {int(m.group(1)) + 1}", text)
    if not text:
        return message
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


HINT_PHRASES: tuple[tuple[str, str], ...] = (
    ("I keep a pair", "it keeps you a pair"),
    ("the only legal action", "it is the only move you can make"),
    ("the only kind of action left", "it is the only kind of move left"),
    ("nothing better to do", "nothing else is worth more"),
)
PERSON = {"i": "you", "i'm": "you're", "me": "you", "my": "your", "mine": "yours",
          "we": "you", "we're": "you're", "us": "you", "our": "your", "ours": "yours"}
"""The bot's first person (itself, and its side) and the player's second person."""
FIRST_PERSON = re.compile(r"\b(?:I'm|I am|we're|we are|I|me|my|mine|we|us|our|ours)\b",
                          re.IGNORECASE)
PARTNER = re.compile(r"(?<!your )(?<!a )\bpartner\b")


def _second(match: re.Match[str]) -> str:
    word = match.group(0).lower()
    return "you are" if word in ("i am", "we are") else PERSON[word]


def hint_words(explanation: str | None, action: str = "") -> str | None:
    """A bot's reason for ``action`` as the page shows it to the player it advises: in the
    second person ("your pair", "you can go out"), the partner named as theirs, without the
    restated action (``discard 4h: …``) and without the notation's "legal action"."""
    if not explanation:
        return explanation
    text = explanation.strip()
    if action and text.lower().startswith(action.lower() + ":"):
        text = text[len(action) + 1:].strip() or text
    for old, new in HINT_PHRASES:
        text = text.replace(old, new)
    text = FIRST_PERSON.sub(_second, text)
    text = PARTNER.sub("your partner", text)
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


SEARCH_FINDING = re.compile(r"\bplayed out\b|\bplay-?outs?\b|\bsimulat|\bdeals\b|"
                            r"\bby about -?\d+ points?\b|\bwin rate\b|\biterations?\b",
                            re.IGNORECASE)
"""A clause of a reason that reports what a search found rather than why the move is good."""


def hint_parts(explanation: str | None, action: str = "") -> tuple[str | None, str | None]:
    """A bot's reason split for a player: the reason in their words (:func:`hint_words`), and
    what a search found (play-outs, point differences) as ``details``, or ``None``."""
    if not explanation:
        return explanation, None
    clauses = [c.strip() for c in explanation.split(";") if c.strip()]
    found = [c for c in clauses if SEARCH_FINDING.search(c)]
    kept = [c for c in clauses if c not in found] or clauses
    details = hint_words("; ".join(found)) if found and kept != clauses else None
    return hint_words("; ".join(kept), action), details

