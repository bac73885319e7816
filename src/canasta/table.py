"""Facts of the table that every reader of a position needs, decided once (RULES §1.11, §2.2).

They take plain values (the rules, the pile, the melds), so that a full
:class:`~canasta.state.HandState` and a seat's :class:`~canasta.observation.Observation` answer
them alike: whose melds a seat plays on, whether a side has melded, how many canastas it has,
and whether the pile is frozen for a seat, why, and by which card.

>>> from canasta.rules import get_rules
>>> from canasta.cards import parse_card
>>> pile = tuple(parse_card(c) for c in ("7h", "2c", "9d"))
>>> freeze_for(get_rules("classic"), pile, True, side_melded=True)
Freeze(card=48, reason='a wild card is in it')
>>> freeze_for(get_rules("classic"), (), False, side_melded=False).reason
'your side has not melded'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from canasta.cards import Card, card_kind
from canasta.rules import Rules
from canasta.variant import variant_of

Melds = Sequence["tuple[Card, ...] | None"]


@dataclass(frozen=True)
class Freeze:
    """Why the pile is frozen for a seat: ``reason`` in a player's words (``None``: it is not),
    and ``card``, the card that froze it for everyone (``None`` when it is frozen only because
    the seat's side has not melded, or not frozen)."""

    card: Card | None
    reason: str | None

    @property
    def frozen(self) -> bool:
        """True when a natural pair of the top card's rank is needed to take the pile."""
        return self.reason is not None


NOT_FROZEN = Freeze(None, None)

_KIND_WORDS = {"wild": "a wild card is in it", "black3": "a black three is in it",
               "red3": "a red three is in it"}


def freezes(rules: Rules, card: Card) -> bool:
    """Whether ``card`` is of a kind that freezes the pile under ``rules``: a turned-up card of
    the kinds ``upcard_freeze_kinds`` names, a discarded wild card (``pile_frozen_by_wild``) or,
    with ``black_three_freezes_pile``, a black three."""
    kind = card_kind(card)
    if kind is None:
        return False
    return (kind in rules.upcard_freeze_kinds or (kind == "wild" and rules.pile_frozen_by_wild)
            or (kind == "black3" and rules.black_three_freezes_pile))


def freezing_card(rules: Rules, pile: Sequence[Card]) -> Card | None:
    """The lowest card of a frozen ``pile`` of a kind that freezes it (:func:`freezes`);
    ``None`` when no card there can have."""
    return next((c for c in pile if freezes(rules, c)), None)


def frozen_for(rules: Rules, pile_frozen: bool, side_melded: bool) -> bool:
    """Whether the pile is frozen for a seat whose side has melded or not: ``freeze_for(...)
    .frozen``, without the reason (RULES §1.11)."""
    return pile_frozen or (rules.pile_frozen_until_side_melds and not side_melded)


def freeze_for(rules: Rules, pile: Sequence[Card], pile_frozen: bool,
               side_melded: bool) -> Freeze:
    """Whether, why and by which card the pile is frozen for a seat whose side has melded or
    not (RULES §1.11: frozen for everyone by a card in it, or for a side that has not melded)."""
    if not frozen_for(rules, pile_frozen, side_melded):
        return NOT_FROZEN
    if pile_frozen:
        card = freezing_card(rules, pile)
        kind = card_kind(card) if card is not None else None
        return Freeze(card, _KIND_WORDS[kind] if kind is not None else "a card froze it")
    return Freeze(None, "your side has not melded")


def owner_of(rules: Rules, seat: int, lone_hand: int | None) -> int:
    """Index into a position's melds of the melds ``seat`` plays on: its side, except in the
    cutthroat game once the lone hand is known, when the two others share the melds kept under
    the lower of their seats (RULES §2.2)."""
    if lone_hand is None or seat == lone_hand:
        return seat % rules.num_sides
    return min(s for s in range(rules.num_players) if s != lone_hand)


def has_melded(melds: Melds) -> bool:
    """True when some meld is on the table (red threes do not count)."""
    for m in melds:  # noqa: SIM110 (a plain loop: on the hot path a generator costs more)
        if m is not None:
            return True
    return False


def canastas(rules: Rules, melds: Melds) -> int:
    """The completed canastas among one owner's melds (the variant's count)."""
    return variant_of(rules).canastas(melds)
