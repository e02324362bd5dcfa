"""Mail and accounts: an e-mail address is used only once confirmed; unsubscribe links
name the subscription they end (``mail_epoch``); a turn e-mail names its notification
(``note_id``), so that one seen on the club's pages is not sent; each name's look-alike
skeleton, so that ``aIice`` cannot join beside ``alice``.

Addresses given before this revision were never confirmed, so they count as unconfirmed:
their owners confirm them from the settings page before any more e-mail goes to them.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("notification_prefs") as batch:
        batch.add_column(
            sa.Column("email_confirmed", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("mail_epoch", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("mail_outbox") as batch:
        batch.add_column(sa.Column("note_id", sa.Integer(), nullable=True))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(64), nullable=True))
    op.create_index("ix_users_name_skeleton", "users", ["name_skeleton"])
    from ludoteca.web.accounts.names import skeleton

    users = sa.table(
        "users",
        sa.column("id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("name_skeleton"),
    )
    conn = op.get_bind()
    for ident, name in conn.execute(sa.select(users.c.id, users.c.name)).all():
        conn.execute(users.update().where(users.c.id == ident).values(name_skeleton=skeleton(name)))


def downgrade() -> None:
    op.drop_index("ix_users_name_skeleton", table_name="users")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("name_skeleton")
    with op.batch_alter_table("mail_outbox") as batch:
        batch.drop_column("note_id")
    with op.batch_alter_table("notification_prefs") as batch:
        batch.drop_column("mail_epoch")
        batch.drop_column("email_confirmed")
