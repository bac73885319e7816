"""``canasta selfplay``: bots play hands and every decision becomes a Parquet row.

The command line (:mod:`canasta.interfaces.cli`) calls :func:`add_command`. pyarrow and rich
(the ``ray`` extra) are imported when the command runs; Ray only with ``--backend ray``.

Exit status: 0 on success; 2 for bad arguments (unknown bot or preset, a folder that holds
something else), one line on standard error starting ``invalid arguments``; 1 when the run
fails (a bot failed, workers kept dying, the Ray cluster could not be reached), one line
starting ``canasta selfplay:``. Ctrl-C stops the run; the shards finished so far stay, and the
same command resumes.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from canasta.errors import CanastaError
from canasta.family import preset_names
from canasta.interfaces.worker_options import (
    BadArgument,
    add_worker_options,
    check_backend,
    check_bots,
    count,
    local_jobs,
    positive_int,
    processes,
)

if TYPE_CHECKING:
    from rich.console import Console

    from canasta.selfplay import SelfplayConfig, SelfplaySummary
    from canasta.selfplay.run import ProgressCallback

DESCRIPTION = """\
Let bots play hands and write every decision as a row, for learning agents.

Data set (Parquet, in OUT; docs/scale.md lists every column):
  OUT/steps/    one row per action id chosen: game, hand, seat and step ids, the seat's
                observation tensor (fixed_size_list<float32>), the legal ids, the chosen id,
                and the hand's final return for that seat. Actions are spelled as a few ids
                from the family's alphabet (125 classic, 142 modern-american; docs/rl.md),
                so a row is one decision of an agent.
  OUT/records/  one row per hand: dealer, scores, pack order and action texts, from which the
                rows are rebuilt exactly (the hands of a game replay with canasta replay).
  OUT/selfplay.json  the settings.

The hands are cut into shards of --shard-hands hands, each seeded from (seed, shard) and
written under a temporary name that is renamed when the shard is complete: an interrupted run
loses only the shards in progress, and the same command (same OUT) resumes with the missing
ones. Read it with pyarrow.dataset.dataset("OUT/steps"), polars.scan_parquet("OUT/steps/*.parquet")
or ray.data.read_parquet("OUT/steps").

Any family plays: --rules is a preset of any family, or rules as JSON with house rules
('{"preset": "modern-american", "special_hands": "pagat"}'), and --bots names the family's
bots or levels (easy, medium, hard, expert). Bots hold sides, taking turns from game to game
(--bots heuristic,greedy: each plays both sides); one bot plays every seat. Games are played to
the rules' target; a shard's last game may be cut short.

examples:
  canasta selfplay --rules classic --bots heuristic --hands 1000 --out data --jobs 2
  canasta selfplay --rules modern-american --bots heuristic,random --hands 1000 \\
      --out ma-data --jobs 2
  canasta selfplay --bots heuristic,greedy --hands 1000000 --out /shared/data --backend ray \\
      --address auto"""

EXIT_FAILED = 1
EXIT_INVALID = 2


def add_command(subparsers: Any) -> None:
    """Add ``selfplay`` to the ``canasta`` command's subparsers."""
    from canasta.selfplay.plan import DEFAULT_SHARD_HANDS

    p = subparsers.add_parser(
        "selfplay", help="let bots play and write every decision as Parquet rows",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", default="classic", metavar="R",
                   help="a preset of any family (default classic): " + ", ".join(preset_names())
                   + "; or rules as JSON with house rules, '{\"preset\": NAME, FIELD: VALUE}'")
    p.add_argument("--bots", nargs="+", required=True, metavar="BOT",
                   help="one or more bot specs, separated by commas or spaces")
    p.add_argument("--hands", type=positive_int, required=True, metavar="N",
                   help="hands to play")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the data set's folder (new or empty, or a run to resume; with "
                        "--backend ray, a path every node sees)")
    p.add_argument("--seed", type=count, metavar="S",
                   help="seed of every deal and bot (default: the seed of the run in DIR, "
                        "else random, printed)")
    p.add_argument("--shard-hands", type=positive_int, default=DEFAULT_SHARD_HANDS,
                   metavar="K", help=f"hands per shard (default {DEFAULT_SHARD_HANDS})")
    p.add_argument("--max-hands-per-game", type=positive_int, default=100, metavar="M",
                   help="end a game after M hands (default 100)")
    add_worker_options(p, "one task per shard")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is shown only on a terminal anyway)")
    p.set_defaults(func=cmd_selfplay)


def cmd_selfplay(args: argparse.Namespace) -> int:
    """Run the ``selfplay`` command; returns the exit status."""
    try:
        return _run(args)
    except BadArgument as e:
        sys.stderr.write(f"invalid arguments: {e} (see canasta selfplay --help)\n")
        return EXIT_INVALID


def _run(args: argparse.Namespace) -> int:
    try:
        import pyarrow  # noqa: F401
        from rich.console import Console
    except ImportError:
        raise BadArgument("canasta selfplay needs pyarrow and rich: "
                          "pip install 'canasta[ray]'") from None
    config = _config(args)
    check_backend(args)
    from canasta.selfplay import run_selfplay
    from canasta.selfplay.plan import SelfplayError
    from canasta.selfplay.store import prepare

    try:
        prepare(args.out, config)  # a folder that holds something else is a bad argument
    except SelfplayError as e:
        raise BadArgument(f"--out: {e}") from None

    out = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    show = sys.stderr.isatty() and not args.no_progress
    try:
        if args.backend == "ray":
            summary, where = _run_on_ray(config, args, show)
        else:
            jobs = local_jobs(args)
            where = processes(jobs)
            with _progress(config, args.out, show) as progress:
                summary = run_selfplay(config, args.out, jobs, progress=progress)
    except CanastaError as e:
        sys.stderr.write(f"canasta selfplay: {e}\n")
        return EXIT_FAILED
    print_summary(out, summary, where)
    return 0


def _config(args: argparse.Namespace) -> SelfplayConfig:
    """The run's settings from the arguments; the seed of a run in ``--out`` by default."""
    import json

    from canasta.arena.schedule import split_bot_specs
    from canasta.family import rules_from_json
    from canasta.selfplay import SelfplayConfig
    from canasta.selfplay.store import MANIFEST

    text = args.rules.strip()
    try:
        rules = rules_from_json(json.loads(text) if text.startswith("{") else text)
    except json.JSONDecodeError as e:
        raise BadArgument(f"--rules: bad JSON: {e.msg}") from None
    except CanastaError as e:
        raise BadArgument(f"--rules: {e}") from None
    specs = split_bot_specs(args.bots)
    if not specs:
        raise BadArgument("--bots: name at least one bot")
    check_bots(specs, rules)
    seed = args.seed
    if seed is None:
        try:
            with open(os.path.join(args.out, MANIFEST), encoding="utf-8") as f:
                seed = int(json.load(f)["seed"])
        except (OSError, ValueError, KeyError, TypeError):
            seed = int.from_bytes(os.urandom(4), "big")
    return SelfplayConfig(rules, tuple(specs), args.hands, seed, shard_hands=args.shard_hands,
                          max_hands_per_game=args.max_hands_per_game)


def _run_on_ray(config: SelfplayConfig, args: argparse.Namespace,
                show: bool) -> tuple[SelfplaySummary, str]:
    from canasta.interfaces.ray_backend import connect, run_shards
    from canasta.selfplay import run_selfplay

    with connect(args.address, cpus=args.jobs or None, runtime_env=args.runtime_env) as cluster:
        if show:
            sys.stderr.write(cluster.describe() + "\n")
        with _progress(config, args.out, show) as progress:
            summary = run_selfplay(config, args.out, progress=progress,
                                   runner=lambda tasks: run_shards(tasks, args.jobs or None))
    return summary, (f"Ray, {cluster.cpus} CPUs on {cluster.nodes} "
                     f"node{'s' if cluster.nodes > 1 else ''} ({cluster.address})")


@contextmanager
def _progress(config: SelfplayConfig, out: str, show: bool) -> Iterator[ProgressCallback | None]:
    """A progress bar with hands/s and rows/s on standard error (``None`` when not shown)."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from canasta.selfplay.store import dataset_size

    before = dataset_size(out)
    bar = Progress(TextColumn("hands"), BarColumn(), MofNCompleteColumn(),
                   TextColumn("{task.fields[rates]}"), TimeElapsedColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task("hands", total=config.hands, completed=before.hands,
                        rates="starting")
    started = time.perf_counter()
    hands = rows = 0

    def update(result: Any) -> None:
        nonlocal hands, rows
        hands += result.hands
        rows += result.rows
        elapsed = max(time.perf_counter() - started, 1e-9)
        bar.update(task, advance=result.hands,
                   rates=f"{hands / elapsed:,.1f} hands/s {rows / elapsed:,.0f} rows/s")

    bar.start()
    try:
        yield update
    finally:
        bar.stop()


def print_summary(out: Console, summary: SelfplaySummary, where: str) -> None:
    """What was played, how fast, and what the folder holds."""
    from rich import box
    from rich.table import Table

    cfg, data = summary.config, summary.dataset
    out.print(f"[bold]selfplay[/bold] {cfg.rules.name}: {', '.join(cfg.bots)}; seed {cfg.seed};"
              f" {cfg.hands} hands in {cfg.shards} shard{'s' if cfg.shards > 1 else ''} of "
              f"{cfg.shard_hands} -> {summary.out}")
    if summary.resumed:
        out.print(f"resumed: {summary.resumed} shard{'s were' if summary.resumed > 1 else ' was'}"
                  " already there")
    hands = sum(r.hands for r in summary.played)
    rows = sum(r.rows for r in summary.played)
    if summary.played:
        s = max(summary.seconds, 1e-9)
        out.print(f"played {hands:,} hands, {rows:,} rows in {summary.seconds:.1f} s on {where}:"
                  f" {hands / s:,.1f} hands/s, {rows / s:,.0f} rows/s")
    else:
        out.print("nothing to play: every shard was already there")
    per_row = f", {data.bytes / data.rows:.0f} bytes a row" if data.rows else ""
    out.print(f"data set: {data.shards} shards, {data.hands:,} hands, {data.rows:,} rows, "
              f"{data.bytes / 1e6:,.1f} MB{per_row}")
    workers = summary.workers()
    if workers:
        table = Table(title="workers", title_justify="left", box=box.SIMPLE_HEAD,
                      show_edge=False, collapse_padding=True)
        for name in ("worker", "shards", "hands", "seconds", "hands/s"):
            table.add_column(name, justify="left" if name == "worker" else "right")
        for key, (shards, n, seconds) in sorted(workers.items()):
            table.add_row(key, str(shards), f"{n:,}", f"{seconds:.1f}",
                          f"{n / seconds:.1f}" if seconds else "n/a")
        out.print(table)
