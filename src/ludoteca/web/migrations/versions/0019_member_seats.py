"""A member's seats with their games: the profile's pass over a member's games.

A profile counts a member's finished games and sorts them for its pager; SQLite found the
member's seats through the index on ``user_id`` and then read each seat's row for its game
(4,000 rows for a member with 4,000 games). An index on the member, the game and the seat
holds all of it: the profile of such a member on a club with a million games took 95 ms, and
76 ms with it (``bench/first_visits.py``).

Revision ID: 0019
Revises: 0016
"""

from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_seats_user_game", "seats", ["user_id", "game_id", "index"])


def downgrade() -> None:
    op.drop_index("ix_seats_user_game", table_name="seats")
