"""``canasta serve``: the web table on http://127.0.0.1:8000 (uvicorn).

fastapi and uvicorn (the ``web`` extra) are imported only when the command runs.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from canasta.interfaces.web.settings import Settings, default_database_url


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port")
    return value


def _non_negative(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text} is not a non-negative number")
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
    p.add_argument("--bot-delay", type=_non_negative, default=defaults.bot_delay, metavar="S",
                   help=f"seconds a bot waits before acting (default: {defaults.bot_delay})")
    p.add_argument("--bot-workers", type=int, default=defaults.bot_workers, metavar="N",
                   help="processes for bots; 0 runs them in threads (default: "
                        f"{defaults.bot_workers})")
    p.add_argument("--idle-seconds", type=_non_negative, default=defaults.idle_seconds,
                   metavar="S", help="after this long without a connection a seat may be handed "
                   f"to a bot by another player (default: {defaults.idle_seconds:g})")
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
                        allowed_origins=tuple(args.allow_origin))
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
