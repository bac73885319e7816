"""The rules of Hand and Foot as data: every field of HF §16.1 with its default, the presets
of HF §16.2, their validation and their JSON form.

A rule set is a :class:`HandFootRules`: the classic :class:`~canasta.rules.Rules` fields that
the shared parts of canasta read (players, sides, packs, card values, ...), all derived from
the family's own :class:`Knobs`, which are the one place each rule is stated. The JSON form
(NOTATION §3) names a preset and the knobs that differ from it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from canasta.cards import RANK_CHARS, Rank, parse_rank
from canasta.errors import RulesError
from canasta.rules import CLASSIC_CARD_VALUES, Rules

NAME: Final = "hand-and-foot"
"""The default preset's name, and the family's."""

BOOK: Final = 7
"""A meld becomes a book at seven cards (HF §5.1)."""
MIN_MELD: Final = 3
"""A meld holds at least three cards (HF §4.1.1)."""

NINES_LOW_VALUES: Final[tuple[tuple[str, int], ...]] = tuple(
    (rank, 5 if rank in ("9", "8") else value) for rank, value in CLASSIC_CARD_VALUES)
"""``card_values = "nines_low"``: eights and nines count 5 like the low cards (HF §1.3)."""

CARD_VALUE_TABLES: Final = {"standard": CLASSIC_CARD_VALUES, "nines_low": NINES_LOW_VALUES}

# the choices of the fields that take one of several words (HF §16.1)
WILD_RATIOS: Final = ("naturals_exceed_wilds", "naturals_at_least_twice",
                      "naturals_at_least_wilds")
RED_THREE_MODES: Final = ("bonus", "penalty")
BOOK_EXTRAS: Final = ("none", "naturals", "any")
TAKE_PAIRS: Final = ("natural_pair", "natural_plus_wild", "one_natural")
FOOT_ON_MELD_OUT: Final = ("continue", "end_turn")
WALK_TIMINGS: Final = ("end_of_turn", "next_turn")
PARTNER_FOOT: Final = ("picked_up", "played_from", "none")
GOING_OUT_DISCARDS: Final = ("optional", "required", "forbidden")
STOCK_OUT_RULES: Final = ("end_after_last_discard", "continue_by_pile", "reshuffle_pile")
GAME_ENDS: Final = ("rounds", "target")
TIE_RULES: Final = ("shared", "play_another_hand")
REBURY_KINDS: Final = frozenset({"red3", "wild"})
FALLBACK_DISCARDS: Final = ("any",)


@dataclass(frozen=True)
class Knobs:
    """Every rule of Hand and Foot a table may change (HF §16.1), with the defaults of the
    ``hand-and-foot`` preset. Names are those of HF §16.1."""

    num_players: int = 4
    num_sides: int = 2
    """Seat ``s`` plays for side ``s % num_sides`` (partners opposite; individuals when the
    sides are as many as the seats; 6 players as 2 teams of 3 or 3 teams of 2, HF §14)."""
    num_decks: int | None = None
    """Packs of 52 cards and 2 jokers; ``None``: one more than the players (HF §1.2.1)."""
    hand_size: int = 11
    foot_size: int = 11
    upcard: bool = True
    upcard_rebury_kinds: frozenset[str] = frozenset({"red3", "wild"})
    """An upcard of these kinds goes back into the stock (at its bottom: a record replays from
    the pack's order alone) and the next card is turned (HF §1.4.3)."""
    draw_count: int = 2
    card_values: str = "standard"
    black_three_value: int = 5
    red_three_mode: str = "bonus"
    red_three_laid_value: int = 100
    red_three_unlaid_penalty: int = 100
    red_three_penalty: int = 500
    """Penalty mode: each red three caught in a hand or foot at the end (HF §2.2)."""
    red_threes_negative_if_no_meld: bool = False
    dealt_red_threes_replaced: bool = True
    wild_ratio: str = "naturals_exceed_wilds"
    max_wilds_per_meld: int = 3
    allow_wild_only_melds: bool = False
    one_open_meld_per_rank_per_side: bool = True
    book_accepts_extra: str = "none"
    black_three_meld_when_going_out: bool = False
    natural_canasta_bonus: int = 500
    mixed_canasta_bonus: int = 300
    wild_book_bonus: int = 1500
    rank_book_bonus: tuple[tuple[str, int], ...] = ()
    """Rank character -> the bonus of a clean book of that rank instead of the clean bonus."""
    initial_meld_by_round: tuple[int, ...] = (50, 90, 120, 150)
    initial_meld_by_score: tuple[tuple[int, int], ...] | None = None
    """``((score, minimum), ...)``: the minimum by the side's cumulative score instead of by
    the deal's number (HF §6.1, [ROTH])."""
    initial_meld_counts_pile_top: bool = True
    pile_cards_below_top_count_for_opening: bool = False
    pile_take_requires_opened: bool = False
    pile_take_count: int | None = 7
    """Cards a take moves from the pile's top; ``None``: the whole pile (HF §7.3)."""
    pile_take_pair: str = "natural_pair"
    three_blocks_pile: bool = True
    wild_on_top_takeable: bool = False
    wild_discard_allowed: bool = True
    wild_discard_freezes_pile: bool = True
    fallback_discard: str = "any"
    pile_visible_depth: int | None = None
    foot_on_meld_out: str = "continue"
    walk_pickup_timing: str = "end_of_turn"
    min_cards_after_discard_in_foot: int = 1
    books_to_go_out: tuple[int, int, int] = (2, 2, 0)
    """Clean, dirty and wild books a side needs to go out (HF §10.1b)."""
    clean_counts_as_dirty: bool = False
    partner_foot_requirement: str = "picked_up"
    permission_question_enabled: bool = True
    permission_required: bool = True
    permission_asks_per_hand: int | None = None
    going_out_discard: str = "optional"
    going_out_bonus: int = 100
    concealed_going_out_bonus: int = 100
    """No concealed bonus in Hand and Foot: equal to ``going_out_bonus`` it adds nothing."""
    stock_exhausted_rule: str = "end_after_last_discard"
    stock_out_forced_take: bool = False
    game_end: str = "rounds"
    rounds_per_game: int = 4
    target_score: int | None = None
    tie_rule: str = "shared"
    exact_cut_bonus: int = 0
    first_dealer: int = 0

    def __post_init__(self) -> None:
        _validate(self)

    @property
    def decks(self) -> int:
        """Packs in play."""
        return self.num_players + 1 if self.num_decks is None else self.num_decks

    @property
    def deck_size(self) -> int:
        """Cards in play."""
        return 54 * self.decks

    @property
    def partnership(self) -> bool:
        """True when a side has more than one seat: partners, the question and the partner's
        foot (HF §10.1c–d)."""
        return self.num_players > self.num_sides

    def minimum(self, deal_number: int, score: int) -> int:
        """The opening minimum of deal ``deal_number`` (from 1) for a side with cumulative
        ``score`` (HF §6.1; deals past the table use its last value)."""
        if self.initial_meld_by_score is not None:
            minimum = self.initial_meld_by_score[0][1]
            for lower, value in self.initial_meld_by_score:
                if score >= lower:
                    minimum = value
            return minimum
        table = self.initial_meld_by_round
        return table[min(max(deal_number, 1), len(table)) - 1]

    def book_bonus(self, rank: Rank) -> int:
        """The bonus of a clean book of ``rank``."""
        for char, bonus in self.rank_book_bonus:
            if parse_rank(char) == rank:
                return bonus
        return self.natural_canasta_bonus


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _choice(k: Knobs, name: str, choices: tuple[str, ...]) -> None:
    v = getattr(k, name)
    if v not in choices:
        raise RulesError(f"invalid rules field {name!r}: must be one of {list(choices)}, "
                         f"not {v!r}")


def _int(k: Knobs, name: str, low: int, high: int | None = None, *,
         optional: bool = False) -> None:
    v = getattr(k, name)
    if v is None and optional:
        return
    if not _is_int(v) or v < low or (high is not None and v > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        extra = " or null" if optional else ""
        raise RulesError(f"invalid rules field {name!r}: must be an integer {span}{extra}, "
                         f"not {v!r}")


_CHOICES: Final = (("card_values", tuple(CARD_VALUE_TABLES)), ("wild_ratio", WILD_RATIOS),
                   ("red_three_mode", RED_THREE_MODES), ("book_accepts_extra", BOOK_EXTRAS),
                   ("pile_take_pair", TAKE_PAIRS), ("foot_on_meld_out", FOOT_ON_MELD_OUT),
                   ("walk_pickup_timing", WALK_TIMINGS),
                   ("partner_foot_requirement", PARTNER_FOOT),
                   ("going_out_discard", GOING_OUT_DISCARDS),
                   ("stock_exhausted_rule", STOCK_OUT_RULES), ("game_end", GAME_ENDS),
                   ("tie_rule", TIE_RULES), ("fallback_discard", FALLBACK_DISCARDS))
_BONUSES: Final = ("black_three_value", "red_three_laid_value", "red_three_unlaid_penalty",
                   "red_three_penalty", "natural_canasta_bonus", "mixed_canasta_bonus",
                   "wild_book_bonus", "going_out_bonus", "concealed_going_out_bonus",
                   "exact_cut_bonus")


def _validate(k: Knobs) -> None:
    """Raise :class:`RulesError` naming the first invalid field (HF §16.2's cross-checks)."""
    for f in dataclasses.fields(k):
        if f.type in ("bool", bool) and not isinstance(getattr(k, f.name), bool):
            raise RulesError(f"invalid rules field {f.name!r}: must be true or false")
    for name, choices in _CHOICES:
        _choice(k, name, choices)
    _int(k, "num_players", 2, 6)
    _int(k, "num_sides", 2, k.num_players)
    if k.num_players % k.num_sides:
        raise RulesError(f"invalid rules field 'num_sides': {k.num_players} players do not "
                         f"split into {k.num_sides} equal sides")
    _int(k, "num_decks", 1, 12, optional=True)
    _int(k, "hand_size", 1, 30)
    _int(k, "foot_size", 1, 30)
    _int(k, "draw_count", 1, 5)
    _int(k, "max_wilds_per_meld", 1, 6)
    _int(k, "pile_take_count", 1, optional=True)
    _int(k, "pile_visible_depth", 1, optional=True)
    _int(k, "min_cards_after_discard_in_foot", 1, 1)
    _int(k, "rounds_per_game", 1, 20)
    _int(k, "target_score", 1, optional=True)
    _int(k, "permission_asks_per_hand", 1, optional=True)
    _int(k, "first_dealer", 0, k.num_players - 1)
    for name in _BONUSES:
        _int(k, name, 0)
    if not isinstance(k.upcard_rebury_kinds, frozenset) or not k.upcard_rebury_kinds <= \
            REBURY_KINDS:
        raise RulesError("invalid rules field 'upcard_rebury_kinds': a set of "
                         f"{sorted(REBURY_KINDS)}")
    if (not isinstance(k.initial_meld_by_round, tuple) or not k.initial_meld_by_round
            or not all(_is_int(v) and v >= 0 for v in k.initial_meld_by_round)):
        raise RulesError("invalid rules field 'initial_meld_by_round': a list of minimums by "
                         "deal, e.g. [50, 90, 120, 150]")
    by_score = k.initial_meld_by_score
    if by_score is not None and (not isinstance(by_score, tuple) or not by_score or not all(
            isinstance(p, tuple) and len(p) == 2 and _is_int(p[0]) and _is_int(p[1])
            for p in by_score)):
        raise RulesError("invalid rules field 'initial_meld_by_score': a list of [score, "
                         "minimum] pairs, e.g. [[0, 50], [2500, 90]], or null")
    books = k.books_to_go_out
    if (not isinstance(books, tuple) or len(books) != 3
            or not all(_is_int(n) and 0 <= n <= 20 for n in books)):
        raise RulesError("invalid rules field 'books_to_go_out': {\"clean\": n, \"dirty\": n, "
                         "\"wild\": n}")
    for char, bonus in k.rank_book_bonus:
        if char not in RANK_CHARS[:11] or not _is_int(bonus) or bonus < 0:
            raise RulesError("invalid rules field 'rank_book_bonus': rank -> bonus, ranks 4..A")
    if not k.one_open_meld_per_rank_per_side:
        raise RulesError("invalid rules field 'one_open_meld_per_rank_per_side': a meld is "
                         "named by its rank, so a side keeps one open meld of a rank")
    if not k.three_blocks_pile:
        raise RulesError("invalid rules field 'three_blocks_pile': a three on top always "
                         "blocks the pile (HF §7.6)")
    if k.pile_cards_below_top_count_for_opening:
        raise RulesError("invalid rules field 'pile_cards_below_top_count_for_opening': only "
                         "the top card counts toward an opening (HF §6.4)")
    if k.wild_on_top_takeable and not k.allow_wild_only_melds:
        raise RulesError("invalid rules field 'wild_on_top_takeable': needs "
                         "allow_wild_only_melds")
    if books[2] > 0 and not k.allow_wild_only_melds:
        raise RulesError("invalid rules field 'books_to_go_out': a wild book needs "
                         "allow_wild_only_melds")
    if not k.partnership and (k.partner_foot_requirement != "none" or k.permission_required):
        raise RulesError("invalid rules fields 'partner_foot_requirement' and "
                         "'permission_required': without partners they are 'none' and false")
    if k.num_players * (k.hand_size + k.foot_size) + 1 >= k.deck_size:
        raise RulesError(f"invalid rules: {k.num_players} hands and feet of "
                         f"{k.hand_size} + {k.foot_size} leave no stock of {k.deck_size} cards")
    if k.game_end == "target" and k.target_score is None:
        raise RulesError("invalid rules field 'target_score': game_end 'target' needs one")


@dataclass(frozen=True)
class HandFootRules(Rules):
    """A Hand and Foot rule set: the family's :class:`Knobs`, and the classic fields the shared
    parts of canasta read, derived from them (:func:`make_rules`). :meth:`replace` and the JSON
    form take a knob by its name."""

    knobs: Knobs = Knobs()

    def replace(self, **changes: Any) -> HandFootRules:
        """A copy with some knobs changed (validated again)."""
        knobs = changes.pop("knobs", self.knobs)
        unknown = sorted(set(changes) - KNOB_NAMES)
        if unknown:
            raise RulesError(f"unknown {NAME} rules field {unknown[0]!r}")
        try:
            knobs = dataclasses.replace(knobs, **changes)
        except TypeError as e:
            raise RulesError(f"bad {NAME} rules field: {e}") from None
        return make_rules(self.name, knobs)

    def to_json(self) -> str | dict[str, Any]:
        """The preset's name, or ``{"preset": NAME, FIELD: VALUE, ...}`` with the knobs that
        differ from the preset."""
        base = PRESETS.get(self.name, PRESETS[NAME])
        out: dict[str, Any] = {"preset": base.name}
        for f in dataclasses.fields(Knobs):
            value = getattr(self.knobs, f.name)
            if value != getattr(base.knobs, f.name):
                out[f.name] = knob_to_json(f.name, value)
        return base.name if len(out) == 1 else out

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return make_rules, (self.name, self.knobs)


KNOB_NAMES: Final = frozenset(f.name for f in dataclasses.fields(Knobs))


def knob_to_json(name: str, value: Any) -> Any:
    """A knob's value as JSON."""
    if name == "books_to_go_out":
        return dict(zip(("clean", "dirty", "wild"), value, strict=True))
    if name == "rank_book_bonus":
        return dict(value)
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [list(v) if isinstance(v, tuple) else v for v in value]
    return value


def knob_from_json(name: str, value: Any) -> Any:
    """A knob's JSON value as the knob's Python type (checked by :class:`Knobs`)."""
    if name == "books_to_go_out" and isinstance(value, Mapping):
        unknown = set(value) - {"clean", "dirty", "wild"}
        if unknown:
            raise RulesError(f"invalid rules field 'books_to_go_out': unknown {sorted(unknown)}")
        return tuple(value.get(k, 0) for k in ("clean", "dirty", "wild"))
    if name == "rank_book_bonus" and isinstance(value, Mapping):
        return tuple(sorted((str(k).upper(), v) for k, v in value.items()))
    if name == "upcard_rebury_kinds" and isinstance(value, list):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return value


def make_rules(name: str, knobs: Knobs) -> HandFootRules:
    """The rule set called ``name`` with ``knobs``: the classic fields follow from them."""
    return HandFootRules(
        name=name, num_players=knobs.num_players, num_sides=knobs.num_sides,
        num_decks=knobs.decks, num_jokers=2 * knobs.decks, hand_size=knobs.hand_size,
        draw_count=knobs.draw_count, card_values=CARD_VALUE_TABLES[knobs.card_values],
        black_three_value=knobs.black_three_value,
        red_three_value=knobs.red_three_laid_value, red_three_schedule=(),
        red_threes_negative_if_no_meld=knobs.red_threes_negative_if_no_meld,
        dealt_red_threes_replaced=knobs.dealt_red_threes_replaced,
        max_wilds_per_meld=knobs.max_wilds_per_meld, max_meld_size=BOOK,
        black_three_meld_sizes=(3, 4) if knobs.black_three_meld_when_going_out else (),
        initial_meld_thresholds=((None, max(v for _, v in knobs.initial_meld_by_score
                                            or enumerate(knobs.initial_meld_by_round))),),
        natural_canasta_bonus=knobs.natural_canasta_bonus,
        mixed_canasta_bonus=knobs.mixed_canasta_bonus,
        min_canastas_to_go_out=sum(knobs.books_to_go_out),
        going_out_bonus=knobs.going_out_bonus,
        concealed_going_out_bonus=knobs.concealed_going_out_bonus,
        permission_question_enabled=knobs.permission_question_enabled and knobs.partnership,
        permission_asks_per_hand=knobs.permission_asks_per_hand,
        stock_exhausted_rule="end_after_last_discard", stock_out_forced_take=False,
        target_score=knobs.target_score or 5000, first_dealer=knobs.first_dealer,
        knobs=knobs)


_PRESET_KNOBS: Final[dict[str, Knobs]] = {
    NAME: Knobs(),
    f"{NAME}-pagat": Knobs(hand_size=13, foot_size=13, wild_ratio="naturals_at_least_twice",
                           allow_wild_only_melds=True, books_to_go_out=(2, 2, 1),
                           partner_foot_requirement="played_from", wild_on_top_takeable=True),
    f"{NAME}-bicycle": Knobs(books_to_go_out=(1, 1, 0), partner_foot_requirement="none",
                             permission_required=False, going_out_discard="required"),
    f"{NAME}-2p": Knobs(num_players=2, num_sides=2, books_to_go_out=(1, 1, 0),
                        partner_foot_requirement="none", permission_required=False),
    f"{NAME}-3p": Knobs(num_players=3, num_sides=3, books_to_go_out=(1, 1, 0),
                        partner_foot_requirement="none", permission_required=False),
    f"{NAME}-6p": Knobs(num_players=6, num_sides=2),
}

PRESETS: Final[dict[str, HandFootRules]] = {
    name: make_rules(name, knobs) for name, knobs in _PRESET_KNOBS.items()}
"""The family's presets (HF §16.2), the default first."""
HAND_AND_FOOT: Final = PRESETS[NAME]


def rules_from_json(value: Any) -> HandFootRules:
    """The rule set of a preset name or of ``{"preset": NAME, FIELD: VALUE, ...}`` with knobs
    of :class:`Knobs`; :class:`~canasta.errors.RulesError` names a bad one."""
    if isinstance(value, HandFootRules):
        return value
    name = value if isinstance(value, str) else (
        value.get("preset") if isinstance(value, Mapping) else None)
    base = PRESETS.get(str(name).strip().lower()) if isinstance(name, str) else None
    if base is None:
        raise RulesError(f"not a {NAME} preset: {value!r} (known: {', '.join(PRESETS)})")
    if isinstance(value, str):
        return base
    assert isinstance(value, Mapping)
    changes: dict[str, Any] = {}
    for key, v in value.items():
        if key == "preset":
            continue
        if key not in KNOB_NAMES:
            raise RulesError(f"unknown {NAME} rules field {key!r}")
        changes[key] = knob_from_json(key, v)
    return base.replace(**changes)
