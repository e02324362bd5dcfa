"""``/help`` (registering, games, clocks, ratings, computer levels, replays, challenges,
chat, notifications, stats, the forum and its rules), ``/about`` (the club, its games
and their designers) and the operator's ``/contact``, ``/privacy`` and ``/terms``.

The pictures are the engines' own SVG boards (the rules pages' diagrams), so they show the
boards exactly as the club draws them; a game that fails to load is left out.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from ludoteca.core.messages import Text
from ludoteca.web.chat import service as chat
from ludoteca.web.forum.limits import ESTABLISHED, NEW, NEW_ACCOUNT
from ludoteca.web.forum.service import EDIT_WINDOW
from ludoteca.web.help.site_pages import PAGES, operator_text
from ludoteca.web.i18n.templates import localized
from ludoteca.web.kernel.requests import club, language, render
from ludoteca.web.round.catalog import available_games, bot_levels
from ludoteca.web.round.clocks import NOTHING
from ludoteca.web.rules.pages import diagrams

router = APIRouter()


def _games(lang: str) -> list[dict]:
    out = []
    for gid, cls in available_games().items():
        if not cls.designer:
            continue  # a game made for tests, not one the club presents
        designer = cls.designer
        pictures = diagrams(gid, lang)
        out.append(
            {
                "id": gid,
                "title": cls.title,
                "designer": designer,
                "players": (cls.min_players, cls.max_players),
                "svg": pictures[-1][1] if pictures else None,
                "caption": pictures[-1][0] if pictures else Text(NOTHING),
            }
        )
    return out


@router.get("/help")
def help_page(request: Request):
    return render(
        request,
        localized("help/help.html", language(request).code),
        games=_games(language(request).code),
        levels=bot_levels(),
        new=NEW,
        established=ESTABLISHED,
        new_hours=int(NEW_ACCOUNT.total_seconds() // 3600),
        edit_minutes=int(EDIT_WINDOW.total_seconds() // 60),
        chat_max=chat.MAX_LINE,
        chat_lines=chat.LINES,
        chat_new=chat.NEW_LINES,
    )


@router.get("/contact")
def contact_page(request: Request):
    return site_page(request, "contact")


@router.get("/privacy")
def privacy_page(request: Request):
    return site_page(request, "privacy")


@router.get("/terms")
def terms_page(request: Request):
    return site_page(request, "terms")


def site_page(request: Request, name: str):
    """A page the club's operator writes (:mod:`.site_pages`), or its default text."""
    text = operator_text(club(request).site_pages, name, language(request).code)
    return render(request, "site_page.html", name=name, title=PAGES[name], text=text)


@router.get("/about")
def about_page(request: Request):
    return render(
        request,
        localized("help/about.html", language(request).code),
        games=_games(language(request).code),
    )
