"""The knobs of Modern American Canasta that the classic ``Rules`` fields do not have
(MA §16.2), with the defaults of the ``modern-american`` preset, and the classic fields' values
for it (MA §16.1)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from canasta.cards import Rank, parse_rank
from canasta.errors import RulesError
from canasta.rules import Rules

SEVEN: Final[Rank] = parse_rank("7")
ACE: Final[Rank] = parse_rank("A")

ALWAYS: Final = "always"
"""A rank whose melds never take a wild card (sevens, MA §4.3)."""
AFTER_OPENING: Final = "after_opening"
"""A rank whose melds take wild cards only in the side's initial meld (aces, MA §4.4)."""

INITIAL_MELD_REQUIREMENTS: Final = ("clean_triple", "clean_triple_or_wild_meld",
                                    "three_naturals", "none")
STOCK_TOP: Final = "stock_top"
"""Talons are taken from the stock's top after the discard (MA §8.4)."""
SET_ASIDE: Final = "set_aside"
"""Talons are two piles set aside at the deal (the older form, MA §1.4.5)."""
FORBID: Final = "forbid"
"""A meld or pick that leaves no legal discard is refused (MA §7.4, the engine's default)."""
RETRACT_MELDS: Final = "retract_melds"
"""A player left without a legal discard takes cards melded this turn back (MA §7.4, CLA)."""


@dataclass(frozen=True)
class Knobs:
    """The family's own rules, each a switch where the sources disagree (MA §19)."""

    min_naturals_before_wilds_after_opening: int = 5
    """The rule of five (MA §4.2.2): after the initial meld, a wild card joins only a meld that
    holds (or with the same action reaches) this many natural cards."""
    opening_may_close_mixed_canasta: bool = False
    """Whether the initial meld may complete a mixed canasta (MA §4.2.4)."""
    natural_only_ranks: tuple[tuple[Rank, str], ...] = ((SEVEN, ALWAYS), (ACE, AFTER_OPENING))
    rank_canasta_bonus: tuple[tuple[Rank, int], ...] = ((SEVEN, 2500), (ACE, 2500))
    """The bonus of a natural canasta of these ranks, instead of the natural bonus (MA §13.2)."""
    rank_incomplete_penalty: tuple[tuple[Rank, int], ...] = ((SEVEN, 2500), (ACE, 2500))
    """The penalty of an incomplete natural meld of these ranks at the end (MA §13.3)."""
    wild_meld_sizes: tuple[int, int] = (3, 7)
    wild_canasta_all_twos: int = 3000
    wild_canasta_four_jokers: int = 2500
    wild_canasta_other: int = 2000
    wild_meld_incomplete_penalty: int = 2000
    wild_meld_incomplete_penalty_four_jokers: int = 2000
    """pagat: 2500 (MA §4.5.3)."""
    wild_meld_blocks_other_wilds: bool = True
    """While a side's meld of wild cards is incomplete, its wild cards go nowhere else
    (MA §4.2.5)."""
    dead_ranks: bool = True
    """A rank of which either side has completed a canasta takes no more melds (MA §4.6)."""
    initial_meld_requirement: str = "clean_triple"
    """What the initial meld must hold besides its count (MA §5.3)."""
    splash_allowed: bool = False
    """Whether a complete canasta laid from the hand opens without the minimum (MA §5.5)."""
    three_schedule: tuple[tuple[int, int], ...] = ((1, 100), (2, 300), (3, 500), (4, 1000))
    """Laid threes, per colour, by how many (MA §13.4)."""
    three_sign_by_canastas: tuple[int, int, int] = (-1, 0, 1)
    """The sign of the threes' points with 0, 1 and 2 or more canastas (MA §13.4)."""
    hand_penalty: tuple[tuple[Rank, int, int], ...] = ((ACE, 3, 1500), (SEVEN, 3, 1500))
    """(rank, how many in one player's hand, penalty) at the end of a hand (MA §13.5)."""
    kept_three_penalty: int = 100
    last_card_three_penalty: int = 5
    empty_pile_forbidden: frozenset[str] = frozenset({"seven", "ace", "wild", "dead"})
    """What may not be discarded onto an empty pile ("SWAD", MA §7.3)."""
    empty_pile_exception_only_naturals_left: bool = False
    """pagat: a seven or an ace may go onto an empty pile when the hand holds no other natural."""
    empty_pile_rule_applies_to_going_out_discard: bool = False
    """Whether the going-out discard obeys the empty-pile rule too (MA §7.5)."""
    special_hands: str = "cla"
    """The catalogue of special hands: ``"cla"`` (11 hands) or ``"pagat"`` (4), MA §11.2."""
    keep_one_three_for_straight: bool = True
    """While its side has not melded, a player may keep one three in hand (MA §2.3)."""
    talon_sizes: tuple[int, int] = (4, 3)
    """The talon of a side that opens from the hand: before and after the other side has
    melded (MA §8.1)."""
    turn_card_depth: int = 9
    """The turn card lies this many cards from the bottom of the stock; once it is drawn no
    talon is given (MA §1.4.4)."""
    talon_counts_as_held_card: bool = True
    """A player whose talon is due needs only a card to discard, not one to hold (MA §9.2)."""
    talon_not_after_pile_take: bool = True
    """An initial meld made by picking the pack earns no talon (MA §8.2)."""
    initial_meld_counts_pile_top: bool = False
    """Whether the pile's top card counts toward an initial meld made by picking it (MA §5.4;
    the classic family counts it)."""
    pile_top_may_form_clean_triple: bool = False
    """Whether the meld made with the pile's top card may be the initial meld's clean triple
    (MA §5.4, §20.1)."""
    special_hand_after_partner_meld: str = "never"
    """``"never"``, or ``"next_turn_courtesy"``: a player may still lay a special hand on the
    first turn after the partner made the side's initial meld (MA §11.1.2, HB)."""
    pile_visible_depth: int | None = None
    """How many of the pile's top cards a player may look at (MA §6.8, HB: 3); ``None``: all."""
    talon_source: str = STOCK_TOP
    """``"stock_top"``: a talon is taken from the stock's top after the discard, until the turn
    card is drawn; ``"set_aside"``: the older form, two piles of ``talon_sizes`` cards set aside
    at the deal, given to the first and the second side to open from the hand (MA §1.4.5,
    §8.4)."""
    initial_meld_by_hand_number: tuple[int, ...] | None = None
    """The initial meld's minimum by the hand's number in the game instead of the side's score
    (the NV tournament: ``(125, 155, 180)``; later hands take the last value), MA §5.1."""
    max_meld_size_exception_when_going_out: bool = False
    """Whether the meld a player goes out with may take a meld past seven cards (MA §4.1.1,
    W)."""
    no_legal_discard_remedy: str = FORBID
    """``"forbid"``: a meld or pick that leaves no card to discard is refused; ``"retract_melds"``:
    it is played, and the player takes cards melded this turn back to discard one (MA §7.4)."""

    def __post_init__(self) -> None:
        low, high = self.wild_meld_sizes
        if not 1 <= low <= high:
            raise RulesError(f"wild_meld_sizes must be (low, high) with 1 <= low <= high, "
                             f"not {self.wild_meld_sizes!r}")
        if self.initial_meld_requirement not in INITIAL_MELD_REQUIREMENTS:
            raise RulesError(f"initial_meld_requirement must be one of "
                             f"{list(INITIAL_MELD_REQUIREMENTS)}, not "
                             f"{self.initial_meld_requirement!r}")
        for rank, mode in self.natural_only_ranks:
            if mode not in (ALWAYS, AFTER_OPENING):
                raise RulesError(f"natural_only_ranks: {mode!r} for rank {rank} must be "
                                 f"{ALWAYS!r} or {AFTER_OPENING!r}")
        unknown = self.empty_pile_forbidden - {"seven", "ace", "wild", "dead"}
        if unknown:
            raise RulesError(f"empty_pile_forbidden names {sorted(unknown)}: it holds 'seven', "
                             "'ace', 'wild' and 'dead'")
        if self.special_hands not in ("cla", "pagat"):
            raise RulesError(f"special_hands must be 'cla' or 'pagat', not {self.special_hands!r}")
        if self.special_hand_after_partner_meld not in ("never", "next_turn_courtesy"):
            raise RulesError("special_hand_after_partner_meld must be 'never' or "
                             f"'next_turn_courtesy', not {self.special_hand_after_partner_meld!r}")
        if self.pile_visible_depth is not None and self.pile_visible_depth < 1:
            raise RulesError("pile_visible_depth is a number of cards (1 or more) or null")
        if min(self.talon_sizes) < 0 or self.turn_card_depth < 1:
            raise RulesError("talon_sizes are card counts and turn_card_depth counts from 1")
        if self.talon_source not in (STOCK_TOP, SET_ASIDE):
            raise RulesError(f"talon_source must be {STOCK_TOP!r} or {SET_ASIDE!r}, not "
                             f"{self.talon_source!r}")
        if self.no_legal_discard_remedy not in (FORBID, RETRACT_MELDS):
            raise RulesError(f"no_legal_discard_remedy must be {FORBID!r} or {RETRACT_MELDS!r}, "
                             f"not {self.no_legal_discard_remedy!r}")
        by_number = self.initial_meld_by_hand_number
        if by_number is not None and (not isinstance(by_number, tuple) or not by_number or any(
                not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in by_number)):
            raise RulesError("initial_meld_by_hand_number is a list of minimums by hand number "
                             f"(e.g. [125, 155, 180]) or null, not {by_number!r}")
        if not isinstance(self.max_meld_size_exception_when_going_out, bool):
            raise RulesError("max_meld_size_exception_when_going_out must be true or false")
        if len(self.three_sign_by_canastas) != 3:
            raise RulesError("three_sign_by_canastas holds the signs for 0, 1 and 2+ canastas")

    def natural_only(self, rank: Rank) -> str | None:
        """``"always"``, ``"after_opening"`` or ``None`` for melds of ``rank``."""
        return dict(self.natural_only_ranks).get(rank)


KNOBS: Final = Knobs()
"""The ``modern-american`` defaults."""


NAME: Final = "modern-american"
"""The preset's name, and the family's."""

CLASSIC_FIELDS: Final = ("target_score", "min_canastas_to_go_out", "permission_asks_per_hand",
                         "going_out_bonus", "draw_count")
"""The classic fields a Modern American rule set may change (MA §16.1); the others are the
family's."""

KNOB_NAMES: Final = frozenset(f.name for f in dataclasses.fields(Knobs))


@dataclass(frozen=True)
class ModernAmericanRules(Rules):
    """A Modern American rule set: the classic fields with the family's values (MA §16.1) and
    the family's own :class:`Knobs` (MA §16.2). :meth:`replace` and the JSON form take a knob
    by its name as if it were a field."""

    knobs: Knobs = KNOBS

    def replace(self, **changes: Any) -> ModernAmericanRules:
        """A copy with some classic fields or knobs changed (validated again)."""
        knob_changes = {k: changes.pop(k) for k in list(changes) if k in KNOB_NAMES}
        knobs = changes.pop("knobs", self.knobs)
        if knob_changes:
            knobs = dataclasses.replace(knobs, **knob_changes)
        return dataclasses.replace(self, knobs=knobs, **changes)

    def to_json(self) -> str | dict[str, Any]:
        """``"modern-american"``, or ``{"preset": "modern-american", FIELD: VALUE, ...}`` with
        the knobs and classic fields that differ from the preset."""
        out: dict[str, Any] = {"preset": NAME}
        for f in dataclasses.fields(Knobs):
            value = getattr(self.knobs, f.name)
            if value != getattr(KNOBS, f.name):
                out[f.name] = (sorted(value) if isinstance(value, frozenset)
                               else list(value) if isinstance(value, tuple) else value)
        for key in CLASSIC_FIELDS:
            if getattr(self, key) != getattr(MODERN_AMERICAN, key):
                out[key] = getattr(self, key)
        return NAME if len(out) == 1 else out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        fields = tuple((f.name, getattr(self, f.name)) for f in dataclasses.fields(self)
                       if f.init)
        return _rebuild, (fields,)


def _rebuild(fields: tuple[tuple[str, Any], ...]) -> ModernAmericanRules:
    """Unpickle a rule set from its fields by name."""
    return ModernAmericanRules(**dict(fields))


def _knob_from_json(key: str, value: Any) -> Any:
    """A knob's JSON value as the knob's type (lists become tuples, sets frozensets)."""
    current = getattr(KNOBS, key)
    if isinstance(current, frozenset) and isinstance(value, list):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return value


def rules_from_json(value: Any) -> ModernAmericanRules:
    """The rule set of ``"modern-american"`` or of ``{"preset": "modern-american", FIELD:
    VALUE, ...}``, where a field is a knob of :class:`Knobs` or one of
    :data:`CLASSIC_FIELDS`; :class:`~canasta.errors.RulesError` names a bad one."""
    if isinstance(value, ModernAmericanRules):
        return value
    if isinstance(value, str) and value.strip().lower() == NAME:
        return MODERN_AMERICAN
    if not isinstance(value, Mapping) or str(value.get("preset", "")).strip().lower() != NAME:
        raise RulesError(f"not the {NAME} rules: {value!r}")
    knobs: dict[str, Any] = {}
    classic: dict[str, Any] = {}
    for key, v in value.items():
        if key == "preset":
            continue
        if key in KNOB_NAMES:
            knobs[key] = _knob_from_json(key, v)
        elif key in CLASSIC_FIELDS:
            classic[key] = v
        else:
            raise RulesError(f"unknown {NAME} rules field {key!r}")
    try:
        made = Knobs(**knobs)
        return MODERN_AMERICAN.replace(knobs=made, **classic)
    except TypeError as e:
        raise RulesError(f"bad {NAME} rules field: {e}") from None


def base_rules() -> ModernAmericanRules:
    """The classic fields with Modern American's values (MA §16.1) and the default knobs."""
    return ModernAmericanRules(
        name=NAME, hand_size=13, max_wilds_per_meld=2, max_meld_size=7,
        black_three_meld_sizes=(), min_canastas_to_go_out=2, going_out_requires_discard=True,
        initial_meld_thresholds=((None, 125), (3000, 155), (5000, 180)),
        unfrozen_take_natural_plus_wild=False, unfrozen_take_by_adding_to_meld=False,
        concealed_going_out_bonus=100, permission_asks_per_hand=1, stock_out_forced_take=False,
        one_card_pile_take_ban="never", target_score=8500)


MODERN_AMERICAN: Final = base_rules()
"""The ``modern-american`` preset."""
