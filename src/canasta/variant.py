"""The classic engine's rules seam: a :class:`Variant` answers the rule questions of a classic
rule set.

The engine's plans (:mod:`canasta.plans`), scoring and the facts of the table ask the variant of
the state's rules (:func:`variant_of`) what a card counts, what a meld of a key may hold and how
many wild cards it may still take, what kind a finished canasta is, how many canastas a side
has and why it may not go out. :class:`ClassicVariant` answers for every classic preset, read
from the fields of :class:`~canasta.rules.Rules`. A house that decides one of these questions
another way subclasses it, overrides that method and registers it (:func:`register_variant`;
docs/variants.md); a family with an engine of its own is a family of rules
(:mod:`canasta.family`).

>>> from canasta.rules import get_rules
>>> v = variant_of(get_rules("classic"))
>>> v.meld_problem(0, naturals=2, wilds=2), v.wild_room(0, naturals=2, wilds=2)
(None, 1)
>>> v.meld_problem(3, naturals=1, wilds=0, joining=False)
'your side has no meld of sevens to add to, and a new meld needs at least 2 natural cards'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from canasta._mypyc import mypyc_attr
from canasta.cards import IS_WILD, Card, rank_name
from canasta.melds import limits_of
from canasta.rules import Rules

Meld = tuple[Card, ...]
NATURAL: Final = "natural"
MIXED: Final = "mixed"


class Fields:
    """The fields of a rule set that the engine reads at every decision, copied once into a
    native object: compiled, reading a field of the interpreted ``Rules`` is a dictionary
    lookup. The names are the fields' own (:class:`~canasta.rules.Rules`)."""

    __slots__ = ("ask_before_draw", "canasta_size", "draw_count", "going_out_requires_discard",
                 "hidden_canasta_bonus", "max_wilds_per_meld", "min_canastas_to_go_out",
                 "min_naturals_per_meld", "num_players", "num_sides", "one_card_pile_take_ban",
                 "permission_question_enabled", "pile_frozen_until_side_melds",
                 "stock_exhausted_rule", "unfrozen_take_natural_plus_wild")

    def __init__(self, rules: Rules) -> None:
        self.num_players: int = rules.num_players
        self.num_sides: int = rules.num_sides
        self.draw_count: int = rules.draw_count
        self.canasta_size: int = rules.canasta_size
        self.min_canastas_to_go_out: int = rules.min_canastas_to_go_out
        self.min_naturals_per_meld: int = rules.min_naturals_per_meld
        self.max_wilds_per_meld: int = rules.max_wilds_per_meld
        self.going_out_requires_discard: bool = rules.going_out_requires_discard
        self.hidden_canasta_bonus: int = rules.hidden_canasta_bonus
        self.permission_question_enabled: bool = rules.permission_question_enabled
        self.ask_before_draw: bool = rules.ask_before_draw
        self.stock_exhausted_rule: str = rules.stock_exhausted_rule
        self.pile_frozen_until_side_melds: bool = rules.pile_frozen_until_side_melds
        self.unfrozen_take_natural_plus_wild: bool = rules.unfrozen_take_natural_plus_wild
        self.one_card_pile_take_ban: str = rules.one_card_pile_take_ban


@mypyc_attr(allow_interpreted_subclasses=True)
class ClassicVariant:
    """The classic family: each answer follows from the fields of ``rules`` (RULES §1, §6)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.canasta_size = rules.canasta_size
        self.limits = limits_of(rules)
        self.fields = Fields(rules)

    # -- cards -------------------------------------------------------------------------------
    def value(self, card: Card) -> int:
        """What ``card`` counts in a meld or in hand (RULES §1.17)."""
        return self.rules.value_of[card]

    def opening_minimum(self, score: int) -> int:
        """The count a side's first meld needs at cumulative ``score`` (RULES §1.10)."""
        return self.rules.minimum_for(score)

    # -- melds -------------------------------------------------------------------------------
    def meld_problem(self, key: int, naturals: int, wilds: int, *, adds_wilds: bool = True,
                     joining: bool = True) -> str | None:
        """Why a meld of ``key`` with this many natural and wild cards may not be on the table,
        or ``None`` (RULES §1.7). ``joining`` is False for a meld begun by this action; the words
        then say that its side has no meld of that key when it is too short of natural cards.
        ``adds_wilds`` is False when only natural cards are added: they never break a wild-card
        limit the meld met before."""
        least = self.limits.min_naturals
        if not joining and naturals < least:
            # a card offered to a meld of another rank reads as a new meld of its own rank
            return (f"your side has no meld of {rank_name(key)} to add to, and a new meld "
                    f"needs at least {least} natural cards")
        return self.limits.problem(naturals, wilds, adds_wilds)

    def wild_room(self, key: int, naturals: int, wilds: int) -> int:
        """How many more wild cards a meld of ``key`` with this make-up may take."""
        del key
        return max(0, self.limits.wild_cap(naturals) - wilds)

    def canasta_kind(self, meld: Sequence[Card] | None) -> str | None:
        """``"natural"`` or ``"mixed"`` for a completed canasta, ``None`` for a shorter meld."""
        if meld is None or len(meld) < self.canasta_size:
            return None
        return MIXED if any(IS_WILD[c] for c in meld) else NATURAL

    def canastas(self, melds: Sequence[Meld | None]) -> int:
        """The completed canastas among one owner's melds."""
        size = self.canasta_size
        made = 0
        for m in melds:
            if m is not None and len(m) >= size:
                made += 1
        return made

    # -- going out ---------------------------------------------------------------------------
    def canastas_to_go_out(self) -> int:
        """The canastas a side needs on the table before it may go out (RULES §1.13)."""
        return self.rules.min_canastas_to_go_out

    def out_problem(self, canastas: int, cards_left: int) -> str | None:
        """Why a side with ``canastas`` may not be left with ``cards_left`` (0 or 1) cards by a
        meld or a take, or ``None`` (RULES §1.6, §1.13)."""
        need = self.canastas_to_go_out()
        if canastas >= need:
            return None
        what = "a canasta" if need == 1 else f"{need} canastas"
        if cards_left == 0:
            return f"going out needs {what} on your side's table"
        return (f"this would leave one card, and going out needs {what}: "
                "keep at least one card after discarding")


Variant = ClassicVariant
"""The seam's type: every variant of the classic rules is a :class:`ClassicVariant` or a
subclass of it."""

REGISTERED: dict[str, type[Variant]] = {}
"""The variants of classic rule sets that decide a question otherwise, by the rules' ``name``
(:func:`register_variant`); every other name is decided by :class:`ClassicVariant`. (A family
of rules with an engine of its own is registered with :func:`canasta.family.register_family`.)"""

_VARIANTS: dict[int, tuple[Rules, Variant]] = {}


class _Last:
    """The rules value asked about last and its variant: nearly every question in a row is
    about the same rules, and an identity test answers it at once."""

    __slots__ = ("pair",)

    def __init__(self) -> None:
        self.pair: tuple[Rules | None, Variant | None] = (None, None)


_LAST: Final = _Last()


def register_variant(name: str, variant: type[Variant]) -> None:
    """Make ``variant`` decide the rules of every rule set called ``name``."""
    REGISTERED[name] = variant
    _VARIANTS.clear()
    _LAST.pair = (None, None)


def unregister_variant(name: str) -> None:
    """Give the rule sets called ``name`` back to :class:`ClassicVariant`."""
    REGISTERED.pop(name, None)
    _VARIANTS.clear()
    _LAST.pair = (None, None)


def fields_of(rules: Rules) -> Fields:
    """The fields of ``rules`` that the engine reads at every decision (:class:`Fields`)."""
    last, variant = _LAST.pair
    if last is rules and variant is not None:
        return variant.fields
    return variant_of(rules).fields


def variant_of(rules: Rules) -> Variant:
    """The variant that decides the rules of ``rules`` (made once per rules value)."""
    last, variant = _LAST.pair
    if last is rules and variant is not None:
        return variant
    found = _VARIANTS.get(id(rules))
    if found is not None and found[0] is rules:
        variant = found[1]
    else:
        if len(_VARIANTS) > 1000:  # rules read from many requests: keep the table small
            _VARIANTS.clear()
        variant = REGISTERED.get(rules.name, ClassicVariant)(rules)
        _VARIANTS[id(rules)] = (rules, variant)
    _LAST.pair = (rules, variant)
    return variant
