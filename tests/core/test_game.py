"""Whole games (RULES §1.18): hands in sequence, dealer rotation, cumulative scores, the target,
ties; and records that replay to the same positions (NOTATION §4)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from canasta import (
    IllegalActionError,
    NotationError,
    PositionError,
    format_card,
    get_rules,
    legal_actions,
)
from canasta.game import Game, GameRecord, HandRecord, as_played, game_over, replay
from canasta.position import state_to_json
from canasta.rules import PRESETS


def play_hand(game: Game, rng: random.Random) -> None:
    while not game.state.is_over:
        legal = legal_actions(game.state)
        game.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_hands_follow_each_other_with_the_dealer_moving_on(preset: str) -> None:
    rules = get_rules(preset)
    game = Game(rules, seed=9)
    rng = random.Random(9)
    totals = [0] * rules.num_sides
    for number in range(3):
        assert game.state.dealer == number % rules.num_players
        assert game.state.scores == tuple(totals)
        play_hand(game, rng)
        result = game.state.result
        assert result is not None
        totals = [t + s.total for t, s in zip(totals, result.sides, strict=True)]
        game.next_hand()
        assert game.scores == tuple(totals)


def test_game_over_rules() -> None:
    classic, korean = get_rules("classic"), get_rules("korean-old")
    assert game_over(classic, [5050, 5020]) == 0  # RULES §7 #76
    assert game_over(classic, [5100, 5100]) is None  # #77: a tie plays another hand
    assert game_over(classic, [5000, 4000]) == 0  # #78
    assert game_over(korean, [5000, 4000]) is None  # #78: "over" 5000
    assert game_over(classic, [4995, -300]) is None
    assert game_over(get_rules("classic-6p"), [9990, 5000]) is None


def test_a_finished_game_deals_no_more() -> None:
    game = Game(get_rules("classic").replace(target_score=50), seed=1)
    rng = random.Random(1)
    for _ in range(40):
        play_hand(game, rng)
        game.next_hand()
        if game.is_over:
            break
    assert game.is_over and game.winner is not None
    assert max(game.scores) >= 50
    with pytest.raises(IllegalActionError):
        game.next_hand()


def test_a_record_replays_to_the_same_positions() -> None:
    game = Game(get_rules("classic"), seed=5)
    rng = random.Random(5)
    seen = [state_to_json(game.state)]
    while not game.state.is_over:
        legal = legal_actions(game.state)
        seen.append(state_to_json(game.apply(legal[rng.randrange(len(legal))])))
    record = GameRecord.loads(game.record.dumps())
    hand = next(iter(replay(record)))
    assert state_to_json(hand.state) == seen[-1]
    assert hand.record.actions == tuple(game.actions)


def test_replay_checks_seat_prefixes_and_dealers() -> None:
    game = Game(get_rules("classic"), seed=5)
    data = game.record.to_json()
    data["hands"][0]["actions"] = [f"p{game.state.to_move}: draw"]
    assert next(iter(replay(GameRecord.from_json(data)))).state.phase == "play"
    data["hands"][0]["actions"] = ["p0: draw"]
    with pytest.raises(IllegalActionError, match="not to move"):
        list(replay(GameRecord.from_json(data)))
    data["hands"][0]["actions"] = ["p9: draw"]  # no such seat: the line cannot be understood
    with pytest.raises(NotationError, match="p9 is not a seat"):
        list(replay(GameRecord.from_json(data)))
    data["hands"][0]["actions"] = []
    data["hands"].append(dict(data["hands"][0]))
    with pytest.raises(PositionError, match="not over"):
        list(replay(GameRecord.from_json(data)))


def test_records_reject_bad_decks() -> None:
    data = Game(get_rules("classic"), seed=5).record.to_json()
    data["hands"][0]["deck"] = data["hands"][0]["deck"][:-1]
    with pytest.raises(PositionError, match="pack"):
        list(replay(GameRecord.from_json(json.loads(json.dumps(data)))))


OLD_SAVE = Path(__file__).resolve().parents[1] / "saves" / (
    "classic-6p-3x2-saved-before-the-one-card-rule.json")


def test_a_record_means_the_preset_as_it_is_now_and_a_save_goes_on_as_played() -> None:
    """RULES §1.12.6 changed: the classic family now forbids a one-card hand to take a one-card
    pile while the stock lasts. The saved game took such a pile (hand 1, action 150)."""
    record = GameRecord.loads(OLD_SAVE.read_text())
    with pytest.raises(IllegalActionError, match="hand 1, action 150: a player holding one card"):
        list(replay(record))  # the preset as it is now
    older = as_played(record)
    assert older is not None and older.hands == record.hands
    assert older.rules == record.rules.replace(one_card_pile_take_ban="stock_out")
    game = Game.resume(record)
    assert game.rules == older.rules and game.hand_number == 3
    assert game.record.to_json()["rules"] == {"preset": "classic-6p-3x2",
                                              "one_card_pile_take_ban": "stock_out"}
    # a record that replays today is resumed as it is; a broken one still fails
    assert Game.resume(game.record).rules == older.rules
    assert as_played(older) is None
    today = Game(get_rules("classic"), seed=3)
    for action in ("draw", "discard " + format_card(today.state.hands[1][0])):
        today.apply(action)
    assert Game.resume(today.record).rules == get_rules("classic")
    hands = list(record.hands)
    hands[1] = HandRecord(hands[1].dealer, hands[1].deck, ("discard JK",))
    broken = GameRecord(record.rules, record.players, tuple(hands))
    assert as_played(broken) is None
    with pytest.raises(IllegalActionError, match="hand 1, action 150"):
        Game.resume(broken)
