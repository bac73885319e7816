"""The frozen ``heuristic-v2`` bot still plays exactly as when it was frozen."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from canasta import observe
from canasta.actions import format_action, parse_action
from canasta.bots import BotSpecError, heuristic_v2, make_bot
from canasta.bots.heuristic_v2 import HeuristicV2Bot
from canasta.position import state_from_json

from .frozen_decisions import load

ROWS = load("heuristic-v2")


def test_the_record_covers_every_kind_of_decision() -> None:
    verbs = {row["action"].split()[0] for row in ROWS}
    assert {"take", "draw", "meld", "discard", "ask", "yes", "no"} <= verbs
    assert len({row["preset"] for row in ROWS}) >= 8


@pytest.mark.parametrize("preset", sorted({row["preset"] for row in ROWS}))
def test_heuristic_v2_makes_its_recorded_decisions(preset: str) -> None:
    bot = make_bot("heuristic-v2")
    assert isinstance(bot, HeuristicV2Bot)
    changed = []
    for row in (r for r in ROWS if r["preset"] == preset):
        state = state_from_json(row["position"])
        legal = [parse_action(a) for a in row["legal"]]
        action, why = bot.explain(observe(state, row["seat"]), legal, random.Random(0))
        if (format_action(action), why) != (row["action"], row["why"]):
            changed.append(f"seed {row['seed']} seat {row['seat']}: {row['action']!r} "
                           f"({row['why']}) became {format_action(action)!r} ({why})")
    assert not changed, "\n".join(changed[:10])


def test_heuristic_v2_reads_no_other_bot() -> None:
    # a self-contained copy: work on the shared bot helpers cannot change how it plays
    tree = ast.parse(Path(heuristic_v2.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert imported and not any(m.startswith("canasta.bots") for m in imported)


def test_heuristic_v2_weights_are_checked_by_name() -> None:
    assert make_bot("heuristic-v2:aggression=1.5").weights.aggression == 1.5  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="keep_wilds"):
        make_bot("heuristic-v2:keep_wilds=3")
