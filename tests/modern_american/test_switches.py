"""The house-rule switches of MA §16.2 where the sources disagree, each played: the set-aside
talons (``talon_source``), the minimum by hand number (``initial_meld_by_hand_number``), the
eighth card when going out (``max_meld_size_exception_when_going_out``) and taking melds back
when no discard is left (``no_legal_discard_remedy="retract_melds"``). Every test runs the
position with the switch and without it, so each fails where the behaviour is missing."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from canasta import GameRecord, replay
from canasta.cards import make_pack, parse_cards, parse_rank
from canasta.errors import PositionError, RulesError
from canasta.modern_american.action_text import format_action
from canasta.modern_american.hand import OVER
from canasta.modern_american.knobs import rules_from_json
from canasta.modern_american.notation import hand_from_json, hand_to_json
from canasta.modern_american.observation import observe, world
from canasta.modern_american.play import legal_actions, new_hand
from tests.modern_american.games import play_game, random_players, seated
from tests.modern_american.test_turns import OPEN, OPENING, act, position, refusal, with_knobs

PACK = Counter(make_pack(2, 4))
NV = [125, 155, 180]


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


# -- the minimum by hand number (NV tournament, MA §5.1) -----------------------------------------

@pytest.mark.parametrize(("number", "minimum"), [(1, 125), (2, 155), (3, 180), (7, 180)])
def test_the_minimum_by_hand_number(number: int, minimum: int) -> None:
    knobs = with_knobs(initial_meld_by_hand_number=NV)
    h = position(OPENING, turn={"drew": True}, hand_number=number, **knobs)  # 150 from the hand
    assert h.minimum(0) == minimum
    if minimum > 150:
        assert f"the initial meld counts 150, and your side needs {minimum}" in refusal(h, OPEN)
    else:
        assert act(h, OPEN).side_melded(0)
    # by the score (the default), the hand's number does not matter: 125
    assert act(position(OPENING, turn={"drew": True}, hand_number=number), OPEN).side_melded(0)


def test_the_hand_number_outweighs_the_score() -> None:
    h = position(OPENING, turn={"drew": True}, **with_knobs(initial_meld_by_hand_number=NV))
    rich = hand_from_json(dict(hand_to_json(h), sides=[
        dict(side, score=6000) for side in hand_to_json(h)["sides"]]))
    assert rich.minimum(0) == 125 and act(rich, OPEN).side_melded(0)
    plain = hand_from_json(dict(hand_to_json(position(OPENING, turn={"drew": True})), sides=[
        dict(side, score=6000) for side in hand_to_json(h)["sides"]]))
    assert "needs 180" in refusal(plain, OPEN)


def test_a_record_by_hand_number_replays_and_positions_carry_the_number() -> None:
    table = rules_from_json({"preset": "modern-american", "initial_meld_by_hand_number": NV})
    assert table.knobs.initial_meld_by_hand_number == (125, 155, 180)
    game, record = play_game(random_players(random.Random(3)), seed=3, rules=table,
                             max_hands=3)
    data = json.loads(json.dumps(record.to_json()))
    assert data["rules"] == {"preset": "modern-american", "initial_meld_by_hand_number": NV}
    played = list(replay(GameRecord.from_json(data)))
    assert [p.state.number for p in played] == [1, 2, 3]
    assert played[-1].scores == game.scores
    for p in played:
        position_data = hand_to_json(p.state)
        assert position_data["hand_number"] == p.number
        assert hand_from_json(position_data) == p.state
    assert "hand_number" not in hand_to_json(new_hand(seed=1))


@pytest.mark.parametrize("bad", [[], [125, "x"], [125, True], 125, [-5]])
def test_a_bad_minimum_by_hand_number_is_refused_in_words(bad: Any) -> None:
    with pytest.raises(RulesError, match="initial_meld_by_hand_number"):
        rules_from_json({"preset": "modern-american", "initial_meld_by_hand_number": bad})


# -- talons set aside at the deal (the older form, MA §1.4.5, §8.4) ------------------------------

SET_ASIDE = with_knobs(talon_source="set_aside")
TALONS = ("Tc Td Th Ts", "9c 9d 9h")


def test_the_deal_sets_two_talons_aside() -> None:
    table = rules_from_json(SET_ASIDE["rules"])
    h = new_hand(seed=5, rules=table)
    assert [len(t) for t in h.talons] == [4, 3] and len(h.stock) == 108 - 52 - 7
    assert h.turn_card is None and Counter(h.all_cards()) == PACK
    assert hand_from_json(json.loads(json.dumps(hand_to_json(h)))) == h
    # the pack's order: the hands, then the four and the three, then the stock
    deck = [c for c in make_pack(2, 4) if c not in cards("3c 3d 3h 3s")]
    random.Random(2).shuffle(deck)
    deck += list(cards("3c 3c 3d 3d 3h 3h 3s 3s"))  # no three is laid before the first draw
    dealt = new_hand(deck=deck, rules=table)
    assert dealt.talons == (tuple(sorted(deck[52:56])), tuple(sorted(deck[56:59])))
    assert dealt.stock == tuple(deck[59:])
    assert new_hand(seed=5).talons == () and len(new_hand(seed=5).stock) == 56


@pytest.mark.parametrize(("ew", "index"), [({}, 0), ({"8": ["8c", "8d", "8s"]}, 1)])
def test_a_side_opening_from_the_hand_receives_its_set_aside_talon(
        ew: dict[str, list[str]], index: int) -> None:
    h = position(OPENING, ew=ew, stock=30, turn={"drew": True}, talons=TALONS, **SET_ASIDE)
    after = act(h, OPEN)
    assert after.turn.talon == len(TALONS[index].split())
    done = act(after, "discard 8h")
    assert done.hands[0] == cards("5c " + TALONS[index])
    assert done.stock == h.stock  # nothing came from the stock
    assert done.talons[index] == () and done.talons[1 - index] == cards(TALONS[1 - index])
    # from the stock's top instead (the default)
    plain = act(act(position(OPENING, ew=ew, stock=30, turn={"drew": True}), OPEN), "discard 8h")
    assert plain.hands[0] != done.hands[0] and len(plain.stock) == 30 - len(done.hands[0]) + 1


def test_a_set_aside_talon_comes_whatever_the_stock_holds() -> None:
    h = position(OPENING, stock=5, turn={"drew": True}, talons=TALONS, **SET_ASIDE)
    done = act(act(h, OPEN), "discard 8h")
    assert done.hands[0] == cards("5c " + TALONS[0])
    # from the stock, the turn card is drawn once fewer than nine cards remain: no talon
    plain = act(act(position(OPENING, stock=5, turn={"drew": True}), OPEN), "discard 8h")
    assert plain.hands[0] == cards("5c")


def test_a_three_in_a_set_aside_talon_is_laid_and_replaced() -> None:
    h = position(OPENING, stock=30, turn={"drew": True}, talons=("3h Tc Td Th", TALONS[1]),
                 **SET_ASIDE)
    done = act(act(h, OPEN), "discard 8h")
    assert done.threes[0] == cards("3h")
    assert done.hands[0] == tuple(sorted((*cards("5c Tc Td Th"), h.stock[0])))
    assert done.stock == h.stock[1:]


def test_no_set_aside_talon_after_an_opening_by_the_pile() -> None:
    hand = "Ac Ad Ah Kc Kd Ks Jc Jd Jh Qd Qh 5c 6d"
    h = position(hand, phase="draw", pile="8c Qc", turn={"threes_chosen": True},
                 talons=TALONS, **SET_ASIDE)
    after = act(h, "take Qd Qh, Ac Ad Ah, Kc Kd Ks, Jc Jd Jh")
    assert after.turn.talon == 0
    done = act(after, "discard 6d")
    assert done.talons == (cards(TALONS[0]), cards(TALONS[1]))  # the four stay aside


def test_set_aside_talons_are_hidden_from_every_seat() -> None:
    h = position(OPENING, stock=30, turn={"drew": True}, talons=TALONS, **SET_ASIDE)
    view = observe(h, 0).to_json()
    assert view["talons"] == [4, 3] and "Tc" not in json.dumps(view)
    other = world(observe(h, h.to_move), random.Random(1))
    assert [len(t) for t in other.talons] == [4, 3] and other.hands[0] == h.hands[0]


@pytest.mark.parametrize(("rules", "talons", "words"), [
    ("set_aside", None, "two piles set aside"),
    ("set_aside", ["Tc Td", "9c 9d 9h"], "holds 4 cards"),
    ("stock_top", ["Tc Td Th Ts", "9c 9d 9h"], "only with talon_source"),
])
def test_bad_talons_in_a_position_are_refused(rules: str, talons: list[str] | None,
                                              words: str) -> None:
    data = hand_to_json(position(OPENING, turn={"drew": True}))
    data["rules"] = {"preset": "modern-american", "talon_source": rules}
    data.pop("talons", None)
    if talons is not None:
        data["talons"] = [t.split() for t in talons]
        data["stock"] = data["stock"][:-8]
    with pytest.raises(PositionError, match=words):
        hand_from_json(data)
    with pytest.raises(RulesError, match="talon_source"):
        rules_from_json({"preset": "modern-american", "talon_source": "pile"})


def test_the_hand_ends_with_the_talons_out_of_play() -> None:
    table = rules_from_json(SET_ASIDE["rules"])
    game, record = play_game(random_players(random.Random(9)), seed=9, rules=table,
                             max_hands=2)
    played = list(replay(record))
    assert played[-1].scores == game.scores
    for p in played:
        assert p.state.phase == OVER and Counter(p.state.all_cards()) == PACK


# -- an eighth card when going out (W, MA §4.1.1) -------------------------------------------------

PAST_SEVEN = with_knobs(max_meld_size_exception_when_going_out=True)
KINGS7 = ["Kc", "Kd", "Kh", "Ks", "Kc", "Kd", "Kh"]
QUEENS7 = ["Qc", "Qd", "Qh", "Qs", "Qc", "Qd", "Qh"]
TWO_CANASTAS = {"K": KINGS7, "Q": QUEENS7}


def listed(h: Any) -> set[str]:
    return {format_action(h, a) for a in legal_actions(h)}


def test_a_wild_card_goes_onto_a_canasta_with_the_going_out() -> None:
    h = position("2c 5d", ns=TWO_CANASTAS, turn={"drew": True}, **PAST_SEVEN)
    assert {"meld K: 2c", "meld Q: 2c"} <= listed(h)
    after = act(h, "meld K: 2c")
    assert len(after.melds[0][parse_rank("K")]) == 8 and after.hands[0] == cards("5d")
    assert hand_from_json(json.loads(json.dumps(hand_to_json(after)))) == after
    assert listed(after) == {"discard 5d"}
    end = act(after, "discard 5d")
    assert end.end is not None and end.end.went_out == 0
    # the kings are now a mixed canasta: 300, the queens 500, going out 100
    assert end.end.sides[0].bonuses == 300 + 500 + 100
    plain = position("2c 5d", ns=TWO_CANASTAS, turn={"drew": True})
    assert "meld K: 2c" not in listed(plain)
    assert refusal(plain, "meld K: 2c").startswith("kings are dead")


def test_an_eighth_card_only_with_the_last_meld_of_a_going_out() -> None:
    h = position("2c 5d 6d", ns=TWO_CANASTAS, turn={"drew": True}, **PAST_SEVEN)
    assert "more only with the meld you go out with" in refusal(h, "meld K: 2c")
    one = position("2c 5d", ns={"K": KINGS7, "Q": QUEENS7[:5]}, turn={"drew": True},
                   **PAST_SEVEN)
    assert "only when you go out, and going out needs 2 canastas" in refusal(one, "meld K: 2c")
    said_no = position("2c 5d", ns=TWO_CANASTAS, turn={"drew": True}, answer="no",
                       **PAST_SEVEN)
    assert "your partner said no" in refusal(said_no, "meld K: 2c")


def test_several_cards_past_seven_are_one_meld() -> None:
    h = position("2c JK 5d", ns=TWO_CANASTAS, turn={"drew": True}, **PAST_SEVEN)
    assert {"meld K: 2c, Q: JK", "meld K: 2c JK", "meld K: JK, Q: 2c"} <= listed(h)
    assert "more only with the meld you go out with" in refusal(h, "meld K: 2c")
    end = act(act(h, "meld K: 2c, Q: JK"), "discard 5d")
    assert end.end is not None and end.end.went_out == 0


def test_a_pick_past_seven_that_goes_out() -> None:
    ns = {"K": KINGS7[:5], "Q": QUEENS7, "J": ["Jc", "Jd", "Jh", "Js", "Jc", "Jd", "Jh"]}
    h = position("Ks Kh", phase="draw", pile="9c Kd", ns=ns, turn={"threes_chosen": True},
                 **PAST_SEVEN)
    assert "take Kh Ks" in listed(h)
    after = act(h, "take Kh Ks")
    assert len(after.melds[0][parse_rank("K")]) == 8 and after.hands[0] == cards("9c")
    assert act(after, "discard 9c").end is not None
    plain = position("Ks Kh", phase="draw", pile="9c Kd", ns=ns, turn={"threes_chosen": True})
    assert refusal(plain, "take Kh Ks") == "a meld holds at most 7 cards"


def test_a_position_with_a_meld_past_seven_needs_the_rules_and_the_going_out() -> None:
    after = act(position("2c 5d", ns=TWO_CANASTAS, turn={"drew": True}, **PAST_SEVEN),
                "meld K: 2c")
    data = hand_to_json(after)
    data["rules"] = "modern-american"
    with pytest.raises(PositionError, match="at most 7 cards"):
        hand_from_json(data)
    data = hand_to_json(after)
    data["hands"][0].append(data["stock"].pop())  # two cards left: no going out with them
    with pytest.raises(PositionError, match="at most 7 cards"):
        hand_from_json(data)


# -- taking back this turn's melds when no card may be discarded (MA §7.4, CLA) -----------------

RETRACT = with_knobs(no_legal_discard_remedy="retract_melds")
NINES = {"9": ["9c", "9d", "9h"]}
SWAD = "7c Ac JK"  # with the pile's 7d Ad: nothing that may go onto the empty pile


def picked(hand: str, ns: dict[str, list[str]] | None = None, **rules: Any) -> Any:
    """N picks the pile ``7d Ad Ks`` with Kc Kd and holds ``hand`` and the SWAD cards."""
    h = position(f"Kc Kd {SWAD} {hand}", phase="draw", pile="7d Ad Ks",
                 ns=NINES if ns is None else ns, turn={"threes_chosen": True}, **rules)
    return act(h, "take Kc Kd")


def test_a_card_melded_this_turn_is_taken_back_and_discarded() -> None:
    after = act(picked("Qc Qd Qh Qs", **RETRACT), "meld Qc Qd Qh Qs")
    assert after.hands[0] == cards("7c 7d Ac Ad JK")
    assert {a for a in listed(after) if a.startswith("discard")} == {
        "discard Qc", "discard Qd", "discard Qh", "discard Qs"}
    assert "discard one you melded this turn" in refusal(after, "discard 7c")
    # the pair that picked the pile stays with its top card
    assert "the pile is always frozen" in refusal(after, "discard Kc")
    done = act(after, "discard Qh")
    assert done.melds[0][parse_rank("Q")] == cards("Qc Qd Qs") and done.pile == cards("Qh")
    assert done.hands[0] == after.hands[0] and done.to_move == 1
    assert Counter(done.all_cards()) == Counter(after.all_cards())
    # forbidden instead (the default): the meld is refused
    plain = picked("Qc Qd Qh Qs")
    assert "no card you may discard" in refusal(plain, "meld Qc Qd Qh Qs")


def test_a_meld_of_three_comes_back_whole() -> None:
    after = act(picked("Qc Qd Qh", **RETRACT), "meld Qc Qd Qh")
    done = act(after, "discard Qh")
    assert done.melds[0][parse_rank("Q")] is None
    assert done.hands[0] == cards("7c 7d Ac Ad JK Qc Qd") and done.pile == cards("Qh")


def test_taking_back_breaks_the_new_canasta() -> None:
    ns = {**NINES, "Q": ["Qc", "Qd", "Qh", "Qs", "Qc"]}
    after = act(picked("Qd Qh", ns, **RETRACT), "meld Qd Qh")
    queen = parse_rank("Q")
    assert queen in after.dead  # a dead rank may not go onto the empty pile ...
    done = act(after, "discard Qd")  # ... but taken back, the canasta is broken: not dead
    assert len(done.melds[0][queen] or ()) == 6 and queen not in done.dead
    assert done.pile == cards("Qd")


def test_the_initial_meld_must_still_stand() -> None:
    hand = "Qc Qd Qh Qs Jc Jd Jh Tc Td Th 9c 9d 9h"  # 150 from the hand, with Kc Kd
    h = position(f"Kc Kd {SWAD} {hand}", phase="draw", pile="7d Ad Ks",
                 turn={"threes_chosen": True}, **RETRACT)
    after = act(h, "take Kc Kd, Qc Qd Qh Qs, Jc Jd Jh, Tc Td Th, 9c 9d 9h")
    assert after.turn.opening and after.hands[0] == cards("7c 7d Ac Ad JK")
    assert refusal(after, "discard 9c") == (
        "taking back 9c would undo this turn's melds: your hand's cards count 120 (the top card "
        "does not count), and your side needs 125")
    assert act(after, "discard Qs").side_melded(0)


def test_the_cards_laid_this_turn_are_in_the_position() -> None:
    after = act(picked("Qc Qd Qh Qs", **RETRACT), "meld Qc Qd Qh Qs")
    data = json.loads(json.dumps(hand_to_json(after)))
    assert data["turn"]["laid"] == {"Q": ["Qc", "Qd", "Qh", "Qs"], "K": ["Kc", "Kd"]}
    assert data["turn"]["top"] == "Ks" and hand_from_json(data) == after
    # the default rules keep no such record
    plain = act(picked("Qc Qd Qh Qs 5c"), "meld Qc Qd Qh Qs")
    assert {"laid", "top"}.isdisjoint(hand_to_json(plain)["turn"])
    for bad in (["Qc"], {"Q": ["Qc", "Qc"]}, {"J": ["Jc"]}):
        data["turn"]["laid"] = bad
        with pytest.raises(PositionError, match=r"turn\.laid"):
            hand_from_json(data)


def test_seeded_games_take_melds_back_and_keep_every_card() -> None:
    from canasta.modern_american.heuristic import HeuristicBot
    from canasta.modern_american.play import apply

    table = rules_from_json(RETRACT["rules"])
    taken_back = 0
    for seed in range(0, 60, 2):
        bots = [seated(HeuristicBot(), random.Random(seed * 4 + i)) for i in range(4)]
        h = new_hand(seed, rules=table)
        while h.end is None:
            move = bots[h.to_move](h)
            after = apply(h, move)
            if move.verb == "discard" and move.card not in h.hands[h.to_move]:
                taken_back += 1
                laid = {c for _, cards in h.turn.laid for c in cards}
                assert {a.card for a in legal_actions(h) if a.verb == "discard"} <= laid
                assert Counter(after.all_cards()) == Counter(h.all_cards())
                assert hand_from_json(json.loads(json.dumps(hand_to_json(h)))) == h
            h = after
    assert taken_back >= 2
