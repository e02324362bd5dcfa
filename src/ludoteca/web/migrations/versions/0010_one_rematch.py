"""One game per rematch, and one rematch offer waiting per finished game.

``games.rematch_of`` names the finished game a game is the rematch of, unique: two presses
of *Rematch* at once, in one process or two, cannot make two games. The partial unique
index on the pending challenges' ``rematch_of`` keeps both players' offers from crossing:
the second offer finds the first and accepts it.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

PENDING = sa.text("status = 'pending'")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
    op.create_index("ux_games_rematch_of", "games", ["rematch_of"], unique=True)
    op.create_index(
        "ux_challenges_pending_rematch",
        "challenges",
        ["rematch_of"],
        unique=True,
        sqlite_where=PENDING,
        postgresql_where=PENDING,
    )


def downgrade() -> None:
    op.drop_index("ux_challenges_pending_rematch", table_name="challenges")
    op.drop_index("ux_games_rematch_of", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rematch_of")
