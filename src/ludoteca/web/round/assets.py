"""Files a game brings for its page, served from the game's own package.

A game whose board needs more than the generic click-and-pick interaction ships a
``page.js`` module beside its engine (Comino's tile picker) and names it in its
``ui_hints`` (``"module": "<game id>"``). The page imports ``/play-modules/<id>.js``, so a
new game brings its page code in its package and nothing in ``web/`` names it.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

from ludoteca.core.registry import game_class, names

router = APIRouter()


@cache
def page_module(game_id: str) -> Path | None:
    """The game's ``page.js``, if the game is registered and its package has one."""
    if game_id not in names():
        return None
    package = game_class(game_id).__module__.rpartition(".")[0]
    try:
        path = resources.files(package) / "page.js"
    except ModuleNotFoundError:
        return None
    return Path(str(path)) if path.is_file() else None


@router.get("/play-modules/{game_id}.js", include_in_schema=False)
def play_module(game_id: str) -> FileResponse:
    path = page_module(game_id)
    if path is None:
        raise HTTPException(404, f"no page module for {game_id!r}")
    return FileResponse(
        path, media_type="text/javascript", headers={"Cache-Control": "public, max-age=3600"}
    )
