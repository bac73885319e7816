"""The arena: bots against bots in duplicate games, with honest error bars (BOTS.md §5).

Standard library only; the ``canasta arena`` command (:mod:`canasta.interfaces.arena_cli`)
adds tables, a progress bar and a plot on top.

- :mod:`canasta.arena.schedule`: pairings, the duplicate seating scheme, derived seeds;
- :mod:`canasta.arena.play`: one work unit, a duplicate game pair;
- :mod:`canasta.arena.tournament`: :func:`run_arena` and the per-pairing figures and ratings;
- :mod:`canasta.arena.stats`: t intervals, Wilson intervals, Bradley–Terry, bootstrap;
- :mod:`canasta.arena.plot`: the ratings chart (matplotlib, imported only when drawing).
"""

from __future__ import annotations

from canasta.arena.play import ArenaError, GamePairResult, GamePairTask, play_game_pair
from canasta.arena.schedule import bot_labels, pairings, seating, split_bot_specs
from canasta.arena.tournament import (
    ArenaConfig,
    ArenaResult,
    PairingStats,
    Rating,
    run_arena,
)

__all__ = [
    "ArenaConfig", "ArenaError", "ArenaResult", "GamePairResult", "GamePairTask",
    "PairingStats", "Rating", "bot_labels", "pairings", "play_game_pair", "run_arena",
    "seating", "split_bot_specs",
]
