"""Posts from Markdown to safe HTML, with boards embedded from links.

markdown-it-py renders CommonMark with raw HTML switched off (so ``<script>`` is text), bare
``http(s)://`` addresses made links by linkify-it-py, and nh3 (ammonia) then keeps only the
tags and attributes a post needs, links only to ``http``, ``https`` and ``mailto``
(``javascript:`` and ``data:`` links lose their target), and adds
``rel="nofollow noopener noreferrer ugc"``. Images are shown as links to the picture, marked
as images, never loaded: the page's policy would refuse another site's pictures anyway, and a
picture is a way to track readers.

A top-level paragraph that is nothing but a link to a game of the club (``/games/12``, optionally
``/games/12/replay?ply=30``) or to a position (``/forum/board/kuniumi?position=...``) is
replaced by that board, drawn by the engine: as ``[text](/games/12)``, ``<http://…>``, a bare
``http://…/games/12`` or a bare ``/games/12`` on its own line. An absolute link is the
club's own only at the club's configured address (``ludoteca serve --public-url``), never
at whatever a request's ``Host`` header claims. The board's SVG is added after sanitising,
in place of a marker the author cannot guess, so nothing the author wrote is ever trusted.
"""

from __future__ import annotations

import html
import re
import secrets
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import nh3
from markdown_it import MarkdownIt
from markdown_it.token import Token

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "del", "s", "code", "pre", "blockquote", "ul", "ol",
    "li", "a", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"style"}, "td": {"style"}}
URL_SCHEMES = {"http", "https", "mailto"}
MAX_LINKS = 100
MAX_BRACKETS = 1000
"""Links (``](``) and opening brackets one post may hold. Markdown's link parser scans
ahead from every ``](`` (and every ``[`` back to its label), so its time grows with their
number times the post's length: 20,000 characters of ``[](![`` took 0.23 s (1.2 s under a
profiler). Within these bounds the worst body measured renders in about 0.1 s
(``[](![`` 100 times, then 19,000 characters without a space), an honest long post in a few
milliseconds; no honest post comes near either number."""
MAX_EMBEDS = 4
"""Boards one post may embed: each is an engine SVG of some kilobytes."""

REL = "nofollow noopener noreferrer ugc"
BARE_CLUB_PATH = re.compile(r"/(?:games/\d+(?:/replay)?|forum/board/[\w-]+)(?:\?\S*)?")
"""A club path written alone on its line, without Markdown's link brackets."""

_md = MarkdownIt("commonmark", {"html": False, "linkify": True, "typographer": False}).enable(
    ["table", "strikethrough", "linkify"]
)
assert _md.linkify is not None
_md.linkify.set({"fuzzy_link": False, "fuzzy_email": False})  # only what says http(s)://


def _image(renderer, tokens, idx, options, env) -> str:
    """An image as a link to it, its text the image's description: never loaded."""
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = renderer.renderInlineAsText(token.children or [], options, env)
    alt = alt or src.rstrip("/").rsplit("/", 1)[-1] or src
    return f'<a class="image" href="{html.escape(src)}">{html.escape(alt)}</a>'


_md.add_render_rule("image", _image)
# Headings in posts start at h3 (the page has its h1 and h2).
_md.renderer.rules["heading_open"] = lambda tokens, idx, *_: (
    f"<h{min(6, int(tokens[idx].tag[1]) + 2)}>"
)
_md.renderer.rules["heading_close"] = lambda tokens, idx, *_: (
    f"</h{min(6, int(tokens[idx].tag[1]) + 2)}>\n"
)

Embed = Callable[[str, dict[str, list[str]]], str | None]
"""Given a club path and its query, the board's SVG (trusted) or None when it is not one."""


def clean(rendered: str) -> str:
    return nh3.clean(
        rendered,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel=REL,
        allowed_classes={"a": {"image"}},
        strip_comments=True,
        filter_style_properties={"text-align"},
    )


def check_complexity(source: str) -> None:
    """Refuse (400) Markdown with more links or brackets than a post needs, before any
    rendering: what bounds the renderer's time (see :data:`MAX_LINKS`)."""
    from ludoteca.web.kernel.errors import ClubError

    if source.count("](") > MAX_LINKS:
        raise ClubError("A post may hold at most {MAX_LINKS} links.", MAX_LINKS=MAX_LINKS)
    if source.count("[") > MAX_BRACKETS:
        raise ClubError(
            "A post may hold at most {MAX_BRACKETS} square brackets.", MAX_BRACKETS=MAX_BRACKETS
        )


def club_path(href: str, host: str | None) -> tuple[str, dict[str, list[str]]] | None:
    """The path and query of a link to this club (relative, or absolute to ``host``)."""
    try:
        parts = urlsplit(href)
    except ValueError:
        return None
    foreign = parts.scheme not in ("http", "https") or host is None or parts.netloc != host
    if (parts.scheme or parts.netloc) and foreign:
        return None
    if not parts.path.startswith("/"):
        return None
    return parts.path, parse_qs(parts.query)


def _lone_link(token: Token) -> tuple[str, str] | None:
    """The address and text of the one link a paragraph's inline token holds and nothing
    else (a bare club path counts as one), or None."""
    children = [c for c in token.children or [] if not (c.type == "text" and not c.content)]
    if len(children) == 1 and children[0].type == "text":
        bare = children[0].content.strip()
        return (bare, bare) if BARE_CLUB_PATH.fullmatch(bare) else None
    if len(children) < 2 or children[0].type != "link_open":
        return None
    if children[-1].type != "link_close" or any(
        c.type not in ("text", "link_open", "link_close") for c in children
    ):
        return None
    label = "".join(c.content for c in children if c.type == "text")
    return str(children[0].attrGet("href") or ""), label


def plain_text(rendered: str) -> str:
    """The words of a post as a reader sees them, from its stored HTML (for search results):
    no tags, no Markdown marks, embedded boards left out, images by their description. Read
    from the HTML, not the Markdown, so that no post is parsed again on the way out."""
    text = nh3.clean(rendered, tags=set(), clean_content_tags={"figure", "svg", "script", "style"})
    return " ".join(html.unescape(text).split())


def render(source: str, embed: Embed | None = None, host: str | None = None) -> str:
    """The sanitised HTML of ``source``; boards for lone links to games or positions."""
    tokens = _md.parse(source)
    boards: dict[str, str] = {}
    nonce = secrets.token_hex(8)
    for i, token in enumerate(tokens):
        if embed is None or len(boards) >= MAX_EMBEDS:
            break
        opening = tokens[i - 1] if i else None
        if token.type != "inline" or opening is None or opening.type != "paragraph_open":
            continue
        if opening.level != 0 or opening.hidden:  # only a paragraph of its own, not in a list
            continue
        found = _lone_link(token)
        if found is None:
            continue
        href, label = found
        target = club_path(href, host)
        svg = embed(*target) if target is not None else None
        if svg is None:
            continue
        marker = f"board{nonce}x{len(boards)}"
        boards[marker] = (
            f'<figure class="embed">{svg}<figcaption><a href="{html.escape(href)}" '
            f'rel="{REL}">{html.escape(label)}</a></figcaption></figure>'
        )
        token.content = marker
        text = Token("text", "", 0)
        text.content = marker
        token.children = [text]
    out = clean(_md.renderer.render(tokens, _md.options, {}))
    for marker, figure in boards.items():
        out = re.sub(rf"<p>{marker}</p>", lambda _m, f=figure: f, out)
    return out
