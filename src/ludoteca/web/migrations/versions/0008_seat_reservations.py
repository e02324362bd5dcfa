"""An index on the seats reserved for a member: the lobby looks up the private games waiting
for each member at every visit, which otherwise read every seat without a player (every
computer's seat among them).

Revision ID: 0008
Revises: 0007
"""

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_seats_reserved_for", "seats", ["reserved_for"])


def downgrade() -> None:
    op.drop_index("ix_seats_reserved_for", table_name="seats")
