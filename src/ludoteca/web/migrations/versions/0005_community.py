"""The community: notifications and their e-mail outbox, challenges, game chat with its
mutes and reports, and the tallies behind ``/stats`` (filled from the games already
finished, so an upgraded club's page counts its past too).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _user(name: str, nullable: bool = False, ondelete: str = "CASCADE") -> sa.Column:
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("users.id", ondelete=ondelete), nullable=nullable
    )


def _game(name: str, nullable: bool = False, ondelete: str = "CASCADE") -> sa.Column:
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("games.id", ondelete=ondelete), nullable=nullable
    )


def upgrade() -> None:
    false, true = sa.false(), sa.true()
    op.create_table(
        "notifications",
        sa.Column("id", sa.Integer(), primary_key=True),
        _user("user_id"),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("link", sa.String(200), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("read", sa.Boolean(), nullable=False, server_default=false),
    )
    op.create_index("ix_notifications_user_id", "notifications", ["user_id"])
    op.create_table(
        "notification_prefs",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_turns", sa.Boolean(), nullable=False, server_default=true),
        sa.Column("email_challenges", sa.Boolean(), nullable=False, server_default=true),
    )
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), primary_key=True),
        _user("user_id"),
        sa.Column("to", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("link", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("claimed", sa.DateTime(), nullable=True),
        sa.Column("sent", sa.DateTime(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("error", sa.Text(), nullable=True),
    )
    op.create_index("ix_mail_outbox_sent", "mail_outbox", ["sent"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer(), primary_key=True),
        _user("challenger_id"),
        _user("challenged_id"),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seat", sa.String(8), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False, server_default=false),
        sa.Column("clock", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=false),
        _game("rematch_of", nullable=True, ondelete="SET NULL"),
        _game("game_id", nullable=True, ondelete="SET NULL"),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("answered", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_challenges_challenger_id", "challenges", ["challenger_id"])
    op.create_index("ix_challenges_challenged_id", "challenges", ["challenged_id"])
    op.create_index("ix_challenges_status", "challenges", ["status"])
    op.create_index("ix_challenges_rematch_of", "challenges", ["rematch_of"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True),
        _game("game_id"),
        sa.Column("channel", sa.String(12), nullable=False),
        _user("author_id"),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=false),
    )
    op.create_index("ix_chat_lines_game_id", "chat_lines", ["game_id"])
    op.create_index("ix_chat_lines_author_id", "chat_lines", ["author_id"])
    op.create_index("ix_chat_lines_created", "chat_lines", ["created"])
    op.create_table(
        "chat_mutes",
        _user("user_id"),
        _game("game_id"),
        sa.PrimaryKeyConstraint("user_id", "game_id"),
    )
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "line_id",
            sa.Integer(),
            sa.ForeignKey("chat_lines.id", ondelete="CASCADE"),
            nullable=False,
        ),
        _user("reporter_id"),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("resolved", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_chat_reports_line_id", "chat_reports", ["line_id"])
    op.create_index("ix_chat_reports_resolved", "chat_reports", ["resolved"])
    op.create_table(
        "game_tallies",
        sa.Column("game", sa.String(32), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("month", sa.String(7), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("first_wins", sa.Integer(), nullable=False),
        sa.Column("draws", sa.Integer(), nullable=False),
        sa.Column("decided", sa.Integer(), nullable=False),
        sa.Column("plies", sa.BigInteger(), nullable=False),
        sa.Column("spread", sa.Float(), nullable=False),
        sa.Column("spread_sq", sa.Float(), nullable=False),
        sa.Column("scored", sa.Integer(), nullable=False),
    )
    op.create_index("ix_games_finished", "games", ["finished"])
    from ludoteca.web.stats.tallies import rebuild

    rebuild(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_games_finished", "games")
    for table in (
        "game_tallies",
        "chat_reports",
        "chat_mutes",
        "chat_lines",
        "challenges",
        "mail_outbox",
        "notification_prefs",
        "notifications",
    ):
        op.drop_table(table)
