"""``canasta serve``: the web table on http://127.0.0.1:8000 (uvicorn).

fastapi and uvicorn (the ``web`` extra) are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from canasta.interfaces.web.settings import Settings, default_database_url


def _number(text: str, kind: type[int] | type[float]) -> float:
    try:
        return kind(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None


def _port(text: str) -> int:
    value = int(_number(text, int))
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port")
    return value


def _non_negative(text: str) -> float:
    value = _number(text, float)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a non-negative number")
    return value


def _positive_int(text: str) -> int:
    value = int(_number(text, int))
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a whole number from 1")
    return value


def add_command(subparsers: Any) -> None:
    """Add ``serve`` to the ``canasta`` command's subcommands."""
    defaults = Settings(database_url="")
    p = subparsers.add_parser(
        "serve", help="start the web table (browser play, HTTP and WebSocket API)",
        description="Serve the web table: the page at /, the API under /api (documented at "
                    "/docs), WebSockets at /ws/tables/{id}. Tables survive restarts: every "
                    "action is stored in the database before anyone is told.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: "
                   "127.0.0.1)")
    p.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    p.add_argument("--database", metavar="URL", default=None,
                   help="SQLAlchemy URL: sqlite:///path/file.sqlite3 or "
                        "postgresql://user:password@host/db (default: $CANASTA_DATABASE_URL, "
                        f"else {default_database_url()})")
    p.add_argument("--durability", choices=["normal", "full"], default=defaults.durability,
                   help="SQLite: 'normal' (write-ahead log) keeps every stored action through "
                        "a server crash or kill; 'full' syncs each action to the disk before "
                        "answering, so it survives a power cut too, at the cost of one disk "
                        "sync per action (see API.md). PostgreSQL syncs every commit anyway "
                        f"(default: {defaults.durability})")
    p.add_argument("--bot-delay", type=_non_negative, default=defaults.bot_delay, metavar="S",
                   help=f"seconds a bot waits before acting (default: {defaults.bot_delay})")
    p.add_argument("--bot-workers", type=int, default=defaults.bot_workers, metavar="N",
                   help="processes for bots; 0 runs them in threads (default: "
                        f"{defaults.bot_workers})")
    p.add_argument("--idle-seconds", type=_non_negative, default=defaults.idle_seconds,
                   metavar="S", help="after this long without a connection a seat may be handed "
                   f"to a bot by another player (default: {defaults.idle_seconds:g})")
    limits = p.add_argument_group("limits", "what clients may ask of the server")
    limits.add_argument("--max-tables", type=_positive_int, default=defaults.max_tables,
                        metavar="N", help="tables held in memory at once; past it a new table "
                        f"gets 503 (default: {defaults.max_tables})")
    limits.add_argument("--tables-per-minute", type=_non_negative,
                        default=defaults.tables_per_minute, metavar="N",
                        help="new tables one client address may create a minute, 0 for no "
                        f"limit (default: {defaults.tables_per_minute:g})")
    limits.add_argument("--hints-per-minute", type=_non_negative,
                        default=defaults.hints_per_minute, metavar="N",
                        help="hints one seat may ask for a minute, 0 for no limit (default: "
                        f"{defaults.hints_per_minute:g})")
    limits.add_argument("--table-idle-seconds", type=_non_negative,
                        default=defaults.table_idle_seconds, metavar="S",
                        help="a table nobody connects to or asks about for this long is put "
                        "away (its bots stop) until someone asks for it again (default: "
                        f"{defaults.table_idle_seconds:g})")
    limits.add_argument("--finished-table-seconds", type=_non_negative,
                        default=defaults.finished_table_seconds, metavar="S",
                        help="a finished table leaves memory this long after it was last "
                        "looked at; its record stays readable (default: "
                        f"{defaults.finished_table_seconds:g})")
    p.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                   help="a site (https://example.org) whose pages may open WebSockets here; "
                        "repeat for more. Pages this server serves always may (default: none "
                        "else)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.add_argument("--access-log", action="store_true",
                   help="log every request (off by default; tokens in URLs are blotted out "
                        "of every log line)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted."""
    try:
        import uvicorn

        from canasta.interfaces.web.app import create_app
        from canasta.interfaces.web.logs import log_config
    except ImportError as e:
        sys.stderr.write(f"invalid setup: canasta serve needs the web extra "
                         f"(pip install 'canasta[web]'): {e}\n")
        return 2
    settings = Settings(database_url=args.database or default_database_url(),
                        bot_delay=args.bot_delay, bot_workers=max(0, args.bot_workers),
                        idle_seconds=args.idle_seconds,
                        allowed_origins=tuple(args.allow_origin),
                        max_tables=args.max_tables, tables_per_minute=args.tables_per_minute,
                        hints_per_minute=args.hints_per_minute,
                        table_idle_seconds=args.table_idle_seconds,
                        finished_table_seconds=args.finished_table_seconds,
                        durability=args.durability)
    app = create_app(settings)
    # The event loop shares the interpreter with the database threads: hand the GIL over
    # sooner than the default 5 ms, so that a person's action does not wait on it.
    sys.setswitchinterval(0.001)
    # Built before the server so that its logging (configured by uvicorn.Config) is the one
    # that blots out tokens.
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level=args.log_level,
                            log_config=log_config(args.log_level), access_log=args.access_log,
                            ws_max_size=65536, lifespan="on")
    uvicorn.Server(config).run()
    return 0
