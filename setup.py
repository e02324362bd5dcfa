"""Build hook: a built package (wheel, sdist install) carries the translations compiled.

The catalogs are kept as ``.po`` in the repository; ``make catalogs`` compiles them for a
checkout, and this compiles them into the build for everyone who installs with pip. All the
project's metadata is in ``pyproject.toml``."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALES = Path("src/ludoteca/web/i18n/locale")


class BuildWithCatalogs(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(LOCALES.glob("*/LC_MESSAGES/messages.po")):
            target = Path(self.build_lib) / po.relative_to("src").with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parts[-3])
            with target.open("wb") as out:
                write_mo(out, catalog)


setup(cmdclass={"build_py": BuildWithCatalogs})
