"""A member's choice of e-mail about the tournaments they play in (start, a correspondence
pairing, end): on unless turned off, as the other kinds are.

Revision ID: 0018
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notification_prefs") as batch:
        batch.add_column(
            sa.Column("email_tournaments", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("notification_prefs") as batch:
        batch.drop_column("email_tournaments")
