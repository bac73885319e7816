"""The public record of a hand (``Hand.seen``): kept up to date by every action, written in
the position's JSON (an optional key), carried by every seat's observation, and honoured by a
world dealt from an observation."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from canasta.cards import parse_cards, parse_rank
from canasta.errors import PositionError
from canasta.modern_american.notation import hand_from_json, hand_to_json
from canasta.modern_american.observation import observe, world
from canasta.modern_american.play import apply, legal_actions, new_hand
from canasta.modern_american.record import NOTHING_SEEN
from tests.modern_american.test_turns import act, position


def test_a_pick_a_meld_and_a_discard_are_recorded() -> None:
    h = position("Kd Kh 9c 5c 6d 8h Jd", phase="draw", pile="Qc Qd 4h Kc",
                 ns={"9": ["9d", "9h", "9s"]}, turn={"threes_chosen": True})
    assert h.seen == NOTHING_SEEN and "seen" not in hand_to_json(h)
    took = act(h, "take Kd Kh")
    assert took.seen.held[0] == tuple(sorted(parse_cards("Qc Qd 4h")))
    assert took.seen.played == (True, False, False, False)
    melded = act(took, "meld 9c")
    discarded = act(melded, "discard 5c")
    assert parse_rank("5") in discarded.seen.discarded[0]
    assert set(discarded.seen.held[0]) <= set(discarded.hands[0])
    data = json.loads(json.dumps(hand_to_json(discarded)))
    assert data["seen"]["discarded"][0] == ["5"] and data["seen"]["played"][0] is True
    assert hand_from_json(data) == discarded


def test_the_picked_cards_leave_the_record_as_they_are_melded() -> None:
    h = position("Kd Kh Qd Qh 5c 6d 8h", phase="draw", pile="Qc 4h Kc",
                 ns={"9": ["9d", "9h", "9s"]}, turn={"threes_chosen": True})
    took = act(h, "take Kd Kh")
    assert took.seen.held[0] == tuple(sorted(parse_cards("Qc 4h")))
    melded = act(took, "meld Qc Qd Qh")
    assert melded.seen.held[0] == tuple(parse_cards("4h"))


def test_every_seat_sees_the_record_and_a_world_keeps_it() -> None:
    rng = random.Random(3)
    h = new_hand(seed=3)
    for _ in range(400):
        if h.is_over or any(h.seen.held[s] for s in range(4) if s != h.to_move):
            break
        takes = [a for a in legal_actions(h) if a.verb == "take"]
        h = apply(h, rng.choice(takes or legal_actions(h)))
    held = [s for s in range(4) if s != h.to_move and h.seen.held[s]]
    assert held, "no pick in the hand"
    for seat in range(4):
        obs = observe(h, seat)
        assert obs.seen == h.seen
        assert obs.to_json()["seen"] == hand_to_json(h)["seen"]
        dealt = world(obs, random.Random(seat))
        assert dealt.seen == h.seen
        for s in range(4):
            assert not Counter(h.seen.held[s]) - Counter(dealt.hands[s])


def test_a_position_without_a_record_reads_and_a_bad_record_is_refused() -> None:
    h = new_hand(seed=5)
    data = hand_to_json(h)
    assert "seen" not in data and hand_from_json(data).seen == NOTHING_SEEN
    for bad, words in ((["x"], "seen must be an object"),
                       ({"held": [[]] * 3}, "4 entries"),
                       ({"held": [["JK"] * 5, [], [], []]}, "must be in it"),
                       ({"discarded": [["3"], [], [], []]}, "natural ranks"),
                       ({"played": [1, 0, 0, 0]}, "true or false")):
        with pytest.raises(PositionError, match=words):
            hand_from_json({**data, "seen": bad})
