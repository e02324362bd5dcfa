"""Offers during a game (abort, draw, takeback), each step kept as an event, and members'
vacations from their correspondence clocks.

Revision ID: 0013
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "offer_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("ply", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("action", sa.String(length=12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("undone", sa.JSON(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_offer_events_game_id", "offer_events", ["game_id"])
    op.create_table(
        "vacations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("starts", sa.DateTime(), nullable=False),
        sa.Column("ends", sa.DateTime(), nullable=False),
        sa.Column("days", sa.Integer(), nullable=False),
    )
    op.create_index("ix_vacations_user_id", "vacations", ["user_id"])
    op.create_index("ix_vacations_ends", "vacations", ["ends"])


def downgrade() -> None:
    op.drop_table("vacations")
    op.drop_table("offer_events")
