"""The forum's rules: categories, threads, replies, edits, read markers and search.

Every write checks its input first (lengths, NUL, a locked thread, a suspension, the posting
limits) and changes nothing when refused; the post, the thread's counters and the search
index change in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy import case, func, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from ludoteca.core.messages import Text
from ludoteca.core.registry import get as get_game
from ludoteca.web.forum import markup, search
from ludoteca.web.forum.limits import check_editing, check_posting
from ludoteca.web.forum.models import ForumPost, ForumRead, ForumThread
from ludoteca.web.infra.inputs import check_text
from ludoteca.web.infra.store import User, utcnow
from ludoteca.web.infra.visible import has_something_visible, visible_text
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.moderation import service as moderation
from ludoteca.web.notify.service import notify
from ludoteca.web.round.catalog import available_games

MIN_TITLE, MAX_TITLE = 3, 120
MAX_BODY = 20_000
"""Characters of Markdown in one post: a long essay, well under the 64 KiB request limit."""
EDIT_WINDOW = timedelta(minutes=30)
"""How long an author may edit a post; later, a correction is a new reply."""
RESENT_WITHIN = timedelta(minutes=2)
"""A reply identical to its author's own in the same thread this recently is the same
reply sent again (a double click, a reload), not a new one."""
THREADS_PER_PAGE = 30
POSTS_PER_PAGE = 20
MAX_POSITION = 2000
"""Characters of a position embedded or shown: every game's position is far shorter."""


@dataclass(frozen=True)
class Category:
    slug: str
    title: Text
    about: Text


def categories() -> list[Category]:
    """General, one per game of the club, and Site (about the club itself)."""
    out = [
        Category("general", Text("General"), Text("Anything about abstract games and this club."))
    ]
    for gid, cls in available_games().items():
        if not cls.designer:
            continue  # a game made for tests, not one the club presents
        title = cls.title
        about = Text("Strategy, rules questions and games of {game}.", {"game": title})
        out.append(Category(gid, Text("{game}", {"game": title}), about))
    out.append(
        Category("site", Text("Site"), Text("Suggestions, questions and problems with the site."))
    )
    return out


def category(slug: str) -> Category:
    for c in categories():
        if c.slug == slug:
            return c
    raise ClubError("There is no such forum category.", 404)


def check_title(title: str) -> str:
    """A title cleaned as every text others read (:mod:`ludoteca.web.infra.visible`), on
    one line."""
    title = " ".join(visible_text(check_text(title)).split())
    if title and not any(c.isalnum() for c in title):
        raise ClubError("A thread's title needs some letters or digits.")
    if not MIN_TITLE <= len(title) <= MAX_TITLE:
        raise ClubError(
            "A thread's title has {MIN_TITLE} to {MAX_TITLE} characters (this one has {count}).",
            MIN_TITLE=MIN_TITLE,
            MAX_TITLE=MAX_TITLE,
            count=len(title),
        )
    return title


def check_body(body: str) -> str:
    body = visible_text(check_text(body)).strip()
    if not has_something_visible(body):
        raise ClubError("The post is empty.")
    if len(body) > MAX_BODY:
        raise ClubError(
            "A post has at most {MAX_BODY} characters (this one has {count}).",
            MAX_BODY=MAX_BODY,
            count=len(body),
        )
    markup.check_complexity(body)
    return body


def page_count(total: int, per_page: int) -> int:
    return max(1, -(-total // per_page))


class Forum:
    def __init__(self, store, games, public_url: str | None = None) -> None:
        self.store = store
        self.games = games
        self.own_host = urlsplit(public_url).netloc if public_url else None
        """The club's own address (``--public-url``): absolute links to it embed boards.
        Never taken from a request, whose ``Host`` header anyone may set."""

    # --- boards embedded in posts ----------------------------------------------------------------
    def embed(self, path: str, query: dict[str, list[str]]) -> str | None:
        """The SVG of a game (``/games/N``, ``/games/N/replay``, ``?ply=K``) or a position
        (``/forum/board/GAME?position=...``) linked from a post; None for anything else,
        a private game, or a position the engine refuses."""
        from ludoteca.core.errors import GameError
        from ludoteca.web.i18n.deferred import deferred
        from ludoteca.web.round.view import board_svg

        parts = path.strip("/").split("/")
        try:
            if parts[:2] == ["forum", "board"] and len(parts) == 3:
                position = (query.get("position") or [""])[0]
                if not position or len(position) > MAX_POSITION:
                    return None
                return board_svg(get_game(parts[2]).from_position(position), translate=deferred)
            if parts[0] != "games" or len(parts) not in (2, 3) or not parts[1].isdigit():
                return None
            if len(parts) == 3 and parts[2] != "replay":
                return None
            pk = int(parts[1])
            if pk > 2_147_483_647:
                return None
            row, moves, state = self.games.states_along(pk)
            if row.private:
                return None
            ply_text = (query.get("ply") or [""])[0]
            ply = int(ply_text) if ply_text.isdigit() and len(ply_text) < 6 else len(moves)
            for m in moves[: min(ply, len(moves))]:
                state.play(m.text)
            return board_svg(state, translate=deferred)
        except (GameError, ClubError, KeyError, ValueError, NotImplementedError):
            return None

    def render(self, body: str) -> str:
        return markup.render(body, self.embed, self.own_host)

    # --- reading ----------------------------------------------------------------------------------
    def thread_list(
        self, db: Session, slug: str | None, page: int, viewer: User | None
    ) -> tuple[list[dict[str, Any]], int]:
        where = [ForumThread.hidden.is_(False)]
        if slug is not None:
            where.append(ForumThread.category == slug)
        total = db.scalar(select(func.count()).select_from(ForumThread).where(*where)) or 0
        rows = db.scalars(
            select(ForumThread)
            .where(*where)
            .order_by(ForumThread.last_post_at.desc(), ForumThread.id.desc())
            .limit(THREADS_PER_PAGE)
            .offset((page - 1) * THREADS_PER_PAGE)
        ).all()
        read: dict[int, int] = {}
        blocked: set[int] = set()
        if viewer is not None and rows:
            read = dict(
                db.execute(
                    select(ForumRead.thread_id, ForumRead.last_post_id).where(
                        ForumRead.user_id == viewer.id,
                        ForumRead.thread_id.in_([r.id for r in rows]),
                    )
                ).all()
            )
            blocked = moderation.blocked_ids(db, viewer)
        titles = {c.slug: c.title for c in categories()}
        out = []
        for r in rows:
            if r.author_id in blocked:
                continue
            out.append(
                {
                    "id": r.id,
                    "title": r.title,
                    "category": r.category,
                    "category_title": titles.get(r.category, r.category),
                    "author": r.author.name,
                    "posts": r.posts,
                    "last_post_at": r.last_post_at,
                    "locked": r.locked,
                    "unread": viewer is not None and read.get(r.id, 0) < r.last_post_id,
                    "last_page": page_count(r.posts, POSTS_PER_PAGE),
                }
            )
        return out, page_count(total, THREADS_PER_PAGE)

    def thread(self, db: Session, pk: int, viewer: User | None) -> ForumThread:
        row = db.get(ForumThread, pk)
        if row is None or (row.hidden and not moderation.is_moderator(db, viewer)):
            raise ClubError("There is no such thread.", 404)
        return row

    def posts(self, db: Session, thread: ForumThread, page: int) -> tuple[list[ForumPost], int]:
        total = db.scalar(select(func.count()).where(ForumPost.thread_id == thread.id)) or 0
        rows = db.scalars(
            select(ForumPost)
            .where(ForumPost.thread_id == thread.id)
            .order_by(ForumPost.id)
            .limit(POSTS_PER_PAGE)
            .offset((page - 1) * POSTS_PER_PAGE)
        ).all()
        return list(rows), page_count(total, POSTS_PER_PAGE)

    def mark_read(self, db: Session, user: User, thread: ForumThread, post_id: int) -> None:
        """Remember that ``user`` has seen ``thread`` up to ``post_id`` (never backwards).

        An insert that does nothing if the row is there, then a conditional update: the same
        reader in two tabs at once (or a double-clicked reply) meets no error, and nothing
        the caller holds is rolled back under it."""
        dialect = db.get_bind().dialect.name
        insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
        db.execute(
            insert(ForumRead)
            .values(user_id=user.id, thread_id=thread.id, last_post_id=post_id)
            .on_conflict_do_nothing(index_elements=["user_id", "thread_id"])
        )
        db.execute(
            update(ForumRead)
            .where(
                ForumRead.user_id == user.id,
                ForumRead.thread_id == thread.id,
                ForumRead.last_post_id < post_id,
            )
            .values(last_post_id=post_id),
            execution_options={"synchronize_session": False},
        )
        db.commit()

    def search(self, db: Session, query: str, page: int) -> list[dict[str, Any]]:
        hits = search.for_session(db).search(
            db, query, THREADS_PER_PAGE, (page - 1) * THREADS_PER_PAGE
        )
        if not hits:
            return []
        posts = {
            p.id: p
            for p in db.scalars(
                select(ForumPost).where(ForumPost.id.in_([h.post_id for h in hits]))
            )
        }
        threads = {
            t.id: t
            for t in db.scalars(
                select(ForumThread).where(ForumThread.id.in_({h.thread_id for h in hits}))
            )
        }
        out = []
        for h in hits:
            post, thread = posts[h.post_id], threads[h.thread_id]
            before = (
                db.scalar(
                    select(func.count()).where(
                        ForumPost.thread_id == thread.id, ForumPost.id < post.id
                    )
                )
                or 0
            )
            excerpt = search.snippet(markup.plain_text(post.html), search.words(query))
            out.append(
                {
                    "post_id": post.id,
                    "thread_id": thread.id,
                    "title": thread.title,
                    "author": post.author.name,
                    "created": post.created,
                    "excerpt": excerpt,
                    "excerpt_parts": search.marked(excerpt, search.words(query)),
                    "page": before // POSTS_PER_PAGE + 1,
                }
            )
        return out

    # --- writing ----------------------------------------------------------------------------------
    # Every write checks the suspension and the limits before its Markdown is rendered (the
    # costly part), and again under the author's lock in the transaction that writes: a
    # refused post costs a few queries, never a rendering.
    def create_thread(self, user: User, slug: str, title: str, body: str) -> ForumThread:
        category(slug)
        title, body = check_title(title), check_body(body)
        with self.store.session() as db:
            moderation.check_not_suspended(db, user)
            check_posting(db, user, new_thread=True)
            db.rollback()
        html = self.render(body)
        with self.store.session() as db:
            moderation.check_not_suspended(db, user)
            check_posting(db, user, new_thread=True)
            now = utcnow()
            again = db.scalar(
                select(ForumThread).where(
                    ForumThread.author_id == user.id,
                    ForumThread.category == slug,
                    ForumThread.title == title,
                    ForumThread.created > now - RESENT_WITHIN,
                )
            )
            if again is not None:  # the same form sent twice: one thread
                return again
            thread = ForumThread(
                category=slug,
                title=title,
                author_id=user.id,
                created=now,
                last_post_at=now,
                last_post_id=0,
                posts=1,
            )
            db.add(thread)
            db.flush()
            post = ForumPost(
                thread_id=thread.id, author_id=user.id, body=body, html=html, created=now
            )
            db.add(post)
            db.flush()
            thread.last_post_id = post.id
            search.for_session(db).index_post(db, post, title)
            db.commit()
            self._read_own(db, user, thread.id, post.id)
            return thread

    def reply(self, user: User, pk: int, body: str) -> ForumPost:
        body = check_body(body)
        with self.store.session() as db:
            self._may_reply(db, user, pk)
            db.rollback()
        html = self.render(body)
        with self.store.session() as db:
            thread = self._may_reply(db, user, pk)
            now = utcnow()
            again = self._same_reply(db, user, pk, body, now)
            if again is not None:
                return again
            post = ForumPost(thread_id=pk, author_id=user.id, body=body, html=html, created=now)
            db.add(post)
            db.flush()
            # Counted in SQL, and never backwards, whatever other replies commit meanwhile.
            thread.posts = ForumThread.posts + 1
            newer = ForumThread.last_post_id < post.id
            thread.last_post_id = case((newer, post.id), else_=ForumThread.last_post_id)
            thread.last_post_at = case((newer, now), else_=ForumThread.last_post_at)
            search.for_session(db).index_post(db, post, None)
            self._tell_author(db, thread, user, post)
            db.commit()
            self._read_own(db, user, pk, post.id)
            return post

    def _may_reply(self, db: Session, user: User, pk: int) -> ForumThread:
        thread = self.thread(db, pk, user)
        if thread.locked:
            raise ClubError("This thread is locked: no more replies.", 409)
        moderation.check_not_suspended(db, user)
        check_posting(db, user, new_thread=False)
        return thread

    @staticmethod
    def _same_reply(db: Session, user: User, pk: int, body: str, now: datetime) -> ForumPost | None:
        """The reply ``user`` just wrote to thread ``pk`` with this very body, if any: a
        double click or a resent form gives back that post instead of a copy. Read after
        :func:`check_posting` has locked the author, so two sends at once see each other."""
        return db.scalar(
            select(ForumPost)
            .where(
                ForumPost.thread_id == pk,
                ForumPost.author_id == user.id,
                ForumPost.created > now - RESENT_WITHIN,
                ForumPost.hidden.is_(False),
                ForumPost.body == body,
            )
            .order_by(ForumPost.id.desc())
            .limit(1)
        )

    @staticmethod
    def _tell_author(db: Session, thread: ForumThread, user: User, post: ForumPost) -> None:
        """Notify the thread's author of a reply (not their own, nor one from someone they
        block)."""
        author = thread.author_id
        if author == user.id or user.id in moderation.blocked_ids(db, thread.author):
            return
        text = Text(
            "{name} replied to your thread “{title}”",
            {"name": user.name, "title": thread.title[:80]},
        )
        notify(db, author, "reply", text, f"/forum/post/{post.id}")

    def _read_own(self, db: Session, user: User, thread_id: int, post_id: int) -> None:
        thread = db.get(ForumThread, thread_id)
        if thread is not None:
            self.mark_read(db, user, thread, post_id)

    def post_for_edit(self, db: Session, user: User, post_id: int) -> ForumPost:
        post = db.get(ForumPost, post_id)
        if post is None or post.hidden:
            raise ClubError("There is no such post.", 404)
        if post.author_id != user.id:
            raise ClubError("Only its author may edit a post.", 403)
        if utcnow() - post.created > EDIT_WINDOW:
            minutes = int(EDIT_WINDOW.total_seconds() // 60)
            raise ClubError(
                "A post can be edited for {minutes} minutes after it is written; add a reply "
                "instead.",
                409,
                minutes=minutes,
            )
        thread = db.get(ForumThread, post.thread_id)
        if thread is not None and thread.locked:
            raise ClubError("This thread is locked: its posts can no longer be edited.", 409)
        return post

    def edit(self, user: User, post_id: int, body: str) -> ForumPost:
        body = check_body(body)
        with self.store.session() as db:
            self.post_for_edit(db, user, post_id)
            moderation.check_not_suspended(db, user)
            check_editing(db, user)
            db.commit()
        html = self.render(body)
        with self.store.session() as db:
            post = self.post_for_edit(db, user, post_id)
            moderation.check_not_suspended(db, user)
            post.body, post.html, post.edited = body, html, utcnow()
            thread = db.get(ForumThread, post.thread_id)
            opening = db.scalar(
                select(func.min(ForumPost.id)).where(ForumPost.thread_id == post.thread_id)
            )
            title = thread.title if thread is not None and opening == post.id else None
            search.for_session(db).index_post(db, post, title)
            db.commit()
            return post

    def delete_own(self, user: User, post_id: int) -> ForumPost:
        """Delete ``user``'s own post: its words are erased for good and the post stays as a
        line saying its author deleted it, so the replies around it keep their places. It is
        hidden with no reason (a moderator always gives one), which is how pages tell the
        two apart. An opening post with no visible reply takes its thread out of the lists."""
        with self.store.session() as db:
            post = db.get(ForumPost, post_id)
            if post is None or (post.hidden and post.hidden_reason is not None):
                raise ClubError("There is no such post.", 404)
            if post.author_id != user.id:
                raise ClubError("Only its author may delete a post.", 403)
            post.body, post.html, post.hidden, post.hidden_reason = "", "", True, None
            post.edited = utcnow()
            thread = db.get(ForumThread, post.thread_id)
            opening = db.scalar(
                select(func.min(ForumPost.id)).where(ForumPost.thread_id == post.thread_id)
            )
            others = db.scalar(
                select(func.count()).where(
                    ForumPost.thread_id == post.thread_id,
                    ForumPost.id != post.id,
                    ForumPost.hidden.is_(False),
                )
            )
            if thread is not None and opening == post.id and not others:
                thread.hidden = True
            search.for_session(db).index_post(db, post, None)
            moderation.resolve_reports(db, post.id)
            db.commit()
            return post

    def page_of(self, db: Session, post: ForumPost) -> int:
        before = (
            db.scalar(
                select(func.count()).where(
                    ForumPost.thread_id == post.thread_id, ForumPost.id < post.id
                )
            )
            or 0
        )
        return before // POSTS_PER_PAGE + 1
