"""Bad input never crashes the family's commands: positions and records with a value broken at
random, and action lines of random words, each end in exit status 0, 1 or 2 with one line on
standard error (never 70, an internal error)."""

from __future__ import annotations

import copy
import io
import json
import random
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from canasta.bots.random_bot import RandomBot
from canasta.interfaces.cli import main
from canasta.modern_american.notation import hand_to_json
from canasta.modern_american.play import apply, legal_actions, new_hand
from tests.modern_american.games import play_game, seated

JUNK: list[Any] = [None, 1, -1, 99, "x", [], {}, [1, 2], ["Zz"], {"a": 1}, True, 1.5, "JK",
                   ["JK"] * 9]
WORDS = ["meld", "take", "discard", "keep", "special", "draw", "pass", "ask", "yes", "W:", "K:",
         "2:", "3s", "JK", "Kc", "Kd", "none", "Pairs", ",", ":", "7c", "Zz", "10h"]


def broken(data: Any, rng: random.Random) -> Any:
    """``data`` with one value somewhere replaced by junk or removed."""
    data = copy.deepcopy(data)
    node = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return data
        key = rng.choice(keys)
        if rng.random() < 0.4 or not isinstance(node[key], (dict, list)):
            if isinstance(node, dict) and rng.random() < 0.15:
                del node[key]
            else:
                node[key] = rng.choice(JUNK)
            return data
        node = node[key]


def run(argv: list[str], stdin: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(argv)
    finally:
        sys.stdin = old
    return code, err.getvalue()


def test_broken_positions_actions_and_records() -> None:
    rng = random.Random(1)
    h = new_hand(3)
    for _ in range(30):
        h = apply(h, rng.choice(legal_actions(h)))
    position = hand_to_json(h)
    codes = set()
    for _ in range(300):
        code, err = run(["legal", "-"], json.dumps(broken(position, rng)))
        assert code in (0, 2), err
        assert code == 0 or (err.startswith("invalid") and err.count("\n") == 1), err
        codes.add(code)
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
        code, err = run(["apply", "-", line], json.dumps(position))
        assert code in (0, 1, 2), (line, err)
        codes.add(code)
    _, played = play_game([seated(RandomBot(), random.Random(i)) for i in range(4)], seed=2,
                          max_hands=2)
    record = played.to_json()
    for _ in range(60):
        code, err = run(["replay", "-"], json.dumps(broken(record, rng)))
        assert code in (0, 1, 2), err
    assert codes == {0, 1, 2}
