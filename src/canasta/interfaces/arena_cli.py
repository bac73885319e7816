"""``canasta arena``: bots against bots in duplicate games, with tables, JSON and a chart.

The command line (:mod:`canasta.interfaces.cli`) calls :func:`add_command`. rich and matplotlib
(the ``arena`` extra) are imported only when the command runs, so the rest of the command line
works without them.

Exit status: 0 on success; 2 for bad arguments (unknown bot or preset, bad ``--hands``, a file
that cannot be written), one line on standard error starting ``invalid arguments``; 1 when the
run itself fails (a bot raised an error or chose an illegal action, the output could not be
written, the Ray cluster could not be reached), one line starting ``canasta arena:``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from canasta.errors import CanastaError, RulesError
from canasta.family import families, get_rules, preset_names, rules_from_json
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

    from canasta.arena.tournament import ArenaConfig, ArenaResult, ProgressCallback
    from canasta.rules import Rules

DESCRIPTION = """\
Play bots against each other in duplicate games and report who is stronger, with 95%
intervals. With more than two bots every pairing is played (round robin) and the bots are
rated.

Any preset of any family of rules plays (--rules), with that family's bots and levels (easy,
medium, hard, expert).

How it plays (docs/bots.md): hands are played in whole games, until a side has won by the
rules, in duplicate game pairs. Both games of a pair are dealt the same pack orders, hand by
hand, by the same dealers, with the bots' seats swapped: in one game bot A holds every seat of
one side and B the rest, in the other B holds that side and A the rest (a partnership each in
4- and 6-player rules; seats swapped in 2-player; in 3-player one bot alone against two copies
of the other, then the reverse). The first dealer and the side A starts on rotate from pair to pair.
Every bot gets a fresh instance and a random generator seeded from --seed for each hand, so a
run is reproducible and gives the same figures whatever --jobs and --backend are.

Where it plays: --backend multiprocessing (the default) uses --jobs processes on this
machine; --backend ray spreads the game pairs over a Ray cluster (pip install
'canasta[ray]'): the one at --address (or $RAY_ADDRESS), or else a local Ray instance. A Ray
worker that dies has its game pairs played again on another. See docs/scale.md.

What it reports, per pairing, from A's side (A is the bot named first):
  points per hand  mean of (A's side total - B's side total) per hand, with a Student-t 95%
                   interval over duplicate pairs (the two hands dealt from one pack order), so
                   the luck of the deal cancels; rho is how much the two tables' results for
                   the same seats agree
  win rate         games won by A (A holds the winning side), with a Wilson 95% interval;
                   games left unfinished after --max-hands-per-game hands do not count
  ratings          Bradley-Terry fitted on all games (MM algorithm), Elo scale, average 1500
                   (or --anchor), with 95% intervals from a parametric bootstrap

--json FILE holds every figure printed ("pairings", "ratings", "bots") and "games": for each
game its seats (which bot sat where), per hand the dealer, the scores before it, the side
totals and A's difference, and "record", the game as a NOTATION section 4 record (rules,
players, and per hand dealer, deck and actions) that 'canasta replay' reads.

examples:
  canasta arena --bots heuristic,greedy --hands 2000 --jobs 2 --seed 1
  canasta arena --rules classic-2p --bots random,greedy,heuristic --hands 500 --plot r.png
  canasta arena --bots 'ismcts:iterations=500' heuristic --hands 200 --json run.json
  canasta arena --bots ismcts,heuristic --hands 5000 --backend ray --address auto
  canasta arena --rules R --bots easy,medium,hard --hands 200 --anchor easy   # any family
  jq '.games[0].record' run.json | canasta replay -     # replay a game of the run"""

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
EXIT_FAILED = 1
EXIT_INVALID = 2


def add_command(subparsers: Any) -> None:
    """Add ``arena`` to the ``canasta`` command's subparsers."""
    p = subparsers.add_parser(
        "arena", help="play bots against each other and compare them (duplicate games)",
        description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bots", nargs="+", required=True, metavar="BOT",
                   help="two or more bot specs, separated by commas or spaces (e.g. "
                        "heuristic,greedy or 'ismcts:iterations=500' random)")
    default = families()[0].default_rules.name
    p.add_argument("--rules", default=default, metavar="R",
                   help=f"preset of any family (default {default}): "
                        + ", ".join(preset_names())
                        + ", or rules as JSON with house rules ('{\"preset\": NAME, FIELD: "
                        "VALUE}'); the bots are that family's (a name it lacks lists those it has)")
    p.add_argument("--hands", type=positive_int, default=200, metavar="N",
                   help="hands per pairing, at least (whole game pairs are played until their "
                        "duplicate pairs hold N hands; default 200)")
    add_worker_options(p, "game pairs in chunks to actors, one per CPU")
    p.add_argument("--seed", type=count, metavar="S",
                   help="seed of every deal and bot (default: random, printed)")
    p.add_argument("--json", metavar="FILE",
                   help="write every figure and every game's record (NOTATION section 4) here")
    p.add_argument("--plot", metavar="FILE.png",
                   help="draw the ratings with their intervals (.png, .svg or .pdf)")
    p.add_argument("--anchor", metavar="BOT",
                   help="the bot rated 1500 (default: the average rating is 1500)")
    p.add_argument("--max-hands-per-game", type=positive_int, default=100, metavar="M",
                   help="leave a game unfinished after M hands (default 100)")
    p.add_argument("--bootstrap", type=count, default=1000, metavar="B",
                   help="bootstrap rounds for the rating intervals (default 1000)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (it is shown only on a terminal anyway)")
    p.set_defaults(func=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    """Run the ``arena`` command; returns the exit status."""
    try:
        return _run(args)
    except BadArgument as e:
        sys.stderr.write(f"invalid arguments: {e} (see canasta arena --help)\n")
        return EXIT_INVALID


def _run(args: argparse.Namespace) -> int:
    from canasta.arena.schedule import bot_labels, split_bot_specs
    from canasta.arena.tournament import ArenaConfig, run_arena

    try:
        from rich.console import Console
    except ImportError:
        raise BadArgument("canasta arena needs rich: pip install 'canasta[arena]'") from None
    try:
        rules = _rules(args.rules)
    except CanastaError as e:
        raise BadArgument(f"--rules: {e}") from None
    specs = split_bot_specs(args.bots)
    if len(specs) < 2:
        raise BadArgument(f"--bots: name at least two bots, not {len(specs)}")
    check_bots(specs, rules)
    labels = bot_labels(specs)
    anchor = None
    if args.anchor is not None:
        name = args.anchor.strip()
        matches = [i for i, (label, spec) in enumerate(zip(labels, specs))
                   if name in (label, spec)]
        if not matches:
            raise BadArgument(f"--anchor: {args.anchor!r} is not one of the bots "
                               f"({', '.join(labels)})")
        anchor = matches[0]
    if args.json is not None:
        _check_writable(args.json, "--json")
    if args.plot is not None:
        if not args.plot.lower().endswith(PLOT_SUFFIXES):
            raise BadArgument(f"--plot: {args.plot!r} should end in "
                               + ", ".join(PLOT_SUFFIXES))
        _check_writable(args.plot, "--plot")
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise BadArgument("--plot needs matplotlib: pip install 'canasta[arena]'") \
                from None
    check_backend(args)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    config = ArenaConfig(rules, tuple(specs), args.hands, seed,
                         max_hands_per_game=args.max_hands_per_game,
                         keep_records=args.json is not None, bootstrap=args.bootstrap,
                         anchor=anchor)

    out = Console(highlight=False, width=None if sys.stdout.isatty() else 120)
    show_progress = sys.stderr.isatty() and not args.no_progress
    started = time.perf_counter()
    try:
        if args.backend == "ray":
            result, where = _run_on_ray(config, args, show_progress)
        else:
            jobs = local_jobs(args)
            where = processes(jobs)
            with _progress_bar(show_progress) as progress:
                result = run_arena(config, jobs, progress=progress)
    except CanastaError as e:  # a bot failed, or the Ray cluster did
        sys.stderr.write(f"canasta arena: {e}\n")
        return EXIT_FAILED
    elapsed = time.perf_counter() - started

    print_report(out, result, elapsed, where)
    if args.json is not None:
        try:
            with open(args.json, "w", encoding="utf-8") as f:
                f.write(result.dumps())
        except OSError as e:
            sys.stderr.write(f"canasta arena: cannot write {args.json!r}: {e.strerror}\n")
            return EXIT_FAILED
        out.print(f"[dim]wrote {args.json}[/dim]")
    if args.plot is not None:
        from canasta.arena.plot import plot_ratings

        title = (f"{rules.name}: {', '.join(labels)} (at least {config.hands} hands per "
                 f"pairing, seed {seed})")
        try:
            plot_ratings(result.ratings, args.plot, title)
        except (OSError, ValueError) as e:
            sys.stderr.write(f"canasta arena: cannot draw {args.plot!r}: {e}\n")
            return EXIT_FAILED
        out.print(f"[dim]wrote {args.plot}[/dim]")
    return 0


def _rules(text: str) -> Rules:
    """``--rules``: a preset's name, or rules as JSON (``{"preset": NAME, FIELD: VALUE}``,
    NOTATION section 3) for house rules."""
    if not text.lstrip().startswith("{"):
        return get_rules(text)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise RulesError(f"not JSON: {e.msg}") from None
    return rules_from_json(value)


def _check_writable(path: str, option: str) -> None:
    """Fail before the run, not after it, when ``path`` cannot be written."""
    if os.path.isdir(path):
        raise BadArgument(f"{option}: {path!r} is a directory")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise BadArgument(f"{option}: cannot write {path!r}: no such directory {folder!r}")
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as e:
        raise BadArgument(f"{option}: cannot write {path!r}: {e.strerror}") from None
    if not existed:
        os.remove(path)


@contextmanager
def _progress_bar(show: bool) -> Iterator[ProgressCallback | None]:
    """A progress callback that draws a bar on standard error (``None`` when not shown)."""
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

    bar = Progress(TextColumn("hands"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    task = bar.add_task("hands", total=None)

    def update(done: int, total: int) -> None:
        if not bar.live.is_started:  # started here, after the worker processes
            bar.start()
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        bar.stop()


def _run_on_ray(config: ArenaConfig, args: argparse.Namespace,
                show_progress: bool) -> tuple[ArenaResult, str]:
    """Play on a Ray cluster; returns the result and where it ran, for the report."""
    from canasta.arena.tournament import run_arena
    from canasta.interfaces.ray_backend import RayPool, connect

    jobs = args.jobs
    with connect(args.address, cpus=jobs or None, runtime_env=args.runtime_env) as cluster:
        if show_progress:
            sys.stderr.write(cluster.describe() + "\n")
        with RayPool(jobs or None) as pool, _progress_bar(show_progress) as progress:
            result = run_arena(config, progress=progress, pool=pool)
    nodes = f"{cluster.nodes} node{'s' if cluster.nodes > 1 else ''}"
    return result, (f"{pool.size} Ray worker{'s' if pool.size > 1 else ''} on {nodes} "
                    f"({cluster.address})")


# -- the report ----------------------------------------------------------------------------------
def _signed(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None else f"{x:+.{digits}f}"


def _interval(ci: tuple[float, float] | None, digits: int = 0) -> str:
    if ci is None:
        return "n/a"
    return f"[{ci[0]:+.{digits}f}, {ci[1]:+.{digits}f}]"


def print_report(out: Console, result: ArenaResult, elapsed: float, where: str) -> None:
    """Print the pairings table, the ratings table (more than two bots) and the timings;
    ``where`` says what played (e.g. ``2 processes``)."""
    from rich import box
    from rich.table import Table

    cfg = result.config
    labels = cfg.labels
    out.print(f"[bold]arena[/bold] {cfg.rules.name}: {', '.join(labels)}; seed {cfg.seed}; "
              f"at least {cfg.hands} hands per pairing; {elapsed:.1f} s on {where}")

    table = Table(title="pairings (figures from A's side)", title_justify="left",
                  box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True)
    names = max(len(label) for label in labels)
    table.add_column("A", overflow="fold", min_width=min(names, 8))
    table.add_column("B", overflow="fold", min_width=min(names, 8))
    for name in ("hands", "pts/hand", "95% CI", "rho", "A won", "95% CI"):
        table.add_column(name, justify="right", no_wrap=True)
    for p in result.pairings:
        significant = p.ci95 is not None and (p.ci95[0] > 0 or p.ci95[1] < 0)
        pph = _signed(p.points_per_hand, 0)
        won = ("n/a" if p.win_rate is None
               else f"{p.wins}/{p.games} {100 * p.win_rate:.0f}%")
        if p.unfinished:
            won += f" ({p.unfinished} unfinished)"
        table.add_row(
            p.a, p.b, str(p.hands), f"[bold]{pph}[/bold]" if significant else pph,
            _interval(p.ci95), "n/a" if p.rho is None else f"{p.rho:.2f}", won,
            "n/a" if p.win_rate_ci95 is None
            else f"{100 * p.win_rate_ci95[0]:.0f}-{100 * p.win_rate_ci95[1]:.0f}%")
    out.print(table)
    out.print()

    ms = {label: (1000 * s / n if n else None)
          for label, n, s in zip(labels, result.decisions, result.seconds)}
    if len(labels) > 2:
        ratings = Table(title="ratings (Bradley-Terry on games, Elo scale)", title_justify="left",
                        box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True)
        for name in ("#", "bot", "rating", "95% CI", "games", "won", "ms/decision"):
            ratings.add_column(name, justify="left" if name == "bot" else "right")
        for rank, r in enumerate(sorted(result.ratings, key=lambda r: -r.rating), 1):
            t = ms[r.bot]
            ratings.add_row(str(rank), r.bot, f"{r.rating:.0f}",
                            f"[{r.ci95[0]:.0f}, {r.ci95[1]:.0f}]", str(r.games), str(r.wins),
                            "n/a" if t is None else f"{t:.2f}")
        out.print(ratings)
        out.print()
    else:
        out.print("time per decision: " + ", ".join(
            f"{label} {'n/a' if t is None else f'{t:.2f} ms'}" for label, t in ms.items()))
    out.print("[dim]pts/hand: mean of A's side total minus B's, Student-t 95% interval over "
              "duplicate pairs (bold: excludes 0); rho: agreement of the two tables of a "
              "duplicate pair; A won: games won by A of those finished, with the Wilson 95% "
              "interval of the win rate.[/dim]")

