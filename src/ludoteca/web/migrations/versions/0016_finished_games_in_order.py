"""The games of one status in the order they finished: the lobby's last finished games.

The lobby lists the ten games finished last. SQLite answered ``status = 'finished' ORDER
BY finished DESC LIMIT 10`` through the index on ``status`` alone and sorted every finished
game: 470 ms on a club with a million of them (``bench/first_visits.py``), against 8 ms
through an index on both columns, read in order.

Revision ID: 0016
Revises: 0011
"""

from alembic import op

revision = "0016"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_games_status_finished", "games", ["status", "finished"])


def downgrade() -> None:
    op.drop_index("ix_games_status_finished", table_name="games")
