"""Rebuild the golden files in tests/golden/ (review the diff before committing).

Usage: python scripts/regen_golden.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from canasta import format_action, get_rules, legal_actions, new_hand  # noqa: E402
from canasta.game import Game  # noqa: E402
from canasta.position import dumps, state_from_json, state_to_json  # noqa: E402
from canasta.rules import PRESETS  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"
HANDS_PER_GAME = 3


def deal_file(preset: str) -> Path:
    return GOLDEN / f"deal-{preset}.json"


def game_file(preset: str) -> Path:
    return GOLDEN / f"game-{preset}.json"


def play_game(preset: str) -> dict[str, object]:
    """A few hands of seeded random play: the record and what replaying it must give."""
    game = Game(get_rules(preset), seed=2024, players=[f"p{i}" for i in
                                                       range(get_rules(preset).num_players)])
    rng = random.Random(2024)
    results = []
    for _ in range(HANDS_PER_GAME):
        while not game.state.is_over:
            legal = legal_actions(game.state)
            game.apply(legal[rng.randrange(len(legal))])
        results.append(state_to_json(game.state)["result"])
        game.next_hand()
        if game.is_over:
            break
    return {"record": game.record.to_json(), "results": results, "scores": list(game.scores)}


def legal_cases() -> dict[str, Path]:
    return {p.stem: p for p in sorted(GOLDEN.glob("legal-*.json"))}


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for preset in PRESETS:
        deal_file(preset).write_text(dumps(state_to_json(new_hand(get_rules(preset), 1))) + "\n")
        game_file(preset).write_text(json.dumps(play_game(preset), indent=1) + "\n")
    for name, path in legal_cases().items():
        case = json.loads(path.read_text())
        state = state_from_json(case["position"])
        case["legal"] = [format_action(a) for a in legal_actions(state)]
        path.write_text(json.dumps(case, indent=1) + "\n")
        print("updated", name)


if __name__ == "__main__":
    main()
