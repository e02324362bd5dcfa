"""The notifications page, its JSON, the settings page and the unsubscribe link."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse

from ludoteca.web.forum.forms import form
from ludoteca.web.notify import service
from ludoteca.web.notify.mail import unsubscribe_ok
from ludoteca.web.requests import (
    SignedIn,
    check_csrf,
    club,
    current_user,
    in_transaction,
    language,
    render,
)
from ludoteca.web.round.errors import ClubError

router = APIRouter()


@router.get("/notifications")
def notifications_page(request: Request):
    user = current_user(request)
    if user is None:
        return RedirectResponse("/login?next=/notifications", status_code=303)
    with club(request).store.session() as db:
        items = service.latest(db, user.id)
        unread_ids = [n.id for n in items if not n.read]
        shown = [
            {**service.as_json(n), "text": service.stored_text(n), "moment": n.created}
            for n in items
        ]
        if unread_ids:  # seen now: the bell goes quiet
            service.mark_read(db, user.id, max(unread_ids))
            db.commit()
    return render(request, "notifications.html", items=shown, unread_count=0)


@router.get("/api/notifications")
def notifications_json(request: Request, user: SignedIn) -> JSONResponse:
    with club(request).store.reading() as db:
        return JSONResponse(
            {
                "unread": service.unread(db, user.id),
                "items": [
                    service.as_json(n, language(request)) for n in service.latest(db, user.id)
                ],
            }
        )


@router.post("/api/notifications/read")
async def notifications_read(request: Request, user: SignedIn) -> JSONResponse:
    check_csrf(request, request.headers.get("x-csrf-token"))
    await in_transaction(request, lambda db: service.mark_read(db, user.id))
    return JSONResponse({"ok": True, "unread": 0})


@router.get("/settings/notifications")
def settings_page(request: Request):
    user = current_user(request)
    if user is None:
        return RedirectResponse("/login?next=/settings/notifications", status_code=303)
    with club(request).store.reading() as db:
        prefs = service.prefs_of(db, user.id)
    return render(
        request,
        "notification_settings.html",
        prefs=prefs,
        mail=club(request).mailer is not None,
        saved=request.query_params.get("saved") == "1",
    )


@router.post("/settings/notifications")
async def save_settings(request: Request, user: SignedIn):
    data = await form(request)
    email = data.get("email", "")[:300]
    if email.strip() and club(request).mailer is None:
        raise ClubError("This club sends no e-mail (no SMTP server is configured).", 409)

    turns, challenges = data.get("email_turns") == "on", data.get("email_challenges") == "on"
    await in_transaction(request, lambda db: service.save_prefs(db, user, email, turns, challenges))
    return RedirectResponse("/settings/notifications?saved=1", status_code=303)


def _check_link(request: Request, user_id: int, setting: str, signature: str) -> None:
    secret = club(request).accounts.secret
    if setting not in ("turns", "challenges") or not unsubscribe_ok(
        secret, user_id, setting, signature
    ):
        raise ClubError("That unsubscribe link is not valid.", 404)


@router.get("/unsubscribe/{user_id:id}/{setting}/{signature}")
def unsubscribe_page(user_id: int, setting: str, signature: str, request: Request):
    """The link in an e-mail, opened in a browser: one button to confirm (a GET changes
    nothing, so a mail scanner following links unsubscribes no one)."""
    _check_link(request, user_id, setting, signature)
    return render(request, "unsubscribe.html", setting=setting, done=False)


@router.post("/unsubscribe/{user_id:id}/{setting}/{signature}")
def unsubscribe(user_id: int, setting: str, signature: str, request: Request):
    """One-click unsubscribe (RFC 8058): the mail program's POST, or the page's button.
    The signature is the proof, so no log-in and no CSRF token are needed."""
    _check_link(request, user_id, setting, signature)
    with club(request).store.session() as db:
        service.unsubscribe(db, user_id, setting)
        db.commit()
    return render(request, "unsubscribe.html", setting=setting, done=True)
