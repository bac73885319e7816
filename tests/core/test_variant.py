"""The rules seam: the classic variant's answers, and a registered family that overrides one
(the toy of docs/variants.md) changing what the engine scores, and nothing else."""

from __future__ import annotations

import doctest
from pathlib import Path

from canasta.cards import parse_cards
from canasta.rules import get_rules
from canasta.scoring import table_points
from canasta.variant import ClassicVariant, unregister_variant, variant_of

DOC = Path(__file__).resolve().parents[2] / "docs" / "variants.md"


def _melds(**by_rank: str) -> tuple[tuple[int, ...] | None, ...]:
    from canasta.cards import RANK_CHARS

    melds: list[tuple[int, ...] | None] = [None] * 12
    for rank, cards in by_rank.items():
        melds[RANK_CHARS.index(rank)] = tuple(sorted(parse_cards(cards)))
    return tuple(melds)


def test_the_classic_variant_reads_the_fields() -> None:
    v = variant_of(get_rules("classic"))
    assert isinstance(v, ClassicVariant) and variant_of(get_rules("classic")) is v
    assert v.meld_problem(0, 2, 3) is None and v.meld_problem(0, 2, 4) is not None
    assert v.wild_room(0, 2, 1) == 2
    strict = variant_of(get_rules("spruce-classic"))  # wild cards may not outnumber naturals
    assert strict.wild_room(0, 2, 1) == 1
    seven = parse_cards("7c 7c 7d 7d 7h 7s 7s")
    assert v.canasta_kind(seven) == "natural" and v.canasta_kind(seven[:6]) is None
    assert v.canasta_kind((*seven[:6], parse_cards("2c")[0])) == "mixed"
    assert v.out_problem(0, 0) == "going out needs a canasta on your side's table"
    assert variant_of(get_rules("classic-6p-3x2")).out_problem(1, 0) == (
        "going out needs 2 canastas on your side's table")


def test_the_toy_variant_of_the_docs_changes_the_score() -> None:
    test = doctest.DocTestParser().get_doctest(DOC.read_text(encoding="utf-8"), {}, DOC.name,
                                               str(DOC), 0)
    runner = doctest.DocTestRunner()
    runner.run(test, clear_globs=False)  # the toy variant stays registered and usable
    assert runner.tries >= 5 and runner.failures == 0
    try:
        house = get_rules("classic").replace(name="one-wild-natural")
        melds = _melds(K="Kc Kd Kh Ks Kc Kd 2c", Q="Qc Qd Qh Qs 2c 2d JK")
        ours = table_points(house, melds, (), 0)
        classic = table_points(get_rules("classic"), melds, (), 0)
        assert (classic.natural_canastas, classic.mixed_canastas) == (0, 2)
        assert (ours.natural_canastas, ours.mixed_canastas) == (1, 1)
        assert ours.canastas - classic.canastas == 500 - 300
    finally:
        unregister_variant("one-wild-natural")
    assert type(variant_of(house)) is ClassicVariant
