"""The legal list is the reference list: every candidate action, as first written
(:mod:`tests.modern_american.reference_list`), that the checks accept, in the same order; and
the question "may I go out?" comes only from a player who could go out, found by the ways of
:mod:`canasta.modern_american.going_out` as surely as by trying every way to lay the cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from canasta.actions import Action
from canasta.cards import IS_NATURAL, IS_WILD, RANK_OF, THREE, make_pack
from canasta.errors import IllegalActionError
from canasta.modern_american.checks import Facts, could_go_out, keyed, may_go_out, melds_with
from canasta.modern_american.checks import problem as check
from canasta.modern_american.hand import NO_MELDS, PLAY, Hand, Turn
from canasta.modern_american.knobs import ACE, SEVEN, rules_from_json
from canasta.modern_american.layings import melds_away
from canasta.modern_american.play import apply, legal_actions, new_hand
from tests.modern_american.reference_list import reference_legal

SWITCHES: dict[str, dict[str, Any]] = {
    "preset": {},
    "set-aside": {"talon_source": "set_aside"},
    "past-seven": {"max_meld_size_exception_when_going_out": True},
    "retract": {"no_legal_discard_remedy": "retract_melds"},
    "pagat": {"special_hands": "pagat", "splash_allowed": True,
              "pile_top_may_form_clean_triple": True, "initial_meld_counts_pile_top": True},
    "loose": {"dead_ranks": False, "initial_meld_requirement": "none",
              "keep_one_three_for_straight": False, "talon_not_after_pile_take": False},
}


@pytest.mark.parametrize("name", SWITCHES)
def test_the_legal_list_is_the_reference_list(name: str) -> None:
    rules = rules_from_json({"preset": "modern-american", **SWITCHES[name]})
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        h = new_hand(seed * 11 + len(name), rules=rules, number=1 + seed)
        while not h.is_over:
            listed = legal_actions(h)
            assert listed == reference_legal(h), (name, seed, h)
            # melds are favoured, so that hands reach their canastas and goings out
            melds = [a for a in listed if a.verb == "meld"]
            h = apply(h, rng.choice(melds if melds and rng.random() < 0.6 else listed))
            checked += 1
    assert checked > 100


def _every_way(h: Hand) -> bool:
    """Whether the player could go out, by trying every way to lay all cards but one."""
    f = Facts(h)
    if len(f.hand) == 1:
        return could_go_out(f)
    for action in melds_away(f.hand, f.melds, f.dead):
        after = melds_with(f.melds, keyed(action.groups)[1], None)
        if check(h, action) is None and may_go_out(h, f.side, after) is None:
            return True
    return False


def _table(rng: random.Random, rules: Any) -> Hand:
    """A side's random table of melds, some complete, and a short hand that often fits it."""
    pack = [c for c in make_pack(2, 4) if RANK_OF[c] != THREE]
    rng.shuffle(pack)
    melds = list(NO_MELDS)
    for rank in rng.sample(range(11), rng.randint(1, 5)):
        size = rng.choice([3, 4, 5, 6, 7, 7])
        wild = rng.randint(0, 2) if rank not in (SEVEN, ACE) and size >= 5 else 0
        meld = [c for c in pack if RANK_OF[c] == rank and IS_NATURAL[c]][:size - wild] + [
            c for c in pack if IS_WILD[c]][:wild]
        for c in meld:
            pack.remove(c)
        melds[rank] = tuple(sorted(meld))
    if rng.random() < 0.3:
        wild_meld = [c for c in pack if IS_WILD[c]][:rng.randint(3, 7)]
        for c in wild_meld:
            pack.remove(c)
        melds[-1] = tuple(sorted(wild_meld))
    ranks = [r for r in range(11) if melds[r]]
    fitting = [c for c in pack if IS_NATURAL[c] and (RANK_OF[c] in ranks or rng.random() < 0.1)]
    wilds = [c for c in pack if IS_WILD[c]]
    hand = sorted(rng.sample(wilds, min(len(wilds), rng.randint(0, 4)))
                  + rng.sample(fitting, min(len(fitting), rng.randint(1, 6))))
    for c in hand:
        pack.remove(c)
    h = new_hand(0, rules=rules)
    return h.but(phase=PLAY, to_move=0, hands=(tuple(hand), *h.hands[1:]),
                 melds=(tuple(melds), NO_MELDS), pile=tuple(pack[-3:]), stock=tuple(pack[:-3]),
                 turn=Turn(threes_chosen=True, drew=True))


@pytest.mark.parametrize("switch", [{}, {"max_meld_size_exception_when_going_out": True},
                                    {"wild_meld_incomplete_penalty": 0, "dead_ranks": False,
                                     "wild_meld_incomplete_penalty_four_jokers": 0},
                                    {"min_naturals_before_wilds_after_opening": 3,
                                     "wild_meld_blocks_other_wilds": False}])
def test_who_could_go_out_is_found_as_by_every_way(switch: dict[str, Any]) -> None:
    rules = rules_from_json({"preset": "modern-american", **switch})
    rng = random.Random(len(switch))
    found = 0
    for _ in range(80):
        h = _table(rng, rules)
        out = could_go_out(Facts(h))
        assert out == _every_way(h), h
        found += out
    assert found > 3


def test_an_action_outside_the_list_just_found_is_still_checked() -> None:
    h = new_hand(seed=8)
    listed = legal_actions(h)
    assert listed == [a for a in listed if check(h, a) is None]
    with pytest.raises(IllegalActionError):
        apply(h, Action("discard", (), h.hands[h.to_move][0]))
    assert apply(h, listed[0]) == apply(new_hand(seed=8), listed[0])
