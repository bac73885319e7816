"""What the people at a table say, and the table of a rematch.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``canasta_chat`` and ``canasta_tables.rematch``."""
    op.create_table(
        "canasta_chat",
        sa.Column("table_id", sa.String(32),
                  sa.ForeignKey("canasta_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    with op.batch_alter_table("canasta_tables") as batch:
        batch.add_column(sa.Column("rematch", sa.String(32), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("canasta_tables") as batch:
        batch.drop_column("rematch")
    op.drop_table("canasta_chat")
