"""Golden files (tests/golden/, rebuilt by scripts/regen_golden.py): deals, whole games replayed
from their records, and the legal-action lists of hand-picked positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from canasta import format_action, get_rules, legal_actions, new_hand, state_from_json
from canasta.game import GameRecord, replay
from canasta.position import dumps, result_to_json, state_to_json
from canasta.rules import PRESETS

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_deal_matches_its_golden_position(preset: str) -> None:
    want = (GOLDEN / f"deal-{preset}.json").read_text()
    assert dumps(state_to_json(new_hand(get_rules(preset), 1))) + "\n" == want


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_golden_game_replays_to_the_same_results(preset: str) -> None:
    golden = json.loads((GOLDEN / f"game-{preset}.json").read_text())
    record = GameRecord.from_json(golden["record"])
    hands = list(replay(record))
    ended = [h for h in hands if h.state.is_over]
    assert [result_to_json(h.state.result) for h in ended if h.state.result] == golden["results"]
    assert list(ended[-1].scores) == golden["scores"]
    assert GameRecord.from_json(json.loads(record.dumps())) == record


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("legal-*.json")), ids=lambda p: p.stem)
def test_legal_actions_match_the_golden_list(path: Path) -> None:
    case = json.loads(path.read_text())
    state = state_from_json(case["position"])
    assert [format_action(a) for a in legal_actions(state)] == case["legal"], case["description"]
