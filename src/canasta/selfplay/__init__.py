"""Self-play data: bots play hands, and every decision becomes rows for learning agents.

Standard library only when loaded; the Parquet files are written with pyarrow (the ``ray``
extra), imported when a shard is written or read. The ``canasta selfplay`` command
(:mod:`canasta.interfaces.selfplay_cli`) adds the progress bar, the summary and the Ray backend.

- :mod:`canasta.selfplay.plan`: what to play (:class:`SelfplayConfig`), shards and their seeds;
- :mod:`canasta.selfplay.steps`: one decision as rows (action ids, masks, observation tensors);
- :mod:`canasta.selfplay.records`: the record of one hand, from which its rows are rebuilt;
- :mod:`canasta.selfplay.shards`: one shard played and written (the unit of work);
- :mod:`canasta.selfplay.store`: the Parquet files, atomic writes, resuming, rebuilding;
- :mod:`canasta.selfplay.run`: a whole run over worker processes, resuming what is missing.

The data set (docs/scale.md lists every column): ``OUT/steps/shard-NNNNNN.parquet`` with one
row per action id chosen (an action is spelled as a few ids, :mod:`canasta.rl.encoding`),
``OUT/records/shard-NNNNNN.parquet`` with one row per hand (dealer, scores, pack order, action
texts) from which the steps are rebuilt exactly, and ``OUT/selfplay.json``, the settings.
"""

from __future__ import annotations

from canasta.selfplay.plan import SelfplayConfig, SelfplayError
from canasta.selfplay.run import SelfplaySummary, run_selfplay
from canasta.selfplay.shards import ShardResult, ShardTask, play_shard

__all__ = ["SelfplayConfig", "SelfplayError", "SelfplaySummary", "ShardResult", "ShardTask",
           "play_shard", "run_selfplay"]
