"""The forum and its moderation: threads, posts, read markers, the full-text index, roles,
suspensions, reports, blocks and the moderators' log.

The full-text index differs by database: SQLite gets an FTS5 table the forum keeps in step
with the posts; PostgreSQL gets GIN indexes on ``to_tsvector`` of the titles and bodies,
at hand for the ``@@`` queries of :mod:`ludoteca.web.forum.search`.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def _user(name: str, nullable: bool = False, ondelete: str = "CASCADE") -> sa.Column:
    return sa.Column(
        name, sa.Integer(), sa.ForeignKey("users.id", ondelete=ondelete), nullable=nullable
    )


def upgrade() -> None:
    false = sa.false()
    op.create_table(
        "forum_threads",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("category", sa.String(32), nullable=False),
        sa.Column("title", sa.String(200), nullable=False),
        _user("author_id"),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("last_post_id", sa.Integer(), nullable=False),
        sa.Column("last_post_at", sa.DateTime(), nullable=False),
        sa.Column("posts", sa.Integer(), nullable=False),
        sa.Column("locked", sa.Boolean(), nullable=False, server_default=false),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=false),
    )
    op.create_index("ix_forum_threads_category", "forum_threads", ["category"])
    op.create_index("ix_forum_threads_last_post_at", "forum_threads", ["last_post_at"])
    op.create_table(
        "forum_posts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "thread_id",
            sa.Integer(),
            sa.ForeignKey("forum_threads.id", ondelete="CASCADE"),
            nullable=False,
        ),
        _user("author_id"),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("edited", sa.DateTime(), nullable=True),
        sa.Column("hidden", sa.Boolean(), nullable=False, server_default=false),
        sa.Column("hidden_reason", sa.Text(), nullable=True),
    )
    op.create_index("ix_forum_posts_thread_id", "forum_posts", ["thread_id"])
    op.create_index("ix_forum_posts_author_id", "forum_posts", ["author_id"])
    op.create_index("ix_forum_posts_created", "forum_posts", ["created"])
    op.create_table(
        "forum_reads",
        _user("user_id"),
        sa.Column(
            "thread_id",
            sa.Integer(),
            sa.ForeignKey("forum_threads.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("last_post_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "thread_id"),
    )
    op.create_table(
        "user_roles",
        _user("user_id"),
        sa.Column("role", sa.String(32), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "role"),
    )
    op.create_table(
        "suspensions",
        sa.Column("id", sa.Integer(), primary_key=True),
        _user("user_id"),
        sa.Column("until", sa.DateTime(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        _user("moderator_id", nullable=True, ondelete="SET NULL"),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_suspensions_user_id", "suspensions", ["user_id"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "post_id",
            sa.Integer(),
            sa.ForeignKey("forum_posts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        _user("reporter_id"),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("resolved", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_reports_post_id", "reports", ["post_id"])
    op.create_index("ix_reports_resolved", "reports", ["resolved"])
    op.create_table(
        "blocks",
        _user("user_id"),
        _user("blocked_id"),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "blocked_id"),
    )
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer(), primary_key=True),
        _user("moderator_id", nullable=True, ondelete="SET NULL"),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_moderation_log_created", "moderation_log", ["created"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE INDEX ix_forum_posts_fts ON forum_posts USING gin (to_tsvector('simple', body))"
        )
        op.execute(
            "CREATE INDEX ix_forum_threads_fts ON forum_threads "
            "USING gin (to_tsvector('simple', title))"
        )
    else:
        # post_id is the post's id; title is the thread's title on its opening post only.
        op.execute(
            "CREATE VIRTUAL TABLE forum_fts USING fts5("
            "title, body, post_id UNINDEXED, tokenize='unicode61 remove_diacritics 2')"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        op.execute("DROP TABLE forum_fts")
    for table in (
        "moderation_log",
        "blocks",
        "reports",
        "suspensions",
        "user_roles",
        "forum_reads",
        "forum_posts",
        "forum_threads",
    ):
        op.drop_table(table)
