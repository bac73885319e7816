"""Every family plays at the tables of the lobby: the Modern American games of the one-person
page become tables (their seat 0 a person with the same token, the others medium bots), and
their own table goes.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)

SEAT_PREFIX = re.compile(r"^\s*p(\d+)\s*:\s*(.*)$", re.DOTALL)
BOT = "medium"
"""The level of the bots the one-person page seated (its heuristic bot)."""

games = sa.table("canasta_modern_games", sa.column("id", sa.String), sa.column("token_hash",
                 sa.String), sa.column("record", sa.Text), sa.column("updated_at", sa.DateTime))
tables = sa.table("canasta_tables", sa.column("id", sa.String), sa.column("rules", sa.Text),
                  sa.column("players", sa.Text), sa.column("seed", sa.BigInteger),
                  sa.column("auto_next", sa.Boolean), sa.column("status", sa.String),
                  sa.column("created_at", sa.DateTime), sa.column("updated_at", sa.DateTime))
seats = sa.table("canasta_seats", sa.column("table_id", sa.String), sa.column("seat", sa.Integer),
                 sa.column("name", sa.String), sa.column("controller", sa.String),
                 sa.column("bot", sa.String), sa.column("token_hash", sa.String))
hands = sa.table("canasta_hands", sa.column("table_id", sa.String), sa.column("number",
                 sa.Integer), sa.column("dealer", sa.Integer), sa.column("deck", sa.Text))
actions = sa.table("canasta_actions", sa.column("table_id", sa.String), sa.column("hand",
                   sa.Integer), sa.column("idx", sa.Integer), sa.column("seat", sa.Integer),
                   sa.column("action", sa.String), sa.column("created_at", sa.DateTime))


def game_status(record: dict[str, Any], players: list[str],
                hand_rows: list[tuple[int, list[str], list[tuple[int, str]]]]) -> str:
    """``over`` if the record's game has ended, else ``playing`` (a record that does not
    replay stays ``playing``: the server reports it when it is asked for)."""
    try:
        from canasta.interfaces.web.games import resume
        from canasta.interfaces.web.storage import HandRow

        game = resume(record["rules"], players,
                      [HandRow(n, dealer, tuple(deck), acts)
                       for n, (dealer, deck, acts) in enumerate(hand_rows, 1)])
    except Exception as e:  # a damaged record: moved as it is
        log.warning("a Modern American game does not replay: %s", e)
        return "playing"
    return "over" if game.is_over else "playing"


def upgrade() -> None:
    """Move each game of ``canasta_modern_games`` to the tables, then drop it."""
    conn = op.get_bind()
    taken = {row[0] for row in conn.execute(sa.select(tables.c.id))}
    for game_id, token_hash, text, updated in conn.execute(
            sa.select(games.c.id, games.c.token_hash, games.c.record, games.c.updated_at)):
        if game_id in taken:
            log.warning("Modern American game %s: a table has its id; not moved", game_id)
            continue
        record = json.loads(text)
        players = ["Player 1", *[f"bot:{BOT}"] * 3]
        hand_rows = []
        for hand in record["hands"]:
            moves = []
            for line in hand["actions"]:
                m = SEAT_PREFIX.match(line)
                if m is None:
                    raise ValueError(f"game {game_id}: an action without its seat: {line!r}")
                moves.append((int(m.group(1)), m.group(2).strip()))
            hand_rows.append((hand["dealer"], list(hand["deck"]), moves))
        conn.execute(tables.insert().values(
            id=game_id, rules=json.dumps(record["rules"]), players=json.dumps(players),
            seed=int(record["seed"]), auto_next=None,
            status=game_status(record, players, hand_rows), created_at=updated,
            updated_at=updated))
        conn.execute(seats.insert(), [
            {"table_id": game_id, "seat": 0, "name": players[0], "controller": "human",
             "bot": None, "token_hash": token_hash},
            *({"table_id": game_id, "seat": s, "name": players[s], "controller": "bot",
               "bot": BOT, "token_hash": None} for s in (1, 2, 3))])
        for number, (dealer, deck, moves) in enumerate(hand_rows, 1):
            conn.execute(hands.insert().values(table_id=game_id, number=number, dealer=dealer,
                                               deck=" ".join(deck)))
            if moves:
                conn.execute(actions.insert(), [
                    {"table_id": game_id, "hand": number, "idx": i, "seat": seat,
                     "action": action, "created_at": updated}
                    for i, (seat, action) in enumerate(moves)])
    op.drop_table("canasta_modern_games")


def downgrade() -> None:
    """Bring back the (empty) table of Modern American games; the games stay tables."""
    op.create_table(
        "canasta_modern_games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
