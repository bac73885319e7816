"""Actions and their text form (NOTATION §2).

An :class:`Action` is a small immutable value: a verb, the groups of cards it lays, and for
``discard`` the card. ``parse_action`` and ``format_action`` convert to and from the canonical
one-line text; ``parse_action(format_action(a)) == a`` for every canonical action.

>>> a = parse_action("meld 8c 8d 2s, Kh Kd Ks")
>>> format_action(a)
'meld Kd Kh Ks, 8c 8d 2s'
>>> format_action(parse_action("MELD 7: 2C"))
'meld 7: 2c'
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from canasta.cards import (
    BLACK_THREE_RANK,
    IS_BLACK_THREE,
    IS_NATURAL,
    IS_WILD,
    RANK_OF,
    Card,
    Rank,
    format_card,
    parse_cards,
    parse_rank,
    rank_char,
)
from canasta.errors import NotationError

VERBS: Final = ("draw", "take", "meld", "discard", "ask", "yes", "no", "pass")

NO_RANK: Final[Rank] = -1
"""Rank of a group of wild cards that names no rank (illegal: wild cards cannot meld alone)."""
MIXED_RANK: Final[Rank] = -2
"""Rank of a group whose cards are of several ranks, or hold a red three (illegal)."""


class Group(NamedTuple):
    """Cards laid together onto one meld: its rank and the cards, in canonical order."""

    rank: Rank
    cards: tuple[Card, ...]


class Action(NamedTuple):
    """One action of NOTATION §2. ``card`` is the discarded card, -1 for other verbs."""

    verb: str
    groups: tuple[Group, ...] = ()
    card: Card = -1

    def __str__(self) -> str:
        return format_action(self)


_TUPLE_NEW: Final = tuple.__new__


def new_group(rank: Rank, cards: tuple[Card, ...]) -> Group:
    """``Group(rank, cards)`` for cards already in canonical order, made without the named
    tuple's Python-level constructor: the legal-action lists make many."""
    return _TUPLE_NEW(Group, (rank, cards))


def new_action(verb: str, groups: tuple[Group, ...]) -> Action:
    """``Action(verb, groups)`` for a ``meld`` or ``take`` (see :func:`new_group`)."""
    return _TUPLE_NEW(Action, (verb, groups, -1))


DRAW: Final = Action("draw")
TAKE: Final = Action("take")
ASK: Final = Action("ask")
YES: Final = Action("yes")
NO: Final = Action("no")
PASS: Final = Action("pass")
DISCARDS: Final = tuple(Action("discard", (), c) for c in range(53))
"""The discard action of each card, prebuilt: legal-action lists share them."""


def group_rank(cards: tuple[Card, ...], named: Rank | None = None) -> Rank:
    """The rank of a group: that of its natural cards, of its black threes, or the named rank."""
    rank: Rank = NO_RANK
    for c in cards:
        if IS_WILD[c]:
            continue
        r = RANK_OF[c] if (IS_NATURAL[c] or IS_BLACK_THREE[c]) else MIXED_RANK
        if r == MIXED_RANK or (rank != NO_RANK and r != rank):
            return MIXED_RANK
        rank = r
    if named is not None:
        if rank == NO_RANK:
            return named
        if rank != named:
            return MIXED_RANK
    return rank


def make_group(cards: list[Card] | tuple[Card, ...], named: Rank | None = None) -> Group:
    """A group from cards in any order (sorted here)."""
    ordered = tuple(sorted(cards))
    return Group(group_rank(ordered, named), ordered)


def _group_key(g: Group) -> tuple[bool, int]:
    return (g.rank == BLACK_THREE_RANK, -g.rank)


def canonical(action: Action) -> Action:
    """The canonical form: cards sorted in each group, groups in canonical order."""
    if action.verb not in ("meld", "take") or not action.groups:
        return action
    groups = tuple(Group(g.rank, tuple(sorted(g.cards))) for g in action.groups)
    if action.verb == "meld":
        groups = tuple(sorted(groups, key=_group_key))
    else:
        groups = groups[:1] + tuple(sorted(groups[1:], key=_group_key))
    return Action(action.verb, groups, action.card)


def format_group(group: Group) -> str:
    """``7h 7d 2c``, with a ``7:`` prefix only for a group of wild cards alone."""
    text = " ".join(format_card(c) for c in group.cards)
    if group.rank >= 0 and all(IS_WILD[c] for c in group.cards):
        return f"{rank_char(group.rank)}: {text}"
    return text


def format_action(action: Action) -> str:
    """The canonical text of an action (NOTATION §2)."""
    verb = action.verb
    if verb == "discard":
        return "discard " + format_card(action.card)
    if verb in ("meld", "take") and action.groups:
        action = canonical(action)
        return verb + " " + ", ".join(format_group(g) for g in action.groups)
    return verb


_PREFIX: Final = re.compile(r"^\s*p(\d+)\s*:\s*(.*)$", re.IGNORECASE | re.DOTALL)
_RANK_PREFIX: Final = re.compile(r"^\s*([0-9a-zA-Z]{1,2})\s*:(.*)$", re.DOTALL)


def _parse_group(text: str) -> Group:
    named: Rank | None = None
    m = _RANK_PREFIX.match(text)
    if m:
        named = parse_rank(m.group(1))
        text = m.group(2)
    cards = parse_cards(text)
    if not cards:
        raise NotationError("an empty group of cards")
    group = make_group(cards, named)
    if named is not None and group.rank != named and group_rank(group.cards) >= 0:
        raise NotationError(f"the prefix {rank_char(named)}: does not match the cards "
                            f"{format_group(group)} (NOTATION §2: it must name their rank)")
    return group


def parse_action(text: str) -> Action:
    """Parse one action line (no seat prefix); raises :class:`NotationError` if malformed.

    >>> parse_action("discard 10h") == Action("discard", (), parse_cards("Th")[0])
    True
    """
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {text!r}")
    words = text.strip().split(None, 1)
    if not words:
        raise NotationError("an empty action")
    verb = words[0].lower()
    rest = words[1].strip() if len(words) > 1 else ""
    if verb not in VERBS:
        raise NotationError(f"unknown verb {words[0]!r} (verbs: {', '.join(VERBS)})")
    if verb in ("draw", "ask", "yes", "no", "pass"):
        if rest:
            raise NotationError(f"{verb!r} takes no cards: {text.strip()!r}")
        return Action(verb)
    if verb == "discard":
        cards = parse_cards(rest)
        if len(cards) != 1:
            raise NotationError(f"discard takes exactly one card: {text.strip()!r}")
        return DISCARDS[cards[0]]
    if verb == "take" and not rest:
        return TAKE
    if not rest:
        raise NotationError(f"{verb!r} needs cards: {text.strip()!r}")
    groups = tuple(_parse_group(part) for part in rest.split(","))
    return canonical(Action(verb, groups))


def parse_action_line(text: str) -> tuple[int | None, Action]:
    """Parse a record line that may start with a seat prefix ``p2:``; returns (seat, action)."""
    m = _PREFIX.match(text)
    if m:
        return int(m.group(1)), parse_action(m.group(2))
    return None, parse_action(text)
