"""Rules as data: one frozen :class:`Rules` value per rule set, and the named presets.

Every field corresponds to a row of RULES §6; ``docs/rules.md`` maps each rule clause to its
field and to the tests that check it. A preset is looked up by name with :func:`get_rules`;
fields are overridden with :func:`rules_from_json` (NOTATION §3) or :meth:`Rules.replace`.

>>> r = get_rules("classic")
>>> r.num_players, r.hand_size, r.draw_count, r.minimum_for(1500)
(4, 11, 1, 90)
>>> get_rules("classic").replace(target_score=3000).target_score
3000
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from canasta.cards import (
    BLACK_THREES,
    IS_BLACK_THREE,
    IS_RED_THREE,
    JOKER,
    NATURAL_RANKS,
    NUM_CARD_TYPES,
    RANK_CHARS,
    RANK_OF,
    RED_THREES,
    TWO,
)
from canasta.errors import RulesError

CARD_KINDS = frozenset({"wild", "red3", "black3"})
STOCK_EXHAUSTED_RULES = ("continue_by_pile", "void_draw", "end_after_last_discard")
DRAW_HAND_SCORINGS = ("none", "normal_without_out_bonus")
DRAW_TRIGGERS = ("cannot_supply", "stock_empty")
ONE_CARD_PILE_TAKE_BANS = ("always", "stock_out", "never")
"""When a player holding one card may not take a pile of one card (RULES §1.12.6)."""
TARGET_COMPARISONS = (">=", ">")
TIE_RULES = ("play_another_hand",)

CLASSIC_CARD_VALUES: tuple[tuple[str, int], ...] = (
    ("JK", 50), ("2", 20), ("A", 20), ("K", 10), ("Q", 10), ("J", 10), ("T", 10),
    ("9", 10), ("8", 10), ("7", 5), ("6", 5), ("5", 5), ("4", 5),
)
CLASSIC_THRESHOLDS: tuple[tuple[int | None, int], ...] = (
    (None, 15), (0, 50), (1500, 90), (3000, 120),
)


_OPENING_IDS: dict[tuple[object, ...], int] = {}


@dataclass(frozen=True)
class Rules:
    """Every knob of a Canasta rule set (RULES §6). Checked on creation; raises :class:`RulesError`.

    Seats are ``0..num_players-1``; the side of a seat is ``seat % num_sides``.
    """

    name: str = "classic"
    # -- players, pack, deal
    num_players: int = 4
    num_sides: int = 2
    num_decks: int = 2
    num_jokers: int = 4
    hand_size: int = 11
    draw_count: int = 1
    discard_count: int = 1
    upcard_cover_kinds: frozenset[str] = frozenset({"wild", "red3"})
    upcard_freeze_kinds: frozenset[str] = frozenset({"wild", "red3"})
    dealt_red_threes_replaced: bool = True
    pile_red_threes_replaced: bool = False
    # -- card values and bonuses
    card_values: tuple[tuple[str, int], ...] = CLASSIC_CARD_VALUES
    black_three_value: int = 5
    red_three_value: int = 100
    red_three_schedule: tuple[tuple[int, int], ...] = ((4, 800),)
    red_threes_negative_if_no_meld: bool = True
    # -- melds and canastas
    min_meld_size: int = 3
    min_naturals_per_meld: int = 2
    max_wilds_per_meld: int = 3
    wilds_must_not_exceed_naturals: bool = False
    max_meld_size: int | None = None
    canasta_size: int = 7
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    hidden_canasta_bonus: int = 0
    black_three_meld_sizes: tuple[int, ...] = (3, 4)
    # -- initial meld
    initial_meld_thresholds: tuple[tuple[int | None, int], ...] = CLASSIC_THRESHOLDS
    concealed_out_minimum_exempt_on_stock_draw: bool = True
    # -- the discard pile
    pile_frozen_by_wild: bool = True
    pile_frozen_until_side_melds: bool = True
    black_three_freezes_pile: bool = False
    unfrozen_take_natural_plus_wild: bool = True
    unfrozen_take_by_adding_to_meld: bool = True
    # -- going out
    min_canastas_to_go_out: int = 1
    going_out_requires_discard: bool = False
    going_out_bonus: int = 100
    concealed_going_out_bonus: int = 200
    concealed_requires_own_canasta: bool = True
    concealed_forbids_adding_to_partner_melds: bool = True
    concealed_allows_pile_take: bool = True
    permission_question_enabled: bool = True
    permission_asks_per_hand: int | None = None
    ask_before_draw: bool = False
    # -- the end of the stock
    stock_exhausted_rule: str = "continue_by_pile"
    stock_out_forced_take: bool = True
    one_card_pile_take_ban: str = "always"
    red_three_last_card_ends_hand: bool = True
    last_red_three_may_meld: bool = False
    draw_hand_scoring: str = "none"
    draw_trigger: str = "cannot_supply"
    # -- three-player cutthroat
    lone_hand: bool = False
    # -- the game
    target_score: int = 5000
    target_comparison: str = ">="
    tie_rule: str = "play_another_hand"
    first_dealer: int = 0

    # derived tables, filled in __post_init__ (not fields of the rule set)
    value_of: tuple[int, ...] = field(default=(), init=False, repr=False, compare=False)
    meld_shape: tuple[object, ...] = field(default=(), init=False, repr=False, compare=False)
    """A cache key for the legal-action lists: ``("rules", opening_id)``."""
    opening_id: int = field(default=0, init=False, repr=False, compare=False)
    """A small number shared by equal rule sets whatever their name (a cache key). It is drawn
    from every field, so a field added later can never leave a stale cached list."""

    def __post_init__(self) -> None:
        _validate(self)
        values = dict(self.card_values)
        table = []
        for card in range(NUM_CARD_TYPES):
            if card == JOKER:
                table.append(values["JK"])
            elif IS_RED_THREE[card]:
                table.append(0)
            elif IS_BLACK_THREE[card]:
                table.append(self.black_three_value)
            elif RANK_OF[card] == TWO:
                table.append(values["2"])
            else:
                table.append(values[RANK_CHARS[RANK_OF[card]]])
        object.__setattr__(self, "value_of", tuple(table))
        play = tuple(getattr(self, f.name) for f in dataclasses.fields(self)
                     if f.init and f.name != "name")
        opening_id = _OPENING_IDS.setdefault(play, len(_OPENING_IDS))
        object.__setattr__(self, "opening_id", opening_id)
        object.__setattr__(self, "meld_shape", ("rules", opening_id))

    # -- derived facts -------------------------------------------------------------------------
    @property
    def deck_size(self) -> int:
        """Number of cards in the pack."""
        return 52 * self.num_decks + self.num_jokers

    @property
    def partnership(self) -> bool:
        """True when some side has more than one seat."""
        return self.num_players > self.num_sides

    def side_of(self, seat: int) -> int:
        """The side of a seat (before any cutthroat lone hand is known)."""
        return seat % self.num_sides

    def minimum_for(self, score: int) -> int:
        """The initial-meld minimum count for a cumulative score (RULES §1.10)."""
        minimum = self.initial_meld_thresholds[0][1]
        for lower, value in self.initial_meld_thresholds:
            if lower is None or score >= lower:
                minimum = value
        return minimum

    def red_three_score(self, count: int) -> int:
        """The bonus for ``count`` red threes laid by one side, before the sign (RULES §1.17)."""
        schedule = dict(self.red_three_schedule)
        return schedule.get(count, self.red_three_value * count)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated again). The older boolean
        ``stock_out_one_card_exception`` is accepted too (see :data:`LEGACY_FIELDS`)."""
        return dataclasses.replace(self, **_current_fields(changes))

    def to_json(self) -> str | dict[str, Any]:
        """The preset name, or ``{"preset": name, field: value, ...}`` with the changed fields."""
        base = PRESETS.get(self.name)
        if base is None:
            base = PRESETS["classic"]
        diff: dict[str, Any] = {}
        for f in FIELDS:
            if f == "name":
                continue
            mine, theirs = getattr(self, f), getattr(base, f)
            if mine != theirs:
                diff[f] = _field_to_json(f, mine)
        if not diff and self.name in PRESETS:
            return self.name
        return {"preset": self.name if self.name in PRESETS else "classic", **diff}

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # Rebuilt from its fields: the derived tables (``opening_id`` is numbered per process)
        # are computed again where the rules are unpickled; a family's subclass as itself, so
        # that a worker process finds the rules' family.
        return _rebuild, (tuple((f, getattr(self, f)) for f in FIELDS), type(self))


def _rebuild(fields: tuple[tuple[str, Any], ...], kind: type[Rules] | None = None) -> Rules:
    """Unpickle a :class:`Rules` (or a family's subclass ``kind``) from its fields by name."""
    return (kind or Rules)(**dict(fields))


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules) if f.init)
BOOL_FIELDS: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.init and f.type in ("bool", bool))
"""The true-or-false fields, in declaration order (annotations are strings here, see the
``__future__`` import)."""


def _is_int(v: Any) -> bool:
    """An integer, and not a boolean (JSON ``true`` must not pass for 1)."""
    return isinstance(v, int) and not isinstance(v, bool)


def _bad(name: str, why: str) -> RulesError:
    """The error for field ``name``, saying ``why`` it is invalid."""
    return RulesError(f"invalid rules field {name!r}: {why}")


def _check_int(r: Rules, name: str, low: int, high: int | None = None) -> None:
    """Field ``name`` is an integer from ``low`` to ``high`` (no upper bound if None)."""
    v = getattr(r, name)
    if not _is_int(v) or v < low or (high is not None and v > high):
        rng = f"{low}..{high}" if high is not None else f">= {low}"
        raise _bad(name, f"must be an integer {rng}, not {v!r}")


BONUS_FIELDS = ("natural_canasta_bonus", "mixed_canasta_bonus", "hidden_canasta_bonus",
                "going_out_bonus", "concealed_going_out_bonus", "red_three_value",
                "black_three_value")
"""Integer fields that only need to be at least 0."""

SET_FIELDS = ("upcard_cover_kinds", "upcard_freeze_kinds")
"""The fields that are sets of card kinds."""

CHOICE_FIELDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("stock_exhausted_rule", STOCK_EXHAUSTED_RULES),
    ("draw_hand_scoring", DRAW_HAND_SCORINGS),
    ("draw_trigger", DRAW_TRIGGERS),
    ("one_card_pile_take_ban", ONE_CARD_PILE_TAKE_BANS),
    ("target_comparison", TARGET_COMPARISONS),
    ("tie_rule", TIE_RULES),
)
"""The text fields, each with the values it may take."""


def _check_players(r: Rules) -> None:
    """Seats, sides and decks, which the other bounds depend on."""
    for name in ("num_players", "num_sides", "num_decks"):
        _check_int(r, name, 1)
    _check_int(r, "num_players", 2, 8)
    _check_int(r, "num_sides", 2, r.num_players)
    if r.num_players % r.num_sides:
        raise _bad("num_sides", f"{r.num_players} players cannot sit in {r.num_sides} "
                   "equal sides")


def _check_counts(r: Rules) -> None:
    """The integer fields with their bounds."""
    _check_int(r, "num_jokers", 0)
    _check_int(r, "hand_size", 1)
    _check_int(r, "draw_count", 1, 5)
    _check_int(r, "discard_count", 1, 1)
    _check_int(r, "min_meld_size", 3)
    _check_int(r, "min_naturals_per_meld", 2)
    _check_int(r, "max_wilds_per_meld", 0)
    _check_int(r, "canasta_size", r.min_meld_size)
    for name in BONUS_FIELDS:
        _check_int(r, name, 0)
    _check_int(r, "min_canastas_to_go_out", 0)
    _check_int(r, "target_score", 1)
    _check_int(r, "first_dealer", 0, r.num_players - 1)
    if r.max_meld_size is not None:
        _check_int(r, "max_meld_size", max(r.min_meld_size, r.canasta_size))
    if r.permission_asks_per_hand is not None:
        _check_int(r, "permission_asks_per_hand", 1)


def _check_booleans(r: Rules) -> None:
    """Every field typed ``bool`` (:data:`BOOL_FIELDS`) holds a boolean."""
    for name in BOOL_FIELDS:
        v = getattr(r, name)
        if not isinstance(v, bool):
            raise _bad(name, f"must be true or false, not {v!r}")


def _check_sets(r: Rules) -> None:
    """The card-kind sets hold only kinds of :data:`CARD_KINDS`."""
    for name in SET_FIELDS:
        v = getattr(r, name)
        if not isinstance(v, frozenset) or not v <= CARD_KINDS:
            raise _bad(name, f"must be a set of {sorted(CARD_KINDS)}, not {v!r}")


def _check_choices(r: Rules) -> None:
    """Each text field holds one of its values (:data:`CHOICE_FIELDS`)."""
    for name, allowed in CHOICE_FIELDS:
        if getattr(r, name) not in allowed:
            raise _bad(name, f"must be one of {list(allowed)}, not {getattr(r, name)!r}")


def _check_card_values(r: Rules) -> None:
    """One value >= 0 for the joker, the two and each rank from four to ace."""
    values = dict(r.card_values) if isinstance(r.card_values, tuple) else {}
    want = {"JK", "2", *(RANK_CHARS[r] for r in NATURAL_RANKS)}
    if set(values) != want or any(not _is_int(v) or v < 0 for v in values.values()):
        raise _bad("card_values", f"must give a value >= 0 to each of {sorted(want)}")


def _thresholds_ok(th: Any) -> bool:
    """``[[None, min], [score, min], ...]`` with integer minimums >= 0 and increasing scores."""
    if not isinstance(th, tuple) or not th or th[0][0] is not None:
        return False
    # any() stops at the first bad row, so a malformed row after it never raises instead
    if any(not _is_int(lo) for lo, _ in th[1:]) or any(not _is_int(v) or v < 0 for _, v in th):
        return False
    return [lo for lo, _ in th[1:]] == sorted({lo for lo, _ in th[1:] if lo is not None})


def _check_thresholds(r: Rules) -> None:
    """The initial-meld minimums by score (RULES §1.10)."""
    if not _thresholds_ok(r.initial_meld_thresholds):
        raise _bad("initial_meld_thresholds",
                   "must be [[null, min], [score, min], ...] with increasing scores")


def _check_schedule(r: Rules) -> None:
    """The red-three bonus totals by count (RULES §1.17)."""
    sched = r.red_three_schedule
    if not isinstance(sched, tuple) or any(
            not _is_int(n) or not _is_int(v) or n < 1 for n, v in sched):
        raise _bad("red_three_schedule", "must map a number of red threes to a total score")


def _check_black_three_sizes(r: Rules) -> None:
    """Black-three meld sizes from 3 to the number of black threes in the pack."""
    sizes = r.black_three_meld_sizes
    black_threes = len(BLACK_THREES) * r.num_decks
    if not isinstance(sizes, tuple) or any(
            not _is_int(s) or s < 3 or s > black_threes for s in sizes):
        raise _bad("black_three_meld_sizes", f"must be sizes from 3 to {black_threes}")


def _check_combinations(r: Rules) -> None:
    """Fields valid one by one that do not go together."""
    if r.num_sides == r.num_players and r.permission_question_enabled:
        raise _bad("permission_question_enabled", "asking a partner needs partnerships")
    if r.ask_before_draw and not r.permission_question_enabled:
        raise _bad("ask_before_draw", "there is no partner to ask "
                   "(permission_question_enabled is false)")
    if r.lone_hand and (r.num_players != 3 or r.num_sides != 3):
        raise _bad("lone_hand", "the cutthroat lone hand is a three-player rule")
    cards_needed = r.num_players * r.hand_size + 1
    if cards_needed > r.deck_size:
        raise _bad("hand_size", f"{r.num_players} hands of {r.hand_size} do not fit in "
                   f"{r.deck_size} cards")


_CHECKS = (_check_players, _check_counts, _check_booleans, _check_sets, _check_choices,
           _check_card_values, _check_thresholds, _check_schedule, _check_black_three_sizes,
           _check_combinations)
"""In order: the first failing check is the one reported, and later checks may rely on the
fields the earlier ones passed (the counts on ``num_players``, the combinations on all)."""


def _validate(r: Rules) -> None:
    """Raise :class:`RulesError` naming the first invalid field of ``r``."""
    for check in _CHECKS:
        check(r)


def _field_to_json(name: str, value: Any) -> Any:
    if isinstance(value, frozenset):
        return sorted(value)
    if name == "card_values":
        return dict(value)
    if name == "red_three_schedule":
        return {str(n): v for n, v in value}
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def _field_from_json(name: str, value: Any) -> Any:
    """Convert a JSON value to the field's Python type; type errors surface in validation."""
    if name in SET_FIELDS:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise RulesError(f"invalid rules field {name!r}: "
                             f"must be a list of {sorted(CARD_KINDS)}")
        return frozenset(value)
    if name == "card_values":
        if not isinstance(value, dict):
            raise RulesError("invalid rules field 'card_values': must be an object")
        return tuple(sorted(value.items()))
    if name == "red_three_schedule":
        if not isinstance(value, dict):
            raise RulesError("invalid rules field 'red_three_schedule': must be an object")
        try:
            return tuple(sorted((int(k), v) for k, v in value.items()))
        except ValueError:
            raise RulesError("invalid rules field 'red_three_schedule': keys are counts") from None
    if name == "initial_meld_thresholds":
        if not isinstance(value, list) or not all(
                isinstance(row, list) and len(row) == 2 for row in value):
            raise RulesError("invalid rules field 'initial_meld_thresholds': "
                             "must be [[null, min], [score, min], ...]")
        return tuple((row[0], row[1]) for row in value)
    if name == "black_three_meld_sizes":
        if not isinstance(value, list):
            raise RulesError("invalid rules field 'black_three_meld_sizes': must be a list")
        return tuple(value)
    return value


LEGACY_FIELDS: dict[str, tuple[str, dict[bool, str]]] = {
    "stock_out_one_card_exception": ("one_card_pile_take_ban", {True: "stock_out",
                                                                False: "never"}),
}
"""Older boolean fields still accepted, each with the field and value it now means."""


def _current_fields(changes: dict[str, Any]) -> dict[str, Any]:
    """``changes`` with every older field (:data:`LEGACY_FIELDS`) given as the field it became."""
    if not any(key in LEGACY_FIELDS for key in changes):
        return changes
    out = dict(changes)
    for old, (new, meaning) in LEGACY_FIELDS.items():
        if old not in out:
            continue
        value = out.pop(old)
        if not isinstance(value, bool):
            raise RulesError(f"invalid rules field {old!r}: must be true or false, not {value!r}")
        if new in out and out[new] != meaning[value]:
            raise RulesError(f"rules fields {old!r} ({json.dumps(value)}) and {new!r} "
                             f"({json.dumps(out[new])}) disagree: give only {new!r}")
        out[new] = meaning[value]
    return out


_CLASSIC = Rules()
PRESETS: dict[str, Rules] = {
    "classic": _CLASSIC,
    "classic-2p": _CLASSIC.replace(
        name="classic-2p", num_players=2, num_sides=2, hand_size=15, draw_count=2,
        min_canastas_to_go_out=2, permission_question_enabled=False),
    "classic-3p": _CLASSIC.replace(
        name="classic-3p", num_players=3, num_sides=3, hand_size=13,
        permission_question_enabled=False),
    "classic-3p-cutthroat": _CLASSIC.replace(
        name="classic-3p-cutthroat", num_players=3, num_sides=3, hand_size=13, draw_count=2,
        min_canastas_to_go_out=2, permission_question_enabled=False, lone_hand=True,
        stock_exhausted_rule="end_after_last_discard", target_score=7500),
    "classic-6p": _CLASSIC.replace(
        name="classic-6p", num_players=6, num_sides=2, num_decks=3, num_jokers=6, hand_size=13,
        min_canastas_to_go_out=2, red_three_schedule=((5, 1000), (6, 1200)),
        black_three_meld_sizes=(3, 4, 5, 6),
        initial_meld_thresholds=CLASSIC_THRESHOLDS + ((7000, 150),), target_score=10000),
    "classic-6p-3x2": _CLASSIC.replace(
        name="classic-6p-3x2", num_players=6, num_sides=3, num_decks=3, num_jokers=6,
        hand_size=13, min_canastas_to_go_out=2, red_three_schedule=((5, 1000), (6, 1200)),
        black_three_meld_sizes=(3, 4, 5, 6),
        initial_meld_thresholds=CLASSIC_THRESHOLDS + ((7000, 150),), target_score=7500),
    "korean-old": _CLASSIC.replace(
        name="korean-old", draw_count=2, upcard_cover_kinds=frozenset(),
        permission_asks_per_hand=1, concealed_out_minimum_exempt_on_stock_draw=False,
        concealed_requires_own_canasta=False, concealed_forbids_adding_to_partner_melds=False,
        stock_exhausted_rule="void_draw", target_comparison=">",
        # RULES §6 "—": no stock-exhausted phase, so no forced take there
        stock_out_forced_take=False, one_card_pile_take_ban="never"),
    "spruce-classic": _CLASSIC.replace(
        name="spruce-classic", upcard_cover_kinds=frozenset({"wild", "red3", "black3"}),
        wilds_must_not_exceed_naturals=True, hidden_canasta_bonus=100),
}
ALIASES = {"classic-4p": "classic"}


def get_rules(name: str) -> Rules:
    """The preset called ``name`` (case-insensitive); raises :class:`RulesError` if unknown."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(f"unknown preset {name!r} (known: {', '.join(PRESETS)})") from None


def rules_from_json(value: Any) -> Rules:
    """Rules from a preset name or ``{"preset": NAME, FIELD: VALUE, ...}`` (NOTATION §3)."""
    if isinstance(value, Rules):
        return value
    if isinstance(value, str):
        return get_rules(value)
    if not isinstance(value, Mapping):
        raise RulesError(f"rules must be a preset name or an object, not {value!r}")
    if "preset" not in value or not isinstance(value["preset"], str):
        raise RulesError("a rules object needs a \"preset\" name")
    base = get_rules(value["preset"])
    changes: dict[str, Any] = {}
    derived: dict[str, Any] = {}
    for key, v in value.items():
        if key == "preset":
            continue
        if key in FIXED_FIELDS or key in DERIVED_FIELDS:
            derived[key] = v
            continue
        if key in LEGACY_FIELDS:
            changes[key] = v
            continue
        if key not in FIELDS or key == "name":
            raise RulesError(f"unknown rules field {key!r}")
        changes[key] = _field_from_json(key, v)
    changes = _current_fields(changes)
    if isinstance(changes.get("card_values"), tuple):  # a partial table changes those cards
        changes["card_values"] = tuple(sorted({**dict(base.card_values),
                                               **dict(changes["card_values"])}.items()))
    if "all_red_threes_value" in derived:
        total = derived.pop("all_red_threes_value")
        if not _is_int(total) or total < 0:
            raise RulesError("invalid rules field 'all_red_threes_value': must be an integer "
                             f">= 0, not {total!r}")
        schedule = dict(changes.get("red_three_schedule", base.red_three_schedule))
        schedule[len(RED_THREES) * changes.get("num_decks", base.num_decks)] = total
        changes["red_three_schedule"] = tuple(sorted(schedule.items()))
    try:
        rules = base.replace(**changes)
    except TypeError as e:  # a value of the wrong type that validation did not catch first
        raise RulesError(f"invalid rules: {e}") from None
    for key, v in derived.items():
        _check_implied(rules, key, v)
    return rules


FIXED_FIELDS: dict[str, object] = {
    "allow_wild_only_melds": False, "one_meld_per_rank_per_side": True,
    "black_three_meld_only_when_going_out": True, "initial_meld_counts_pile_top_only": True,
    "black_three_blocks_pile": True,
}
"""RULES §6 fields that every preset shares and the engine implements one way only."""

DERIVED_FIELDS = ("deck_size", "side_of_seat", "first_player", "all_red_threes_value")
"""RULES §6 fields that follow from others (``all_red_threes_value`` sets the schedule's entry
for every red three of the pack)."""


def _check_implied(rules: Rules, key: str, value: Any) -> None:
    """A fixed or derived RULES §6 field is accepted with the value the other fields give it."""
    want: Sequence[object]
    if key in FIXED_FIELDS:
        want = [FIXED_FIELDS[key]]
    elif key == "deck_size":
        want = [rules.deck_size]
    elif key == "side_of_seat":
        k = rules.num_sides
        want = [f"seat % {k}", f"seat%{k}"] + (["seat"] if k == rules.num_players else [])
    else:  # first_player
        want = ["left of dealer"] + (["non-dealer"] if rules.num_players == 2 else [])
    if value not in want or isinstance(value, bool) != isinstance(want[0], bool):
        shown, given = json.dumps(want[0]), json.dumps(value)
        raise RulesError(f"invalid rules field {key!r}: these rules give it {shown}, not "
                         f"{given} (it follows from the other fields)" if key in DERIVED_FIELDS
                         else f"invalid rules field {key!r}: only {shown} is supported")
