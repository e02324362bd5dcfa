"""Games count their takebacks: a process's kept game is of the game's line only at the same
count (a takeback lowers the ply, and later moves bring it back along another line).

Revision ID: 0017
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("takebacks", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("takebacks")
