"""What the player types at the table: actions in NOTATION §2 (and a family's own verbs, read
by the family's parser), their short forms, and commands.

Standard library only, so the parser can be tested (and reused) without rich.

>>> from canasta.cards import parse_cards
>>> hand = tuple(sorted(parse_cards("Kh Kd Ks 9s 7h 2c")))
>>> str(parse_command("m K", hand).action)
'meld Kd Kh Ks'
>>> str(parse_command("x 9s", hand).action)
'discard 9s'
>>> parse_command("3", hand).number
3
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from canasta.actions import Action, parse_action
from canasta.cards import (
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_RED_THREE,
    RANK_OF,
    THREE,
    TWO,
    Card,
    format_card,
    parse_card,
    parse_rank,
)
from canasta.errors import NotationError

VERB_ALIASES: dict[str, str] = {
    "d": "draw", "draw": "draw",
    "t": "take", "take": "take",
    "m": "meld", "meld": "meld",
    "x": "discard", "discard": "discard",
    "a": "ask", "ask": "ask",
    "y": "yes", "yes": "yes",
    "n": "no", "no": "no",
    "p": "pass", "pass": "pass",
    "keep": "keep", "special": "special",
}
"""Short forms of the action verbs (the full verbs of NOTATION §2 map to themselves, and so do
the verbs some families add: ``keep``, ``special``)."""

COMMAND_ALIASES: dict[str, str] = {
    "help": "help", "h": "help", "?": "help",
    "hint": "hint",
    "legal": "legal", "l": "legal",
    "show": "show", "s": "show", "board": "show",
    "score": "score", "scores": "score",
    "log": "log",
    "save": "save",
    "quit": "quit", "q": "quit", "exit": "quit",
}
"""Table commands that are not actions, by what may be typed."""

COMPLETION_WORDS: tuple[str, ...] = (
    "draw", "take", "meld", "discard", "ask", "yes", "no", "pass", "keep", "special",
    "help", "hint", "legal", "show", "score", "log", "save", "quit",
)
"""First words offered by tab completion."""

CARD_VERBS = frozenset({"take", "meld", "discard", "keep"})
"""Verbs after which tab completion offers the cards in hand."""

HELP_TEXT = """\
Actions (docs/notation.md; short form in brackets; cards like Kh Td 10d JK, any case):
  draw                   [d]          draw from the stock
  take                   [t]          take the pile onto your side's meld of its top card
  take 7h 7d             [t 7h 7d]    take the pile, melding the top card with 7h 7d
  take 7h 7d, As Ac Ad                ... and lay more groups (an opening through the pile)
  meld Kh Kd Ks          [m Kh Kd Ks] lay cards; groups separated by commas
  meld 7: 2c             [m 7: 2c]    wild cards alone must name the meld they join
  discard 9s             [x 9s]       discard and end the turn
  ask                    [a]          "Partner, may I go out?"
  yes / no               [y / n]      answer your partner's question
  pass                   [p]          decline the pile once the stock is exhausted
Some families of rules add their own actions ('legal' lists those of this game), e.g.
  keep 3s / keep none                 which three to keep in hand for a Straight
  meld W: 2c 2d JK                    a meld of wild cards alone (key W)
  special Pairs                       lay a special hand
Short cuts:
  m K          a rank alone means all your natural cards of that rank (m K 2c: kings and 2c)
  x 9          discard your 9 when you hold only one kind of 9; 'x' alone with one card left
  t            with a single way to take the pile, takes it that way
  1, 2, ...    play the numbered suggestion
Commands:
  hint                   what the strongest quick bot would play, and why (a second)
  legal [l]              every legal action
  show [s]               the table again          score    the score sheet
  log                    the moves of this hand   save     where the game is saved
  help [h, ?]            this text                quit [q] save and leave (Ctrl-D, Ctrl-C too)
Tab completes verbs and the cards in your hand."""


@dataclass(frozen=True)
class Command:
    """One line typed at the table.

    ``kind`` is ``action`` (``action`` set), ``pick`` (``number`` of a suggestion), ``empty``,
    or a table command: ``help``, ``hint``, ``legal``, ``show``, ``score``, ``log``, ``save``,
    ``quit``.
    """

    kind: str
    action: Action | None = None
    number: int = 0


_RANK_PREFIX = re.compile(r"^\s*([0-9a-zA-Z]{1,2})\s*:(.*)$", re.DOTALL)


def _expand_group(text: str, hand: Sequence[Card], used: list[Card]) -> str:
    """A group's text with rank tokens (``K``) replaced by the natural cards of that rank."""
    prefix = ""
    m = _RANK_PREFIX.match(text)
    if m:
        prefix, text = m.group(1) + ": ", m.group(2)
    out: list[str] = []
    for token in text.split():
        try:
            parse_card(token)
        except NotationError:
            pass
        else:
            out.append(token)
            continue
        try:
            rank = parse_rank(token)
        except NotationError:
            if token.strip().lower() == "2":
                raise NotationError("2s are wild: name them as cards (2c 2d 2h 2s)") from None
            raise NotationError(f"{token!r} is neither a card (Kh, Td, JK) nor a rank (K, T)") \
                from None
        if rank == THREE:
            cards = [c for c in hand if IS_BLACK_THREE[c] or IS_RED_THREE[c]]
        else:
            cards = [c for c in hand if IS_NATURAL[c] and RANK_OF[c] == rank]
        for c in used:
            if c in cards:
                cards.remove(c)
        if not cards:
            raise NotationError(f"you hold no natural {token.upper()} to meld")
        used.extend(cards)
        out.extend(format_card(c) for c in cards)
    return prefix + " ".join(out)


def _single_card(rest: str, hand: Sequence[Card]) -> str:
    """The card of a discard: a card, a rank held in one kind only, or the last card."""
    words = rest.split()
    if not words:
        kinds = sorted(set(hand))
        if len(hand) == 1:
            return format_card(hand[0])
        raise NotationError("say which card to discard, e.g. 'x 9s'"
                            + (f" (one of {' '.join(format_card(c) for c in kinds)})"
                               if kinds else ""))
    if len(words) > 1:
        raise NotationError("discard takes exactly one card")
    token = words[0]
    try:
        parse_card(token)
        return token
    except NotationError:
        pass
    try:
        rank = parse_rank(token)
    except NotationError:
        if token == "2":
            rank = TWO
        else:
            raise NotationError(f"{token!r} is not a card (Kh, Td, JK)") from None
    kinds = sorted({c for c in hand if RANK_OF[c] == rank and (rank != TWO or c < 52)})
    if len(kinds) == 1:
        return format_card(kinds[0])
    if not kinds:
        raise NotationError(f"you hold no {token.upper()}")
    raise NotationError(f"which one: {' or '.join(format_card(c) for c in kinds)}?")


Parse = Callable[[str], Action]
"""Reads an action's canonical text (the family's parser under the table's rules)."""


def parse_command(text: str, hand: Sequence[Card] = (), parse: Parse = parse_action) -> Command:
    """Read one typed line; raises :class:`~canasta.errors.NotationError` when it makes no sense.

    ``hand`` is the player's hand, used by the short cuts (``m K``, ``x 9``, ``x``); ``parse``
    reads the action once the short cuts are written out (NOTATION §2 by default).
    """
    line = text.strip()
    if not line:
        return Command("empty")
    if line.isdigit():
        return Command("pick", number=int(line))
    words = line.split(None, 1)
    word = words[0].lower()
    rest = words[1] if len(words) > 1 else ""
    if word in COMMAND_ALIASES and not rest:
        return Command(COMMAND_ALIASES[word])
    verb = VERB_ALIASES.get(word)
    if verb is None:
        if word in COMMAND_ALIASES:
            raise NotationError(f"{word!r} takes nothing after it")
        raise NotationError(f"unknown command {words[0]!r}: type an action (e.g. 'draw', "
                            "'discard 9s'), a suggestion's number, or 'help'")
    if verb == "discard":
        return Command("action", parse("discard " + _single_card(rest, hand)))
    if verb in ("take", "meld") and rest.strip():
        used: list[Card] = []
        groups = [_expand_group(part, hand, used) for part in rest.split(",")]
        return Command("action", parse(verb + " " + ", ".join(groups)))
    return Command("action", parse(f"{verb} {rest}".strip()))


def complete(line: str, text: str, hand: Sequence[Card]) -> list[str]:
    """Tab-completion candidates for the word ``text`` being typed at the end of ``line``, each
    with the space that follows it."""
    before = line[: len(line) - len(text)] if line.endswith(text) else line
    words = before.split()
    low = text.lower()
    if not words:  # readline adds nothing after a match: the space comes with the word
        return [w + " " for w in COMPLETION_WORDS if w.startswith(low)]
    verb = VERB_ALIASES.get(words[0].lower())
    if verb not in CARD_VERBS:
        return []
    taken = [w.lower() for w in re.split(r"[\s,]+", before)[1:] if w]
    names: list[str] = []
    counts: dict[str, int] = {}
    for c in hand:
        name = format_card(c)
        counts[name] = counts.get(name, 0) + 1
    for name, n in counts.items():
        if taken.count(name.lower()) < n and name.lower().startswith(low):
            names.append(name + " ")
    return names
