"""Words in the club's plots (matplotlib) in the reader's language.

matplotlib's own font (DejaVu Sans) has no Japanese glyphs; where a CJK font is installed
(Debian's ``fonts-noto-cjk``) it is added behind it, and matplotlib takes each glyph from
the first font of the list that has it."""

from __future__ import annotations

from functools import cache

CJK_FONTS = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "TakaoGothic")


@cache
def plot_fonts() -> None:
    """Set matplotlib's sans-serif list once: its default font, then an installed CJK one."""
    import matplotlib
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    extra = [name for name in CJK_FONTS if name in installed][:1]
    matplotlib.rcParams["font.family"] = ["sans-serif"]
    matplotlib.rcParams["font.sans-serif"] = ["DejaVu Sans", *extra]
