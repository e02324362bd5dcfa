"""Club, part 2: rated and private games, clocks, ratings with their history, and the log of
login attempts that rate-limits guessing.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ADD COLUMN, never a batch rebuild: on SQLite a rebuild drops the table, and with
    # foreign keys on that would cascade to every game's moves.
    false = sa.false()
    op.add_column("games", sa.Column("rated", sa.Boolean(), nullable=False, server_default=false))
    op.add_column("games", sa.Column("private", sa.Boolean(), nullable=False, server_default=false))
    op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("turn_started", sa.DateTime(), nullable=True))
    op.add_column("games", sa.Column("deadline", sa.DateTime(), nullable=True))
    op.create_index("ix_games_deadline", "games", ["deadline"])
    op.add_column("seats", sa.Column("clock_ms", sa.BigInteger(), nullable=True))
    op.add_column(
        "seats", sa.Column("timed_out", sa.Boolean(), nullable=False, server_default=false)
    )
    op.create_table(
        "ratings",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("pool", sa.String(32), primary_key=True),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("volatility", sa.Float(), nullable=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("losses", sa.Integer(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_ratings_pool_rating", "ratings", ["pool", "rating"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("pool", sa.String(32), nullable=False),
        sa.Column(
            "game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("deviation", sa.Float(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_rating_history_user_pool", "rating_history", ["user_id", "pool"])
    op.create_table(
        "login_attempts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(96), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_login_attempts_key_created", "login_attempts", ["key", "created"])


def downgrade() -> None:
    op.drop_table("login_attempts")
    op.drop_table("rating_history")
    op.drop_table("ratings")
    op.drop_index("ix_games_deadline", "games")
    for table, columns in (
        ("seats", ("timed_out", "clock_ms")),
        ("games", ("deadline", "turn_started", "clock", "private", "rated")),
    ):
        for column in columns:
            op.drop_column(table, column)
