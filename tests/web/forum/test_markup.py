"""Markdown to safe HTML without a database: what is embedded, and what never is."""

from __future__ import annotations

from ludoteca.web.forum import markup

SVG = '<svg class="board"></svg>'


def embed(path: str, query: dict[str, list[str]]) -> str | None:
    return SVG if path.startswith("/games/") else None


def test_only_a_lone_top_level_link_becomes_a_board():
    assert markup.render("[g](/games/3)", embed).startswith('<figure class="embed"><svg')
    for nested in ("- [g](/games/3)\n- x", "> [g](/games/3)", "see [g](/games/3) here"):
        assert "<svg" not in markup.render(nested, embed), nested
    assert "<svg" not in markup.render("[g](https://elsewhere.example/games/3)", embed)
    host = "club.example"
    assert "<svg" in markup.render("[g](https://club.example/games/3)", embed, host)


def test_at_most_a_few_boards_a_post():
    many = "\n\n".join(f"[g{i}](/games/{i})" for i in range(10))
    assert markup.render(many, embed).count("<svg") == markup.MAX_EMBEDS


def test_the_caption_is_text_and_markers_cannot_be_forged():
    out = markup.render('[<b>x</b> "q"](/games/3)', embed)
    assert "<b>" not in out and "&lt;b&gt;" in out
    # Whatever an author writes, only the boards found while rendering are put in.
    forged = markup.render("board0123456789abcdefx0\n\n<p>board0x0</p>", embed)
    assert "<svg" not in forged


def test_plain_markdown_survives_cleaning():
    out = markup.render("# Title\n\n**b** *i* ~~s~~ `c`\n\n1. one\n2. two", None)
    for tag in ("<h3>", "<strong>", "<em>", "<s>", "<code>", "<ol>", "<li>"):
        assert tag in out
