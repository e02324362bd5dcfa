"""Full-text search over thread titles and posts, one interface over two databases.

SQLite answers from the FTS5 table ``forum_fts``, which the forum keeps in step with the
posts (:meth:`SearchIndex.index_post`, called in the transaction that writes the post);
PostgreSQL answers from ``to_tsvector('simple', ...)`` of the titles and bodies (migration
``0004`` gives the planner GIN indexes on both) and needs no upkeep. Both use the ``simple`` way
of splitting words (no stemming, no stop words, accents folded on SQLite), so one query finds
the same posts on either. Every word of the query must appear (in the title or the post), as
a word or the beginning of one ("kuniu" finds "Kuniumi"); the words are passed as data,
never as query syntax, so no input is a syntax error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import Boolean, and_, func, or_, select, text
from sqlalchemy.orm import Session

from ludoteca.web.forum.models import ForumPost, ForumThread

MAX_WORDS = 8
_WORD = re.compile(r"\w+", re.UNICODE)


def words(query: str) -> list[str]:
    """The words searched for: letters and digits, at most ``MAX_WORDS`` of them."""
    return [w.lower() for w in _WORD.findall(query)[:MAX_WORDS] if len(w) <= 64]


@dataclass(frozen=True)
class Hit:
    post_id: int
    thread_id: int


class SearchIndex:
    """What the forum asks of a search backend; :func:`for_session` picks the right one."""

    def index_post(self, db: Session, post: ForumPost, title: str | None) -> None:
        """Make ``post`` findable (``title`` for a thread's opening post); called again
        after an edit."""

    def search(self, db: Session, query: str, limit: int, offset: int) -> list[Hit]:
        raise NotImplementedError


class SqliteSearch(SearchIndex):
    def index_post(self, db: Session, post: ForumPost, title: str | None) -> None:
        db.execute(text("DELETE FROM forum_fts WHERE post_id = :id"), {"id": post.id})
        db.execute(
            text("INSERT INTO forum_fts (title, body, post_id) VALUES (:title, :body, :id)"),
            {"title": title or "", "body": post.body, "id": post.id},
        )

    def search(self, db: Session, query: str, limit: int, offset: int) -> list[Hit]:
        found = words(query)
        if not found:
            return []
        # Each word as a quoted string (never query syntax) and a prefix: "kuniu" finds
        # "Kuniumi", as a reader typing a word's beginning expects.
        match = " ".join('"' + w.replace('"', "") + '"*' for w in found)
        rows = db.execute(
            text(
                "SELECT p.id, p.thread_id FROM forum_fts f "
                "JOIN forum_posts p ON p.id = f.post_id "
                "JOIN forum_threads t ON t.id = p.thread_id "
                "WHERE forum_fts MATCH :match AND NOT p.hidden AND NOT t.hidden "
                "ORDER BY p.id DESC LIMIT :limit OFFSET :offset"
            ),
            {"match": match, "limit": limit, "offset": offset},
        ).all()
        return [Hit(post_id=r[0], thread_id=r[1]) for r in rows]


class PostgresSearch(SearchIndex):
    def search(self, db: Session, query: str, limit: int, offset: int) -> list[Hit]:
        found = words(query)
        if not found:
            return []
        # Each word must be in the title (of the opening post's thread) or in the body.
        opening = (
            select(func.min(ForumPost.id))
            .where(ForumPost.thread_id == ForumThread.id)
            .correlate(ForumThread)
            .scalar_subquery()
        )
        conditions = []
        for word in found:
            # A prefix query (``word:*``): the words are letters and digits only (``\w+``),
            # quoted as a lexeme, so nothing typed is read as query syntax.
            q = func.to_tsquery("simple", "'" + word + "':*")
            matches = func.to_tsvector("simple", ForumPost.body).op("@@", return_type=Boolean)
            in_title = func.to_tsvector("simple", ForumThread.title).op("@@", return_type=Boolean)
            conditions.append(or_(matches(q), and_(ForumPost.id == opening, in_title(q))))
        rows = db.execute(
            select(ForumPost.id, ForumPost.thread_id)
            .join(ForumThread, ForumThread.id == ForumPost.thread_id)
            .where(*conditions, ForumPost.hidden.is_(False), ForumThread.hidden.is_(False))
            .order_by(ForumPost.id.desc())
            .limit(limit)
            .offset(offset)
        ).all()
        return [Hit(post_id=r[0], thread_id=r[1]) for r in rows]


def for_session(db: Session) -> SearchIndex:
    name = db.get_bind().dialect.name
    return PostgresSearch() if name == "postgresql" else SqliteSearch()


SNIPPET = 200
"""Characters of a post shown under a search result."""


def snippet(text: str, words: list[str]) -> str:
    """About :data:`SNIPPET` characters of ``text`` around the first word searched for (or
    its beginning), with an ellipsis where text is left out."""
    low = text.lower()
    hits = [i for i in (low.find(w) for w in words) if i >= 0]
    start = max(0, min(hits) - SNIPPET // 4) if hits else 0
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    end = start + SNIPPET
    if end < len(text):
        space = text.rfind(" ", start, end)
        end = space if space > start + SNIPPET // 2 else end
    return ("…" if start else "") + text[start:end] + ("…" if end < len(text) else "")


def marked(text: str, words: list[str]) -> list[tuple[str, bool]]:
    """``text`` cut into pieces, each true where a word searched for begins a word of it (as
    the search matched): the page marks them."""
    if not words:
        return [(text, False)]
    pattern = re.compile(
        r"\b(?:" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")\w*",
        re.IGNORECASE,
    )
    parts: list[tuple[str, bool]] = []
    at = 0
    for match in pattern.finditer(text):
        if match.start() > at:
            parts.append((text[at : match.start()], False))
        parts.append((match.group(), True))
        at = match.end()
    if at < len(text):
        parts.append((text[at:], False))
    return parts
