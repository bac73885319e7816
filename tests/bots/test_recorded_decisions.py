"""``heuristic`` and a fixed-iteration search still make their recorded decisions.

These files pin the engine under the bots (the legal lists, the observations, the rules the
bots ask): a change of the rules kernel that changes how either bot plays fails here.
"""

from __future__ import annotations

import random

import pytest

from canasta import observe
from canasta.actions import format_action, parse_action
from canasta.bots import explain, make_bot
from canasta.position import state_from_json

from .frozen_decisions import ISMCTS, load


@pytest.mark.parametrize("spec", ["heuristic", ISMCTS])
def test_the_bot_makes_its_recorded_decisions(spec: str) -> None:
    rows = load(spec)
    assert len(rows) >= 100
    changed = []
    for row in rows:
        state = state_from_json(row["position"])
        legal = [parse_action(a) for a in row["legal"]]
        action, why = explain(make_bot(spec), observe(state, row["seat"]), legal,
                              random.Random(0))
        if (format_action(action), why) != (row["action"], row["why"]):
            changed.append(f"{row['preset']} seed {row['seed']} seat {row['seat']}: "
                           f"{row['action']!r} ({row['why']}) became "
                           f"{format_action(action)!r} ({why})")
    assert not changed, "\n".join(changed[:10])


def test_the_search_record_is_not_the_heuristic_record() -> None:
    # the search overrules its heuristic somewhere, or the file would pin nothing new
    heuristic = {(r["preset"], r["seed"], r["seat"], str(r["position"])): r["action"]
                 for r in load("heuristic")}
    differ = [r for r in load(ISMCTS)
              if heuristic.get((r["preset"], r["seed"], r["seat"], str(r["position"])))
              not in (None, r["action"])]
    assert differ
