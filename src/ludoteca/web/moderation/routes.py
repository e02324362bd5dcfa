"""The moderation pages and forms: reporting a post, blocking a user, and for moderators
the queue of reports, the log, hiding posts, locking threads and suspending accounts.

Every form is a POST with the CSRF token; a moderator's every action lands in the log.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from sqlalchemy import select

from ludoteca.web.chat import service as chat_service
from ludoteca.web.forum.models import ForumPost
from ludoteca.web.infra.store import User
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form, redirect
from ludoteca.web.kernel.requests import (
    SignedIn,
    Visitor,
    back_to,
    club,
    in_transaction,
    render,
)
from ludoteca.web.moderation import actions, service
from ludoteca.web.moderation.wording import describe

router = APIRouter()
MAX_HOURS_FIELD = 6


def _user_named(db, name: str) -> User:
    user = db.scalar(select(User).where(User.name_key == name.strip().lower()[:64]))
    if user is None:
        raise ClubError("There is no user named {name!r}.", 404, name=name[:32])
    return user


_do = in_transaction


@router.post("/forum/post/{post_id:id}/report")
async def report(post_id: int, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: actions.report(db, user, post_id, data.get("reason", "")))
    return render(request, "forum/reported.html", post_id=post_id)


@router.post("/forum/post/{post_id:id}/hide")
async def hide(post_id: int, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: actions.hide_post(db, user, post_id, data.get("reason", "")))
    return redirect(back_to(data, f"/forum/post/{post_id}"))


@router.post("/forum/post/{post_id:id}/show")
async def show(post_id: int, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: actions.show_post(db, user, post_id))
    return redirect(back_to(data, f"/forum/post/{post_id}"))


@router.post("/forum/post/{post_id:id}/dismiss")
async def dismiss(post_id: int, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: actions.dismiss_reports(db, user, post_id))
    return redirect(back_to(data, "/moderation"))


@router.post("/forum/thread/{pk:id}/lock")
async def lock(pk: int, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: actions.set_locked(db, user, pk, True, data.get("reason", "")))
    return redirect(f"/forum/thread/{pk}")


@router.post("/forum/thread/{pk:id}/unlock")
async def unlock(pk: int, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: actions.set_locked(db, user, pk, False, data.get("reason", "")))
    return redirect(f"/forum/thread/{pk}")


@router.post("/users/{name}/block")
async def block(name: str, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: service.block(db, user, _user_named(db, name)))
    return redirect(back_to(data, "/forum"))


@router.post("/users/{name}/unblock")
async def unblock(name: str, request: Request, user: SignedIn):
    data = await form(request)
    await _do(request, lambda db: service.unblock(db, user, _user_named(db, name)))
    return redirect(back_to(data, "/forum"))


@router.get("/moderation")
def queue(request: Request, user: Visitor):
    with club(request).store.session() as db:
        service.require_moderator(db, user)
        reports = service.open_reports(db)
        posts = {
            p.id: p
            for p in db.scalars(
                select(ForumPost).where(ForumPost.id.in_({r.post_id for r in reports}))
            )
        }
        return render(
            request,
            "forum/moderation.html",
            chat_reports=chat_service.open_reports(db),
            reports=[(r, posts.get(r.post_id)) for r in reports],
            log=[(e, describe(e.action, e.target, e.reason)) for e in service.recent_log(db)],
            suspensions=service.active_suspensions(db),
            error=None,
        )


def _hours(text: str) -> int:
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > MAX_HOURS_FIELD:
        raise service.ModerationError("The length of a suspension is a whole number of hours.")
    return int(text)


@router.post("/moderation/suspend")
async def suspend(request: Request, user: SignedIn):
    data = await form(request)

    def work(db):
        service.require_moderator(db, user)
        target = _user_named(db, data.get("name", ""))
        service.suspend(db, user, target, _hours(data.get("hours", "")), data.get("reason", ""))

    await _do(request, work)
    return redirect("/moderation")


@router.post("/moderation/unsuspend")
async def unsuspend(request: Request, user: SignedIn):
    data = await form(request)

    def work(db):
        service.require_moderator(db, user)
        service.lift_suspension(db, user, _user_named(db, data.get("name", "")))

    await _do(request, work)
    return redirect("/moderation")
