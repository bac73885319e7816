"""Modern American actions as text: the classic verbs, and ``keep``, ``special`` and the
``W:`` group (docs/notation.md, "Modern American").

>>> from canasta.modern_american.hand import deal
>>> h = deal(seed=1)
>>> format_action(h, parse_action(h, "MELD w: jk 2C 2d"))
'meld W: 2c 2d JK'
>>> format_action(h, parse_action(h, "special wild pairs"))
'special Wild Pairs'
>>> format_action(h, parse_action(h, "keep 3S"))
'keep 3s'
"""

from __future__ import annotations

import re
from typing import Final

from canasta.actions import Action, Group, make_group
from canasta.actions import format_action as classic_format
from canasta.actions import parse_action as classic_parse
from canasta.cards import (
    IS_WILD,
    RANK_OF,
    THREE,
    format_card,
    parse_card,
    parse_cards,
    parse_rank,
    rank_char,
)
from canasta.errors import NotationError
from canasta.modern_american.choices import KEEP_NONE
from canasta.modern_american.hand import Hand
from canasta.modern_american.knobs import ModernAmericanRules
from canasta.modern_american.melds import WILD_MELD
from canasta.modern_american.special_hands import CATALOGUES

WILD_KEY: Final = "W"
"""The meld key of a meld of wild cards, in positions and as an action's group prefix."""
_PREFIX: Final = re.compile(r"^\s*([0-9a-zA-Z]{1,2})\s*:(.*)$", re.DOTALL)


def key_text(key: int) -> str:
    """``W`` for the meld of wild cards, else the rank's character."""
    return WILD_KEY if key == WILD_MELD else rank_char(key)


def format_group(group: Group) -> str:
    """``7h 7d 2c``; ``W: 2c JK`` for a meld of wild cards; ``K: 2c`` for wild cards alone
    onto a meld of a rank."""
    text = " ".join(format_card(c) for c in sorted(group.cards))
    if group.rank == WILD_MELD or (group.rank >= 0 and all(IS_WILD[c] for c in group.cards)):
        return f"{key_text(group.rank)}: {text}"
    return text


def _order(group: Group) -> tuple[bool, int]:
    return (group.rank == WILD_MELD, -group.rank)


Context = Hand | ModernAmericanRules
"""A hand, or its rules: the catalogue of special hands names a ``special`` action."""


def format_action(h: Context, action: Action) -> str:
    """The canonical text of a Modern American action (``h``: a hand or its rules)."""
    verb = action.verb
    if verb == "keep":
        return "keep none" if action.card == KEEP_NONE else "keep " + format_card(action.card)
    if verb == "special":
        catalogue = CATALOGUES[h.knobs.special_hands]
        if 0 <= action.card < len(catalogue):
            return "special " + catalogue[action.card].name
        return "special ?"
    if verb in ("meld", "take") and action.groups:
        groups = list(action.groups)
        head = groups[:1] if verb == "take" else []
        rest = sorted(groups[len(head):], key=_order)
        return verb + " " + ", ".join(format_group(g) for g in head + rest)
    return classic_format(action)


def _parse_group(text: str) -> Group:
    m = _PREFIX.match(text)
    if m and m.group(1).upper() == WILD_KEY:
        cards = parse_cards(m.group(2))
        if not cards:
            raise NotationError("an empty group of cards")
        if not all(IS_WILD[c] for c in cards):
            raise NotationError(f"the prefix W: names a meld of wild cards, and "
                                f"{text.strip()!r} holds other cards")
        return Group(WILD_MELD, tuple(sorted(cards)))
    named = parse_rank(m.group(1)) if m else None
    cards = parse_cards(m.group(2) if m else text)
    if not cards:
        raise NotationError("an empty group of cards")
    group = make_group(cards, named)
    if named is not None and group.rank != named and any(not IS_WILD[c] for c in cards):
        raise NotationError(f"the prefix {rank_char(named)}: does not match the cards of "
                            f"{text.strip()!r}")
    return group


def parse_action(h: Context, text: str) -> Action:
    """Parse one action line of this family (``h``: a hand or its rules); raises
    :class:`NotationError` if malformed."""
    if not isinstance(text, str):
        raise NotationError(f"an action must be text, not {text!r}")
    words = text.strip().split(None, 1)
    verb = words[0].lower() if words else ""
    rest = words[1].strip() if len(words) > 1 else ""
    if verb == "keep":
        if rest.lower() == "none":
            return Action("keep", (), KEEP_NONE)
        card = parse_card(rest)
        if RANK_OF[card] != THREE:
            raise NotationError(f"keep names a three or none, not {rest!r}")
        return Action("keep", (), card)
    if verb == "special":
        catalogue = CATALOGUES[h.knobs.special_hands]
        for i, hand in enumerate(catalogue):
            if hand.name.lower() == " ".join(rest.lower().split()):
                return Action("special", (), i)
        raise NotationError(f"unknown special hand {rest!r} (these rules have: "
                            + ", ".join(s.name for s in catalogue) + ")")
    if verb in ("meld", "take") and rest:
        return Action(verb, tuple(_parse_group(part) for part in rest.split(",")))
    try:
        return classic_parse(text)
    except NotationError as e:
        raise NotationError(f"{e}; this family also has 'keep 3s', 'keep none' and "
                            "'special NAME'") from None


def parse_line(h: Context, line: str) -> tuple[int | None, Action]:
    """A record line with an optional seat prefix ``p2:``."""
    m = re.match(r"^\s*p(\d+)\s*:\s*(.*)$", line, re.IGNORECASE | re.DOTALL)
    if m:
        return int(m.group(1)), parse_action(h, m.group(2))
    return None, parse_action(h, line)


