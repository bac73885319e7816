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
"""

from __future__ import annotations

import re

from canasta.interfaces.web.house_rules import FORM

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
LABELS = {f.name: f.label for _, fields in FORM for f in fields}


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
