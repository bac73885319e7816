"""OpenSpiel's ISMCTS as a bot of the arena (``openspiel-ismcts``), found through the
``canasta.bots`` entry point."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pyspiel")

from canasta import apply, get_rules, legal_actions, new_hand, observe
from canasta.bots import BotSpecError, make_bot


def test_make_bot_finds_the_bot_by_name_with_its_parameters() -> None:
    bot = make_bot("openspiel-ismcts:iterations=3,c=250,horizon=2")
    assert bot.name == "openspiel-ismcts"
    assert (bot.iterations, bot.c, bot.horizon) == (3, 250.0, 2)  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="iterations"):
        make_bot("openspiel-ismcts:iterations=0")
    with pytest.raises(BotSpecError, match="evaluator"):
        make_bot("openspiel-ismcts:evaluator=psychic")
    with pytest.raises(BotSpecError, match="openspiel-ismcts"):
        make_bot("no-such-bot")  # the message lists the installed bots


def test_it_plays_a_legal_action_spelled_by_the_search() -> None:
    bot = make_bot("openspiel-ismcts:iterations=4,horizon=1")
    state = apply(new_hand(get_rules("classic"), seed=4), "draw")
    legal = legal_actions(state)
    rng = random.Random(1)
    action = bot.choose(observe(state, state.to_move), legal, rng)
    assert action in legal
    again = bot.choose(observe(state, state.to_move), legal, random.Random(1))
    assert again == action  # the same generator, the same choice


def test_it_plays_a_whole_hand_of_the_arena() -> None:
    rules = get_rules("classic-2p")
    bots = [make_bot("openspiel-ismcts:iterations=2,horizon=1"), make_bot("greedy")]
    state = new_hand(rules, seed=9)
    rng = random.Random(2)
    while not state.is_over:
        legal = legal_actions(state)
        bot = bots[state.to_move]
        state = apply(state, bot.choose(observe(state, state.to_move), legal, rng))
    assert state.result is not None


@pytest.mark.slow
def test_the_arena_seats_it(tmp_path: object) -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    out = Path(str(tmp_path)) / "run.json"
    done = subprocess.run(
        [sys.executable, "-m", "canasta", "arena", "--rules", "classic-2p", "--bots",
         "openspiel-ismcts:iterations=2,horizon=1", "greedy", "--hands", "2",
         "--max-hands-per-game", "1", "--seed", "3", "--no-progress", "--json", str(out)],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    assert "openspiel-ismcts" in json.dumps(report["bots"])
    assert report["pairings"]
