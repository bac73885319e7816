"""The database: tables, seats, decks and actions, written before anyone is told.

:class:`Storage` is synchronous (SQLAlchemy Core) and runs the alembic migrations shipped in
``migrations/`` at start-up; :class:`Database` runs it in a thread pool so that the event loop
never waits on the disk or the network. SQLite files use write-ahead logging with
``synchronous=NORMAL`` by default: a committed action survives the server being killed
(``kill -9``), not the machine losing power; ``--durability full`` (``synchronous=FULL``)
survives that too (see :data:`DURABILITY`).
PostgreSQL URLs (``postgresql://...``) use the psycopg driver.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, case, create_engine, event, func, select, update
from sqlalchemy.engine import make_url

from canasta.interfaces.web import schema

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).with_name("migrations")

PLAYING = "playing"
"""A stored table whose game is on; the server holds it in memory and its bots play."""
IDLE = "idle"
"""A game that is on, put away because nobody came to the table for a while: its bots wait,
and the first request for the table brings it back (as ``playing``)."""
OVER = "over"
"""A finished game (its record stays readable)."""

T = TypeVar("T")


@dataclass(frozen=True)
class SeatRow:
    """A seat as stored."""

    seat: int
    name: str
    controller: str
    """``human`` or ``bot``."""
    bot: str | None = None
    """The bot spec while a bot plays the seat."""
    token_hash: str | None = None
    """SHA-256 (hex) of the seat's token: human seats, and seats handed from a human to a bot."""


@dataclass(frozen=True)
class HandRow:
    """A hand as stored: dealer, pack order (canonical card names) and the actions so far."""

    number: int
    dealer: int
    deck: tuple[str, ...]
    actions: list[tuple[int, str]] = field(default_factory=list)
    """``(seat, action)`` in order."""


@dataclass(frozen=True)
class ChatRow:
    """A line of a table's chat as stored."""

    idx: int
    seat: int
    text: str


CHAT_KEPT = 50
"""The chat lines a table brings back from the database (the latest)."""


@dataclass(frozen=True)
class TableRow:
    """A table as stored."""

    id: str
    rules: Any
    """The rules as JSON (a preset name or object)."""
    players: tuple[str, ...]
    seed: int
    auto_next: bool | None
    status: str
    seats: tuple[SeatRow, ...]
    hands: tuple[HandRow, ...]
    chat: tuple[ChatRow, ...] = ()
    """The latest lines of the table's chat (at most :data:`CHAT_KEPT`), in order."""
    rematch: str | None = None
    """The table of the rematch, once one was asked for."""


@dataclass(frozen=True)
class TableSummary:
    """A line of the table list."""

    id: str
    rules: Any
    players: tuple[str, ...]
    status: str
    hands: int
    created_at: datetime


def engine_url(url: str) -> str:
    """The SQLAlchemy URL for a database URL: ``postgresql://`` and ``postgres://`` get the
    psycopg (3) driver; anything else is used as given."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def _now() -> datetime:
    return datetime.now(UTC)


DURABILITY = {"normal": "NORMAL", "full": "FULL"}
"""SQLite's ``synchronous`` setting for each ``--durability``. ``normal`` (write-ahead log,
synced at checkpoints): a committed action survives the server being killed, not the machine
losing power (the last commits may be lost then, never the file). ``full``: every commit is
synced to the disk before anyone is told, so it survives a power cut too, at the cost of one
disk sync per action (``benchmarks/sqlite_durability.py`` measures it)."""


def _sqlite_pragmas(synchronous: str) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()
    return on_connect


def create_db_engine(url: str, durability: str = "normal") -> Engine:
    """An engine for ``url``. A new SQLite file is created readable by its owner only (it
    holds the tables' secret seeds), in a folder created if missing; ``durability`` (see
    :data:`DURABILITY`) applies to SQLite (PostgreSQL syncs every commit by its own
    default)."""
    sa_url = make_url(engine_url(url))
    if sa_url.get_backend_name() == "sqlite":
        database = sa_url.database
        if database and database != ":memory:" and not database.startswith("file:"):
            path = Path(database).expanduser()
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.exists():
                os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        engine = create_engine(sa_url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(DURABILITY[durability]))
        return engine
    return create_engine(sa_url, pool_pre_ping=True)


class Storage:
    """Synchronous access to the database (one instance per server)."""

    def __init__(self, url: str, durability: str = "normal") -> None:
        self.url = url
        self.engine = create_db_engine(url, durability)
        self._insert_action = schema.actions.insert()

    @property
    def is_sqlite(self) -> bool:
        """True for a SQLite database (one writer at a time)."""
        return self.engine.dialect.name == "sqlite"

    def migrate(self) -> None:
        """Bring the schema up to date (alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # -- writing -------------------------------------------------------------------------------

    def create_table(self, row: TableRow) -> None:
        """Store a new table with its seats and its first hand, in one transaction."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(schema.tables.insert().values(
                id=row.id, rules=json.dumps(row.rules), players=json.dumps(list(row.players)),
                seed=row.seed, auto_next=row.auto_next, status=row.status, created_at=now,
                updated_at=now))
            conn.execute(schema.seats.insert(), [
                {"table_id": row.id, "seat": s.seat, "name": s.name, "controller": s.controller,
                 "bot": s.bot, "token_hash": s.token_hash} for s in row.seats])
            for hand in row.hands:
                self._insert_hand(conn, row.id, hand)

    @staticmethod
    def _insert_hand(conn: Any, table_id: str, hand: HandRow) -> None:
        conn.execute(schema.hands.insert().values(
            table_id=table_id, number=hand.number, dealer=hand.dealer, deck=" ".join(hand.deck)))
        if hand.actions:
            now = _now()
            conn.execute(schema.actions.insert(), [
                {"table_id": table_id, "hand": hand.number, "idx": i, "seat": seat,
                 "action": text, "created_at": now}
                for i, (seat, text) in enumerate(hand.actions)])

    def append_action(self, table_id: str, hand: int, index: int, seat: int, action: str,
                      status: str | None = None) -> None:
        """Store one accepted action (and the table's new status, if it changed)."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(self._insert_action, {
                "table_id": table_id, "hand": hand, "idx": index, "seat": seat,
                "action": action, "created_at": now})
            if status is not None:
                conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                             .values(status=status, updated_at=now))

    def add_hand(self, table_id: str, hand: HandRow) -> None:
        """Store a newly dealt hand."""
        with self.engine.begin() as conn:
            self._insert_hand(conn, table_id, hand)
            conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                         .values(updated_at=_now()))

    def add_chat(self, table_id: str, line: ChatRow) -> None:
        """Store a line of a table's chat."""
        with self.engine.begin() as conn:
            conn.execute(schema.chat.insert().values(
                table_id=table_id, idx=line.idx, seat=line.seat, text=line.text,
                created_at=_now()))

    def set_rematch(self, table_id: str, rematch: str) -> None:
        """Store the table of a finished table's rematch."""
        with self.engine.begin() as conn:
            conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                         .values(rematch=rematch))

    def set_status(self, table_id: str, status: str) -> None:
        """Change a table's stored status (:data:`PLAYING`, :data:`IDLE`, :data:`OVER`)."""
        with self.engine.begin() as conn:
            conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                         .values(status=status, updated_at=_now()))

    def put_away_all_but(self, keep: list[str]) -> int:
        """Mark every table in play except ``keep`` :data:`IDLE`; returns how many."""
        t = schema.tables
        with self.engine.begin() as conn:
            result = conn.execute(update(t).where(t.c.status == PLAYING, t.c.id.not_in(keep))
                                  .values(status=IDLE, updated_at=_now()))
            return int(result.rowcount)

    def update_seat(self, table_id: str, seat: int, controller: str, bot: str | None) -> None:
        """Hand a seat to a bot (``controller="bot"``) or back to its human."""
        with self.engine.begin() as conn:
            conn.execute(update(schema.seats)
                         .where(schema.seats.c.table_id == table_id, schema.seats.c.seat == seat)
                         .values(controller=controller, bot=bot))

    # -- reading -------------------------------------------------------------------------------

    def load_table(self, table_id: str) -> TableRow | None:
        """A whole table, or ``None`` if there is no such table."""
        t, s, h, a = schema.tables, schema.seats, schema.hands, schema.actions
        with self.engine.connect() as conn:
            row = conn.execute(select(t).where(t.c.id == table_id)).mappings().first()
            if row is None:
                return None
            seat_rows = conn.execute(select(s).where(s.c.table_id == table_id)
                                     .order_by(s.c.seat)).mappings().all()
            hand_rows = conn.execute(select(h).where(h.c.table_id == table_id)
                                     .order_by(h.c.number)).mappings().all()
            action_rows = conn.execute(select(a.c.hand, a.c.idx, a.c.seat, a.c.action)
                                       .where(a.c.table_id == table_id)
                                       .order_by(a.c.hand, a.c.idx)).all()
            c = schema.chat
            chat_rows = conn.execute(select(c.c.idx, c.c.seat, c.c.text)
                                     .where(c.c.table_id == table_id)
                                     .order_by(c.c.idx.desc()).limit(CHAT_KEPT)).all()
        by_hand: dict[int, list[tuple[int, str]]] = {}
        for hand_no, idx, seat, text in action_rows:
            acts = by_hand.setdefault(hand_no, [])
            if idx != len(acts):
                raise ValueError(f"table {table_id}: hand {hand_no} lacks action {len(acts)}")
            acts.append((seat, text))
        return TableRow(
            id=row["id"], rules=json.loads(row["rules"]),
            players=tuple(json.loads(row["players"])), seed=int(row["seed"]),
            auto_next=row["auto_next"], status=row["status"],
            seats=tuple(SeatRow(r["seat"], r["name"], r["controller"], r["bot"],
                                r["token_hash"]) for r in seat_rows),
            hands=tuple(HandRow(r["number"], r["dealer"], tuple(r["deck"].split()),
                                by_hand.get(r["number"], [])) for r in hand_rows),
            chat=tuple(ChatRow(idx, seat, text) for idx, seat, text in reversed(chat_rows)),
            rematch=row["rematch"])

    def table_ids(self, status: str | None = None) -> list[str]:
        """Ids of every table (with that status), oldest first."""
        t = schema.tables
        query = select(t.c.id).order_by(t.c.created_at, t.c.id)
        if status is not None:
            query = query.where(t.c.status == status)
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def live_table_ids(self, since: datetime, limit: int) -> list[str]:
        """Tables in play whose last action, deal or change of status came at ``since`` or
        later: at most ``limit``, the most recently active first."""
        t, a = schema.tables, schema.actions
        last_action = (select(func.max(a.c.created_at)).where(a.c.table_id == t.c.id)
                       .correlate(t).scalar_subquery())
        last = case((last_action > t.c.updated_at, last_action), else_=t.c.updated_at)
        query = (select(t.c.id).where(t.c.status == PLAYING, last >= since)
                 .order_by(last.desc(), t.c.id).limit(limit))
        with self.engine.connect() as conn:
            return [r[0] for r in conn.execute(query)]

    def list_tables(self, limit: int = 50, status: str | None = None) -> list[TableSummary]:
        """The most recent tables, newest first."""
        t, h = schema.tables, schema.hands
        hands = (select(func.count()).where(h.c.table_id == t.c.id)
                 .correlate(t).scalar_subquery())
        query = (select(t.c.id, t.c.rules, t.c.players, t.c.status, t.c.created_at,
                        hands.label("hands"))
                 .order_by(t.c.created_at.desc(), t.c.id).limit(limit))
        if status is not None:
            query = query.where(t.c.status == status)
        with self.engine.connect() as conn:
            return [TableSummary(r.id, json.loads(r.rules), tuple(json.loads(r.players)),
                                 r.status, int(r.hands), r.created_at)
                    for r in conn.execute(query)]


class Database:
    """:class:`Storage` behind a thread pool: ``await db.call(Storage.method, args...)``.

    SQLite gets one writer thread (its writes are serial anyway); PostgreSQL a few.
    """

    def __init__(self, url: str, threads: int | None = None, durability: str = "normal") -> None:
        self.storage = Storage(url, durability)
        if threads is None:
            threads = 1 if self.storage.is_sqlite else 4
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="canasta-db")

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(storage, *args)`` in the database thread pool."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, fn, self.storage, *args)

    def close(self) -> None:
        """Stop the threads and close the connections."""
        self._executor.shutdown(wait=True)
        self.storage.close()
