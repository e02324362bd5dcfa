"""The operator's contact, privacy and terms pages: linked from /about, their text from the
folder ``--site-pages`` names (per language where given), the club's default otherwise,
and a folder that is not there refused before the club starts."""

from __future__ import annotations

import pytest

from ludoteca.cli.main import main as cli
from ludoteca.web.help.site_pages import PAGES
from tests.web.inprocess import TestClient


def club(tmp_path, pages=None) -> TestClient:
    from ludoteca.web.app import create_app

    return TestClient(create_app(f"sqlite:///{tmp_path / 'club.sqlite3'}", site_pages=pages))


@pytest.fixture(scope="module")
def default_club(tmp_path_factory):
    with club(tmp_path_factory.mktemp("default")) as client:
        yield client


@pytest.mark.parametrize("code", ["en", "de", "ja"])
def test_about_links_the_operators_pages_and_each_has_a_default(default_club, code):
    about = default_club.get(f"/about?lang={code}").text
    for name in PAGES:
        assert f'href="/{name}"' in about.split('id="operator-pages"', 1)[1].split("</p>")[0]
        page = default_club.get(f"/{name}?lang={code}")
        assert page.status_code == 200 and 'id="default-text"' in page.text
    privacy = default_club.get(f"/privacy?lang={code}").text
    assert {"en": "Argon2 hash", "de": "Argon2-Hash", "ja": "Argon2ハッシュ"}[code] in privacy


def test_the_operators_own_words_in_the_readers_language(tmp_path):
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "contact.md").write_text("Write to **club@example.org**.\n\n<script>x()</script>")
    (folder / "contact.de.md").write_text("Schreib an **club@example.org**.")
    (folder / "terms.md").write_text("# Rules\n\n- be kind\n")
    with club(tmp_path, folder) as client:
        english = client.get("/contact?lang=en").text
        assert "<strong>club@example.org</strong>" in english and "<script>x()" not in english
        assert 'id="default-text"' not in english
        assert "Schreib an" in client.get("/contact?lang=de").text
        assert "Write to" in client.get("/contact?lang=ja").text  # no Japanese file: theirs
        assert "<li>be kind</li>" in client.get("/terms").text
        assert 'id="default-text"' in client.get("/privacy").text  # no file: the default
        (folder / "privacy.md").write_text("Nothing is kept.")
        assert "Nothing is kept." in client.get("/privacy").text  # read when asked for


def test_a_site_pages_folder_that_is_not_there_is_refused(tmp_path, capsys):
    from ludoteca.web.app import create_app

    with pytest.raises(ValueError, match="is not a folder"):
        create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", site_pages=tmp_path / "nope")
    url = f"sqlite:///{tmp_path / 'd.sqlite3'}"
    assert cli(["serve", "--database", url, "--site-pages", str(tmp_path / "nope")]) == 2
    assert "is not a folder" in capsys.readouterr().err
