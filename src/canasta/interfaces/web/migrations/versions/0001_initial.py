"""The first schema: tables, seats, hands and actions.

Revision ID: 0001
Revises:
Create Date: 2025-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the four tables."""
    op.create_table(
        "canasta_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("auto_next", sa.Boolean, nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_canasta_tables_status", "canasta_tables", ["status"])
    op.create_table(
        "canasta_seats",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("canasta_tables.id",
                  ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("controller", sa.String(8), nullable=False),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "canasta_hands",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("canasta_tables.id",
                  ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("dealer", sa.Integer, nullable=False),
        sa.Column("deck", sa.Text, nullable=False),
    )
    op.create_table(
        "canasta_actions",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("canasta_tables.id",
                  ondelete="CASCADE"), primary_key=True),
        sa.Column("hand", sa.Integer, primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.String(300), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    """Drop the four tables."""
    op.drop_table("canasta_actions")
    op.drop_table("canasta_hands")
    op.drop_table("canasta_seats")
    op.drop_index("ix_canasta_tables_status", table_name="canasta_tables")
    op.drop_table("canasta_tables")
