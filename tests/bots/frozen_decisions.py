"""Decisions of bots on seeded positions, kept as files.

``heuristic-v1`` is the fixed yardstick every new bot is measured against, so its play must
never change. The file ``data/heuristic_v1_decisions.jsonl.gz`` holds positions met in seeded
hands of every preset (four copies of the bot, and the bot against the random bot for odd
positions), the legal actions there and the bot's choice, recorded from the code as it was when
it was frozen. ``test_heuristic_v1.py`` checks the bot still makes every one of them.
``heuristic-v2``, the second yardstick, has its own file (``data/heuristic_v2_decisions.jsonl.gz``,
the same positions: it was written from ``heuristic`` as it stood when it was frozen, and
reproduced that bot's recording exactly), checked by ``test_heuristic_v2.py``.

The same is kept for ``heuristic`` (``data/heuristic_decisions.jsonl.gz``) and for a search of
fixed iterations, :data:`ISMCTS` (``data/ismcts_decisions.jsonl.gz``, every fourth position of
the heuristic's file): they pin the engine under the bots, so work on the rules that changes how
either bot plays is seen (``test_recorded_decisions.py``). Work on the bots themselves rewrites
these two files, and says so.

Regenerate only to add positions, never to accept a change of play:
``python -m tests.bots.frozen_decisions [heuristic-v1|heuristic-v2|heuristic|ismcts]`` (the first
heuristic-v1 file was written from ``heuristic`` as it stood before the new heuristic replaced
it).
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from canasta import apply, legal_actions, new_hand, observe
from canasta.actions import format_action
from canasta.bots import explain, make_bot
from canasta.position import state_to_json
from canasta.rules import PRESETS

DATA = Path(__file__).parent / "data" / "heuristic_v1_decisions.jsonl.gz"
ISMCTS = "ismcts:iterations=40"
"""The search whose decisions are recorded: iterations alone, no time budget, so that it is
the same on any machine."""
FILES = {"heuristic-v1": DATA,
         "heuristic-v2": DATA.with_name("heuristic_v2_decisions.jsonl.gz"),
         "heuristic": DATA.with_name("heuristic_decisions.jsonl.gz"),
         ISMCTS: DATA.with_name("ismcts_decisions.jsonl.gz")}
"""The recorded file of each bot."""
PER_HAND = 12
"""Positions kept per seeded hand (spread over the hand)."""


def positions(spec: str = "heuristic-v1") -> Iterator[dict[str, Any]]:
    """Positions of seeded hands of every preset where ``spec`` chose among several actions."""
    for preset in sorted(PRESETS):
        rules = PRESETS[preset]
        for hand in range(4):
            seed = 1000 + hand
            # three hands of four copies, one against the random bot (odd positions)
            tested = {s for s in range(rules.num_players) if hand < 3 or s % 2 == 0}
            bots = [make_bot(spec if s in tested else "random") for s in range(rules.num_players)]
            rngs = [random.Random(seed * 10 + s) for s in range(rules.num_players)]
            state = new_hand(rules, seed=seed, dealer=hand % rules.num_players)
            chosen: list[dict[str, Any]] = []
            while not state.is_over:
                seat = state.to_move
                legal = legal_actions(state)
                obs = observe(state, seat)
                action = bots[seat].choose(obs, legal, rngs[seat])
                if len(legal) > 1 and seat in tested:
                    why = explain(bots[seat], obs, legal, random.Random(0))[1]
                    chosen.append({"preset": preset, "seed": seed, "seat": seat,
                                   "position": state_to_json(state),
                                   "legal": [format_action(a) for a in legal],
                                   "action": format_action(action), "why": why})
                state = apply(state, action)
            # the rare decisions all (answers, asks, takes), then a spread of the rest
            rare = [r for r in chosen if r["position"]["phase"] != "play"
                    or any(a == "ask" for a in r["legal"])]
            rest = [r for r in chosen if r not in rare]
            step = max(1, len(rest) // PER_HAND)
            yield from rare[:PER_HAND]
            yield from rest[::step][:PER_HAND]


def decided(spec: str, rows: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """``rows`` with the action and reason of ``spec`` at each (its ``explain``, seeded)."""
    from canasta.actions import parse_action
    from canasta.position import state_from_json

    for row in rows:
        bot = make_bot(spec)
        state = state_from_json(row["position"])
        legal = [parse_action(a) for a in row["legal"]]
        action, why = explain(bot, observe(state, row["seat"]), legal, random.Random(0))
        yield {**row, "action": format_action(action), "why": why}


def load(spec: str = "heuristic-v1") -> list[dict[str, Any]]:
    """The recorded positions and decisions of ``spec``."""
    with gzip.open(FILES[spec], "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def main() -> None:
    """Write the file of one bot (``heuristic-v1`` unless named) from its play now."""
    name = sys.argv[1] if len(sys.argv) > 1 else "heuristic-v1"
    spec = ISMCTS if name == "ismcts" else name
    rows = (list(decided(spec, list(positions("heuristic"))[::4])) if spec == ISMCTS
            else list(positions(spec)))
    FILES[spec].parent.mkdir(exist_ok=True)
    with gzip.open(FILES[spec], "wt", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, separators=(",", ":")) + "\n")
    print(f"{len(rows)} positions written to {FILES[spec]}")


if __name__ == "__main__":
    main()
