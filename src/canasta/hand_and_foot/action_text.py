"""Hand and Foot actions as text: NOTATION §2, and the ``W:`` group of a meld of wild cards
(HF §17; ``*:`` is read too).

>>> format_action(parse_action("MELD w: jk 2C 2d"))
'meld W: 2c 2d JK'
>>> format_action(parse_action("take kh kd, 2c ac ad"))
'take Kd Kh, Ac Ad 2c'
"""

from __future__ import annotations

import re
from typing import Final

from canasta.actions import Action, Group, make_group
from canasta.actions import format_action as base_format
from canasta.actions import parse_action as base_parse
from canasta.cards import IS_WILD, TWO, format_card, parse_cards, parse_rank, rank_char
from canasta.errors import NotationError

WILD_KEY: Final = "W"
"""The key of a meld of wild cards, in positions and as a group's prefix."""
WILD_MELD_KEY: Final = TWO
_PREFIX: Final = re.compile(r"^\s*([0-9a-zA-Z*]{1,2})\s*:(.*)$", re.DOTALL)


def key_text(key: int) -> str:
    """``W`` for the meld of wild cards, else the rank's character."""
    return WILD_KEY if key == WILD_MELD_KEY else rank_char(key)


def format_group(group: Group) -> str:
    """``7h 7d 2c``; ``W: 2c JK`` for a meld of wild cards; ``K: 2c`` for wild cards alone."""
    text = " ".join(format_card(c) for c in sorted(group.cards))
    if group.rank == WILD_MELD_KEY or (group.rank >= 0 and all(IS_WILD[c]
                                                                for c in group.cards)):
        return f"{key_text(group.rank)}: {text}"
    return text


def _order(group: Group) -> tuple[bool, int]:
    return (group.rank == WILD_MELD_KEY, -group.rank)


def format_action(action: Action) -> str:
    """The canonical text of an action."""
    if action.verb in ("meld", "take") and action.groups:
        groups = list(action.groups)
        head = groups[:1] if action.verb == "take" else []
        rest = sorted(groups[len(head):], key=_order)
        return action.verb + " " + ", ".join(format_group(g) for g in head + rest)
    return base_format(action)


def _parse_group(text: str) -> Group:
    m = _PREFIX.match(text)
    if m and m.group(1).upper() in (WILD_KEY, "*"):
        cards = parse_cards(m.group(2))
        if not cards:
            raise NotationError("an empty group of cards")
        if not all(IS_WILD[c] for c in cards):
            raise NotationError(f"the prefix W: names the meld of wild cards, and "
                                f"{text.strip()!r} holds other cards")
        return Group(WILD_MELD_KEY, tuple(sorted(cards)))
    named = parse_rank(m.group(1)) if m else None
    cards = parse_cards(m.group(2) if m else text)
    if not cards:
        raise NotationError("an empty group of cards")
    group = make_group(cards, named)
    if named is not None and group.rank != named and any(not IS_WILD[c] for c in cards):
        raise NotationError(f"the prefix {rank_char(named)}: does not match the cards of "
                            f"{text.strip()!r}")
    return group


def parse_action(text: str) -> Action:
    """One action of Hand and Foot from its text; :class:`NotationError` if malformed."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {text!r}")
    words = text.strip().split(None, 1)
    verb = words[0].lower() if words else ""
    rest = words[1].strip() if len(words) > 1 else ""
    if verb in ("meld", "take") and rest:
        return Action(verb, tuple(_parse_group(part) for part in rest.split(",")))
    return base_parse(text)
