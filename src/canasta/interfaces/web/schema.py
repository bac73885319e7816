"""The database schema (SQLAlchemy Core). Migrations in ``migrations/versions`` create it.

A table's rules, seats, seed and decks and its list of actions are stored; the game record is
the source of truth and the state of play is rebuilt from it by replay:

- ``canasta_tables``: one row per table: ``id``, ``rules`` (JSON: a preset name or object),
  ``players`` (JSON array of names), ``seed`` (the secret seed of the shuffles), ``auto_next``
  (deal the next hand without a request: ``null`` means "when no human holds a seat"),
  ``status`` (``playing`` or ``over``), ``created_at``, ``updated_at`` (the last deal or
  change of status), ``rematch`` (the table of the same seats that follows a finished game);
- ``canasta_seats``: per table and seat: ``name``, ``controller`` (``human`` or ``bot``),
  ``bot`` (the bot spec while a bot plays the seat), ``token_hash`` (SHA-256 of the seat's
  token; tokens themselves are never stored);
- ``canasta_hands``: per table and hand number (from 1): ``dealer`` and ``deck`` (the pack
  before the deal, first card on top, as space-separated canonical cards);
- ``canasta_actions``: per table, hand and index (from 0): the ``seat`` that acted and the
  canonical ``action`` text. The primary key makes a second writer at the same index fail;
- ``canasta_chat``: per table and index (from 0): what a seat's player said.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

metadata = MetaData()

tables = Table(
    "canasta_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("auto_next", Boolean, nullable=True),
    Column("status", String(16), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Column("rematch", String(32), nullable=True),
    Index("ix_canasta_tables_status", "status"),
)

seats = Table(
    "canasta_seats", metadata,
    Column("table_id", String(32), ForeignKey("canasta_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("controller", String(8), nullable=False),
    Column("bot", String(200), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

hands = Table(
    "canasta_hands", metadata,
    Column("table_id", String(32), ForeignKey("canasta_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("dealer", Integer, nullable=False),
    Column("deck", Text, nullable=False),
)

actions = Table(
    "canasta_actions", metadata,
    Column("table_id", String(32), ForeignKey("canasta_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("hand", Integer, primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", String(300), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

chat = Table(
    "canasta_chat", metadata,
    Column("table_id", String(32), ForeignKey("canasta_tables.id", ondelete="CASCADE"),
           primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", String(200), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""What the people at a table said, in order (``idx`` from 0): the seat and the text."""
