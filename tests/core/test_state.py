"""States are values: the engine never changes one and never hands out one that can change."""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys

import pytest

from canasta import State, apply, get_rules, legal_actions, new_hand
from canasta.deal import shuffle
from canasta.position import state_to_json


def test_every_state_the_engine_returns_is_sealed_and_the_old_one_untouched() -> None:
    state = new_hand(get_rules("classic"), seed=2)
    rng = random.Random(2)
    while not state.is_over:
        before = state_to_json(state)
        after = apply(state, rng.choice(legal_actions(state)))
        assert type(after) is State
        assert state_to_json(state) == before
        with pytest.raises(AttributeError):
            after.phase = "over"  # type: ignore[misc]
        state = after


def _states_of_a_hand(preset: str, seed: int) -> list[State]:
    state = new_hand(get_rules(preset), seed=seed)
    rng = random.Random(seed)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("preset", ["classic", "classic-3p-cutthroat"])
def test_copies_and_pickles_are_equal_sealed_states_that_play_on_alike(preset: str) -> None:
    states = _states_of_a_hand(preset, seed=5)
    for state in states[:: max(1, len(states) // 12)] + [states[-1]]:
        copies = [copy.copy(state), copy.deepcopy(state)]
        copies += [pickle.loads(pickle.dumps(state, protocol=p))
                   for p in range(pickle.HIGHEST_PROTOCOL + 1)]
        for other in copies:
            assert type(other) is State
            assert other == state and hash(other) == hash(state)
            assert state_to_json(other) == state_to_json(state)
            with pytest.raises(AttributeError):
                other.phase = "over"  # type: ignore[misc]
            if not state.is_over:
                assert legal_actions(other) == legal_actions(state)
                action = legal_actions(state)[-1]
                assert apply(other, action) == apply(state, action)


def test_a_copied_draft_is_a_separate_draft() -> None:
    state = new_hand(get_rules("classic"), seed=1)
    draft = state.copy()
    for other in (copy.copy(draft), copy.deepcopy(draft), pickle.loads(pickle.dumps(draft))):
        other.phase = "over"  # a draft may still be filled in
        assert draft.phase == state.phase


def test_deep_copies_of_containers_share_nothing_mutable() -> None:
    state = new_hand(get_rules("classic-2p"), seed=3)
    box = {"state": state, "history": [1, 2]}
    clone = copy.deepcopy(box)
    clone["history"].append(3)
    assert clone["state"] == state and box["history"] == [1, 2]


def test_pickled_rules_recompute_their_per_process_tables() -> None:
    # opening_id numbers rule sets in the order a process meets them: an unpickled rule set must
    # not bring the number it had elsewhere.
    custom = get_rules("classic").replace(min_meld_size=4)
    blob = pickle.dumps(new_hand(custom, seed=1))
    script = (
        "import pickle, sys\n"
        "from canasta import get_rules, legal_actions\n"
        "other = get_rules('classic').replace(max_wilds_per_meld=2)\n"
        "state = pickle.loads(sys.stdin.buffer.read())\n"
        "fresh = get_rules('classic').replace(min_meld_size=4)\n"
        "assert state.rules == fresh\n"
        "assert state.rules.opening_id == fresh.opening_id != other.opening_id, 'stale id'\n"
        "print(len(legal_actions(state)))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], input=blob, capture_output=True,
                         check=False)
    assert out.returncode == 0, out.stderr.decode()
    assert int(out.stdout) == len(legal_actions(new_hand(custom, seed=1)))


@pytest.mark.parametrize("size", [0, 1, 2, 3, 17, 108, 162])
def test_the_deal_shuffles_as_random_shuffle_does(size: int) -> None:
    for seed in [*range(40), 2**63 - 1, 2**64 + 12345]:
        want = list(range(size))
        random.Random(seed).shuffle(want)
        got = list(range(size))
        shuffle(got, random.Random(seed))
        assert got == want, seed
