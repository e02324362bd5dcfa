"""The forum's pages: categories, threads with their replies, writing, editing and search.

Reading is open to everyone; writing needs an account that is not suspended, and every form
carries the CSRF token. A refused post is shown again in its form with the reason, so
nothing typed is lost.
"""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response

from ludoteca.core.errors import GameError
from ludoteca.core.registry import get as get_game
from ludoteca.web.forum.models import ForumPost, ForumThread
from ludoteca.web.forum.service import EDIT_WINDOW, MAX_POSITION, Forum, categories, category
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form, page_number, redirect
from ludoteca.web.kernel.requests import SignedIn, Visitor, club, render, require_user
from ludoteca.web.moderation import service as moderation
from ludoteca.web.round.view import board_svg

router = APIRouter()


def forum(request: Request) -> Forum:
    c = club(request)
    if c.forum is None:
        c.forum = Forum(c.store, c.games, c.public_url)
    return c.forum


def refused(request: Request, template: str, exc: ClubError, **context) -> Response:
    response = render(request, template, status=exc.status, error=exc.message, **context)
    if exc.retry_after:
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


def _viewer_context(db, user) -> dict:
    """What every forum page needs to know about its reader."""
    suspension = moderation.active_suspension(db, user.id) if user is not None else None
    return {
        "is_moderator": moderation.is_moderator(db, user),
        "suspension": moderation.suspension_message(suspension) if suspension else None,
    }


@router.get("/forum")
def index(request: Request, user: Visitor):
    f = forum(request)
    with f.store.session() as db:
        latest, _ = f.thread_list(db, None, 1, user)
        context = _viewer_context(db, user)
    return render(
        request, "forum/index.html", categories=categories(), latest=latest[:15], **context
    )


@router.get("/forum/search")
def search_page(request: Request):
    query = request.query_params.get("q", "")[:200]
    page = page_number(request)
    f = forum(request)
    with f.store.session() as db:
        hits = f.search(db, query, page) if query.strip() else []
    return render(request, "forum/search.html", q=query, hits=hits, page=page)


@router.get("/forum/board/{game_id}")
def board_page(game_id: str, request: Request):
    """A position's board: the page a position link in a post leads to."""
    position = request.query_params.get("position", "")
    if len(position) > MAX_POSITION:
        raise ClubError(
            "A position has at most {MAX_POSITION} characters.", 400, MAX_POSITION=MAX_POSITION
        )
    try:
        game = get_game(game_id)
        svg = board_svg(game.from_position(position))
    except (GameError, KeyError, NotImplementedError, ValueError) as exc:
        message = getattr(exc, "reason", None) or "not a position of this game"
        raise ClubError(
            "That is not a position the club can show: {message_}.", 400, message_=message
        ) from None
    return render(
        request, "forum/board.html", title=game.title, position=position, svg=svg, game=game_id
    )


@router.get("/forum/thread/{pk:id}")
def thread_page(pk: int, request: Request, user: Visitor):
    page = page_number(request)
    f = forum(request)
    with f.store.session() as db:
        thread = f.thread(db, pk, user)
        posts, pages = f.posts(db, thread, page)
        if page > pages:
            raise ClubError("There is no such page.", 404)
        context = _viewer_context(db, user)
        blocked = moderation.blocked_ids(db, user)
        if user is not None and posts:
            f.mark_read(db, user, thread, posts[-1].id)
        from ludoteca.web.infra.store import utcnow

        now = utcnow()
        shown = [
            {
                "post": p,
                "blocked": p.author_id in blocked,
                "editable": user is not None
                and p.author_id == user.id
                and not p.hidden
                and not thread.locked
                and now - p.created <= EDIT_WINDOW,
                "own": user is not None and p.author_id == user.id,
                "deleted": p.hidden and p.hidden_reason is None,
            }
            for p in posts
        ]
        return render(
            request,
            "forum/thread.html",
            thread=thread,
            category=category(thread.category),
            posts=shown,
            page=page,
            pages=pages,
            body="",
            error=None,
            **context,
        )


@router.post("/forum/thread/{pk:id}/reply")
async def reply(pk: int, request: Request, user: SignedIn):
    data = await form(request)
    f = forum(request)
    try:
        post = await anyio.to_thread.run_sync(f.reply, user, pk, data.get("body", ""))
    except ClubError as exc:
        if exc.status == 404:
            raise
        return refused(
            request, "forum/write.html", exc, mode="reply", thread_id=pk, body=data.get("body", "")
        )
    with f.store.session() as db:
        page = f.page_of(db, post)
    return redirect(f"/forum/thread/{pk}?page={page}#post-{post.id}")


@router.get("/forum/post/{post_id:id}/edit")
def edit_page(post_id: int, request: Request, user: SignedIn):
    f = forum(request)
    with f.store.session() as db:
        post = f.post_for_edit(db, user, post_id)
        return render(
            request, "forum/write.html", mode="edit", post_id=post.id, body=post.body, error=None
        )


@router.post("/forum/post/{post_id:id}/edit")
async def edit(post_id: int, request: Request, user: SignedIn):
    data = await form(request)
    f = forum(request)
    try:
        post = await anyio.to_thread.run_sync(f.edit, user, post_id, data.get("body", ""))
    except ClubError as exc:
        if exc.status == 404:
            raise
        return refused(
            request,
            "forum/write.html",
            exc,
            mode="edit",
            post_id=post_id,
            body=data.get("body", ""),
        )
    with f.store.session() as db:
        page = f.page_of(db, post)
    return redirect(f"/forum/thread/{post.thread_id}?page={page}#post-{post.id}")


@router.post("/forum/post/{post_id:id}/delete")
async def delete(post_id: int, request: Request, user: SignedIn):
    """The author deletes their own post (see :meth:`Forum.delete_own`)."""
    await form(request)  # its CSRF token checked
    f = forum(request)
    post = await anyio.to_thread.run_sync(f.delete_own, user, post_id)
    with f.store.session() as db:
        thread = db.get(ForumThread, post.thread_id)
        if thread is not None and thread.hidden:
            return redirect(f"/forum/{thread.category}")
        page = f.page_of(db, post)
    return redirect(f"/forum/thread/{post.thread_id}?page={page}#post-{post.id}")


@router.get("/forum/post/{post_id:id}")
def post_link(post_id: int, request: Request):
    f = forum(request)
    with f.store.session() as db:
        post = db.get(ForumPost, post_id)
        if post is None:
            raise ClubError("There is no such post.", 404)
        page = f.page_of(db, post)
    return redirect(f"/forum/thread/{post.thread_id}?page={page}#post-{post_id}")


@router.get("/forum/{slug}")
def category_page(slug: str, request: Request, user: Visitor):
    cat = category(slug)
    page = page_number(request)
    f = forum(request)
    with f.store.session() as db:
        threads, pages = f.thread_list(db, slug, page, user)
        if page > pages:
            raise ClubError("There is no such page.", 404)
        context = _viewer_context(db, user)
    return render(
        request,
        "forum/category.html",
        category=cat,
        threads=threads,
        page=page,
        pages=pages,
        **context,
    )


@router.get("/forum/{slug}/new")
def new_thread_page(slug: str, request: Request):
    require_user(request)
    cat = category(slug)
    return render(
        request, "forum/write.html", mode="thread", category=cat, title="", body="", error=None
    )


@router.post("/forum/{slug}/new")
async def new_thread(slug: str, request: Request, user: SignedIn):
    cat = category(slug)
    data = await form(request)
    title, body = data.get("title", ""), data.get("body", "")
    try:
        thread = await anyio.to_thread.run_sync(
            forum(request).create_thread, user, slug, title, body
        )
    except ClubError as exc:
        return refused(
            request, "forum/write.html", exc, mode="thread", category=cat, title=title, body=body
        )
    return redirect(f"/forum/thread/{thread.id}")
