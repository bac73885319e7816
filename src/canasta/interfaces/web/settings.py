"""What the server is started with, and where its database lives by default."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

STATIC_DIR = Path(__file__).with_name("static")
"""The page the server serves at ``/`` (``index.html`` and its assets)."""


def data_dir() -> Path:
    """The user's data folder for canasta (``$XDG_DATA_HOME/canasta``, else
    ``~/.local/share/canasta``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "canasta"


def default_database_url() -> str:
    """``$CANASTA_DATABASE_URL``, else a SQLite file in :func:`data_dir`."""
    url = os.environ.get("CANASTA_DATABASE_URL")
    if url:
        return url
    return f"sqlite:///{data_dir() / 'canasta.sqlite3'}"


def default_bot_workers() -> int:
    """One bot process per processor, from 2 (one left for quick decisions) to 8."""
    return max(2, min(8, os.cpu_count() or 2))


@dataclass(frozen=True)
class Settings:
    """Server settings; every field has a sensible default for ``canasta serve``."""

    database_url: str = field(default_factory=default_database_url)
    """A SQLAlchemy URL: ``sqlite:///path`` or ``postgresql://user:pw@host/db``."""
    durability: Literal["normal", "full"] = "normal"
    """SQLite only: ``normal`` survives the server being killed, ``full`` (one disk sync per
    action) a power cut too (see :data:`~canasta.interfaces.web.storage.DURABILITY`)."""
    bot_delay: float = 0.6
    """Seconds a bot waits before each of its actions, so that people can follow the play."""
    bot_workers: int = field(default_factory=default_bot_workers)
    """Processes that run bots, one decision each at a time (see :mod:`.bot_runner`):
    searching bots may hold all of them but one, which is left for quick decisions and hints.
    0 runs bots in threads of the server process (for tests)."""
    bot_concurrency: int = 4
    """Bots' actions being stored at once, over all tables (keeps the database queue short
    for people's actions)."""
    bot_timeout: float = 30.0
    """Seconds a bot may think, counted from when its decision starts in a worker; after that
    the decision is ended (alone) and a random legal action stands in."""
    default_bot: str = ""
    """The bot for a ``"bot"`` seat without a spec, and for a seat handed to a bot, where the
    table's family has it; empty (or a bot the family lacks): the family's ``medium`` level."""
    hint_bot: str = ""
    """The bot whose choice (and explanation) the hint endpoint gives, where the table's family
    has it; empty (or a bot the family lacks): the family's hint level (its strongest bot that
    answers within about a second)."""
    idle_seconds: float = 60.0
    """A human seat with no connection and no request for this long may be handed to a bot by
    another player at the table."""
    static_dir: Path = STATIC_DIR
    """Where the page lives."""
    max_spectators_per_table: int = 64
    """Spectators' WebSocket connections per table."""
    max_connections_per_seat: int = 8
    """WebSocket connections per seat (a player's tabs and devices); spectators never use
    these up."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (``https://example.org``) of pages elsewhere that may open WebSockets here;
    pages this server serves always may, and so may clients that are no browser."""
    hello_seconds: float = 10.0
    """How long a new WebSocket connection has to send its hello."""
    max_tables: int = 500
    """Tables the server holds in memory at once (games on, and finished ones still looked
    at); past it, a new table (or one brought back from the database) gets 503
    ``server_full``."""
    tables_per_minute: float = 20.0
    """New tables one client (IP address) may create a minute, as many at once; past it, 429
    with ``Retry-After``. 0: no limit."""
    table_idle_seconds: float = 1800.0
    """A table in play that nobody has connected to or asked about for this long is put away:
    its bots stop and it leaves memory; the next request for it brings it back."""
    finished_table_seconds: float = 60.0
    """A finished table leaves memory this long after it was last looked at (its record stays
    in the database, readable)."""
    chat_per_minute: float = 12.0
    """Lines one seat may say at its table a minute (as many at once), then 429 with
    ``Retry-After``. 0: no limit."""
    hints_per_minute: float = 10.0
    """Hints one seat may ask for a minute, as many at once; past it, 429 with
    ``Retry-After``. 0: no limit. A hint asked again for the same position is not counted."""
    max_bot_seconds: float = 10.0
    """The longest time budget a table's bot may ask for (e.g. ``ismcts:seconds=``)."""
    max_bot_iterations: int = 20000
    """The most search iterations a table's bot may ask for (e.g. ``ismcts:iterations=``)."""
