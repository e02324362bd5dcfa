"""The notifications page, its JSON, the settings page (with the confirmation of an
address) and the unsubscribe link."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse

from ludoteca.core.messages import N_, Text
from ludoteca.web.kernel.errors import ClubError
from ludoteca.web.kernel.forms import form
from ludoteca.web.kernel.requests import (
    SignedIn,
    Visitor,
    check_csrf,
    club,
    in_transaction,
    language,
    render,
)
from ludoteca.web.notify import links, service

router = APIRouter()


@router.get("/notifications")
def notifications_page(request: Request, user: Visitor):
    if user is None:
        return RedirectResponse("/login?next=/notifications", status_code=303)
    with club(request).store.reading() as db:
        items = service.latest(db, user.id)
        shown = [
            {**service.as_json(n), "text": service.stored_text(n), "moment": n.created}
            for n in items
        ]
    newest = max((n["id"] for n in shown if not n["read"]), default=None)
    return render(request, "notifications.html", items=shown, newest_unread=newest)


@router.post("/notifications/read")
async def notifications_read_form(request: Request, user: SignedIn):
    """The page's *mark all read* button: reading is a change, so it is a POST (a GET that
    changed it would be done by any prefetching browser or link scanner)."""
    data = await form(request)
    check_csrf(request, data.get("csrf"))
    up_to = data.get("up_to", "")
    last = int(up_to) if up_to.isdigit() and len(up_to) < 12 else None
    await in_transaction(request, lambda db: service.mark_read(db, user.id, up_to=last))
    return RedirectResponse("/notifications", status_code=303)


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
    """Mark all read, or with ``?id=N`` just that one (a page that shows what it says, such
    as a turn on the game page being looked at)."""
    check_csrf(request, request.headers.get("x-csrf-token"))
    ident = request.query_params.get("id", "")
    only = int(ident) if ident.isdigit() and len(ident) < 12 else None

    def work(db) -> int:
        service.mark_read(db, user.id, only=only)
        return service.unread(db, user.id)

    return JSONResponse({"ok": True, "unread": await in_transaction(request, work)})


@router.get("/settings/notifications")
def settings_page(request: Request, user: Visitor):
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
        sent=request.query_params.get("sent"),
    )


@router.post("/settings/notifications")
async def save_settings(request: Request, user: SignedIn):
    """Save; an address not yet confirmed gets a confirmation link (within limits), and
    nothing else is sent to it until it is opened."""
    data = await form(request)
    email = data.get("email", "")[:300]
    if email.strip() and club(request).mailer is None:
        raise ClubError("This club sends no e-mail (no SMTP server is configured).", 409)
    turns, challenges = data.get("email_turns") == "on", data.get("email_challenges") == "on"
    tournaments = data.get("email_tournaments") == "on"
    secret = club(request).accounts.secret

    def work(db) -> str:
        prefs = service.save_prefs(db, user, email, turns, challenges, tournaments)
        if not prefs.email or prefs.email_confirmed:
            return "1"
        token = links.confirm_token(secret, user.id, prefs.email)
        queued = service.queue_account_mail(
            db,
            user,
            prefs.email,
            "confirm",
            Text("Confirm your e-mail address"),
            Text(
                "Someone, probably you, gave this address to the member {name} of ludoteca. "
                "Open this link to confirm it and receive their notifications; if it was not "
                "you, ignore this e-mail and you will get no other.",
                {"name": user.name},
            ),
            f"/confirm-email/{token}",
        )
        return "1&sent=1" if queued else "1&sent=0"

    saved = await in_transaction(request, work)
    return RedirectResponse(f"/settings/notifications?saved={saved}", status_code=303)


def _read_link(reader, request: Request, token: str):
    try:
        return reader(club(request).accounts.secret, token)
    except links.LinkRefused as exc:
        message = (
            N_("That link is too old. Ask for a new one from your settings.")
            if exc.expired
            else N_("That link is not valid.")
        )
        raise ClubError(message, 410 if exc.expired else 404) from None


@router.get("/confirm-email/{token}")
def confirm_page(token: str, request: Request):
    """The confirmation link, opened: one button to confirm (a GET changes nothing, so a
    mail scanner following links confirms no one's address for them)."""
    _read_link(links.read_confirm, request, token)
    return render(request, "confirm_email.html", done=False)


@router.post("/confirm-email/{token}")
async def confirm(token: str, request: Request):
    """The link's button: the signed token is the proof, so no log-in is needed."""
    user_id, mark = _read_link(links.read_confirm, request, token)
    done = await in_transaction(request, lambda db: service.confirm_address(db, user_id, mark))
    if not done:
        raise ClubError("That link is for an address the account no longer has.", 410)
    return render(request, "confirm_email.html", done=True)


def _unsubscribe_link(request: Request, token: str) -> tuple[int, str, int]:
    return _read_link(links.read_unsubscribe, request, token)


@router.get("/unsubscribe/{token}")
def unsubscribe_page(token: str, request: Request):
    """The link in an e-mail, opened in a browser: one button to confirm (a GET changes
    nothing, so a mail scanner following links unsubscribes no one)."""
    _, setting, _ = _unsubscribe_link(request, token)
    return render(request, "unsubscribe.html", setting=setting, done=False)


@router.post("/unsubscribe/{token}")
async def unsubscribe(token: str, request: Request):
    """One-click unsubscribe (RFC 8058): the mail program's POST, or the page's button.
    The signature is the proof, so no log-in and no CSRF token are needed. A link from
    before the member subscribed again no longer works."""
    user_id, setting, epoch = _unsubscribe_link(request, token)
    done = await in_transaction(
        request, lambda db: service.unsubscribe(db, user_id, setting, epoch)
    )
    if not done:
        raise ClubError(
            "That link is from before you subscribed again; use the one in a newer e-mail "
            "or your settings.",
            410,
        )
    return render(request, "unsubscribe.html", setting=setting, done=True)
