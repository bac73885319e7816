"""What ``canasta arena`` and ``canasta selfplay`` share on their command lines: whole-number
options, the bot specs, and where the workers run (``--jobs``, ``--backend``, ``--address``,
``--runtime-env``)."""

from __future__ import annotations

import argparse
import json
import os
from typing import Any

from canasta.errors import CanastaError

BACKENDS = ("multiprocessing", "ray")


class BadArgument(Exception):
    """A bad argument: reported on one line, exit status 2."""


def whole_number(text: str, least: int) -> int:
    """``text`` as an integer of at least ``least`` (an ``argparse`` type)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1 (an ``argparse`` type)."""
    return whole_number(text, 1)


def count(text: str) -> int:
    """A whole number of at least 0 (an ``argparse`` type)."""
    return whole_number(text, 0)


def runtime_env(text: str) -> dict[str, Any]:
    """``--runtime-env``: a JSON object (an ``argparse`` type)."""
    try:
        value = json.loads(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not JSON: {e}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object, e.g. "
                                         "'{\"pip\": [\"canasta[ray]\"]}'")
    return value


def add_worker_options(p: argparse.ArgumentParser, ray_work: str) -> None:
    """Add ``--jobs``, ``--backend``, ``--address`` and ``--runtime-env``; ``ray_work`` says how
    the work goes to Ray (for the help)."""
    p.add_argument("--jobs", type=count, metavar="K",
                   help="workers at once (0 for one per CPU; default 1, or with --backend ray "
                        "one per CPU of the cluster)")
    p.add_argument("--backend", choices=BACKENDS, default="multiprocessing",
                   help="where the workers run: processes on this machine (default) or a Ray "
                        f"cluster ({ray_work})")
    p.add_argument("--address", metavar="ADDR", default=os.environ.get("RAY_ADDRESS"),
                   help="with --backend ray: the cluster to join (host:port, or auto for the "
                        "one started here with 'ray start'; default $RAY_ADDRESS, else a "
                        "local Ray instance)")
    p.add_argument("--runtime-env", type=runtime_env, metavar="JSON",
                   help="with --backend ray: Ray's runtime environment for the workers, as "
                        "JSON (e.g. '{\"py_modules\": [\"/path/to/canasta\"]}' ships this "
                        "canasta to nodes that lack it; see docs/scale.md)")


def local_jobs(args: argparse.Namespace) -> int:
    """Worker processes on this machine: ``--jobs``, 0 meaning one per CPU, 1 by default."""
    return 1 if args.jobs is None else args.jobs or os.cpu_count() or 1


def check_backend(args: argparse.Namespace) -> None:
    """:class:`BadArgument` when ``--backend ray`` is asked for without Ray installed."""
    if args.backend == "ray":
        from canasta.interfaces.ray_backend import import_ray

        try:
            import_ray()
        except CanastaError as e:
            raise BadArgument(f"--backend: {e}") from None


def check_bots(specs: list[str], family: Any = None) -> None:
    """:class:`BadArgument` for a spec that makes no bot of ``family`` (a family, or its
    rules; the first family by default, see :func:`canasta.bots.bot_table`)."""
    from canasta.bots import make_bot

    for spec in specs:
        try:
            make_bot(spec, family)
        except CanastaError as e:
            raise BadArgument(f"--bots: {e}") from None
        except Exception as e:  # a bot whose constructor fails
            raise BadArgument(f"--bots: cannot make bot {spec!r}: {e}") from None


def processes(n: int) -> str:
    """``1 process``, ``2 processes``."""
    return f"{n} process{'es' if n > 1 else ''}"
