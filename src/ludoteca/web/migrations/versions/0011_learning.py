"""Each member's progress through each game's course (``/learn``), and the puzzles'
Glicko-2 ratings, the members' puzzle ratings and streaks, their first tries, and the
entries in the daily Hexagone solo challenge.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lesson_progress",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("steps_done", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "game"),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_id", sa.String(length=16), primary_key=True),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
    )
    op.create_table(
        "puzzle_players",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=False),
        sa.Column("plays", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("best_streak", sa.Integer(), nullable=False),
    )
    op.create_table(
        "puzzle_attempts",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("puzzle_id", sa.String(length=16), nullable=False),
        sa.Column("solved", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "puzzle_id"),
    )

    op.create_table(
        "solo_entries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("day", sa.String(length=10), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("moves", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("day", "user_id", name="ux_solo_entries_day_user"),
    )
    op.create_index("ix_solo_entries_day", "solo_entries", ["day"])


def downgrade() -> None:
    op.drop_index("ix_solo_entries_day", table_name="solo_entries")
    op.drop_table("solo_entries")
    op.drop_table("puzzle_attempts")
    op.drop_table("puzzle_players")
    op.drop_table("puzzle_ratings")
    op.drop_table("lesson_progress")
