"""Quick pairing's seeks, follows between members and their presence.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seeks",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("control", sa.String(length=16), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("alive", sa.DateTime(), nullable=False),
        sa.Column("claim", sa.String(length=16), nullable=True),
        sa.Column("game_id", sa.Integer(), nullable=True),
    )
    op.create_index("ix_seeks_user_id", "seeks", ["user_id"])
    op.create_index("ix_seeks_alive", "seeks", ["alive"])
    op.create_index("ix_seeks_bucket", "seeks", ["game", "players", "control", "rated"])
    op.create_table(
        "follows",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "followed_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "followed_id"),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "presence",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seen", sa.DateTime(), nullable=True),
        sa.Column("hidden", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_presence_seen", "presence", ["seen"])


def downgrade() -> None:
    op.drop_table("presence")
    op.drop_table("follows")
    op.drop_table("seeks")
