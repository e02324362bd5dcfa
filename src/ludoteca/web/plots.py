"""The club's plots as small SVG drawings whose words stay text.

A plot drawn into an image carries the fonts and colours of the machine that drew it: the
server's font had no Japanese glyphs, and a white picture sat in the dark theme. These plots
are SVG written into the page itself: their labels are ``<text>`` the browser sets in the
page's fonts, their colours are the page's CSS variables (classes ``plot-*`` in
``static/style.css``), and each has a title and description for screen readers, beside a
table of its numbers on the page. Tick positions come from matplotlib's locator (only the
arithmetic: nothing is rendered by it).

Each function returns ``None`` when there is nothing to draw, so the page says so in words
instead of showing empty axes.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from markupsafe import Markup

WIDTH = 700
FONT = 12
"""Pixels of the plots' text (the CSS sets the same size)."""
SERIES = 6
"""Colours of the palette (classes ``plot-s0`` …); series beyond it reuse them."""
_ids = itertools.count(1)

STANDALONE_STYLE = """
svg { --ink: #1f2328; --muted: #62666d; --line-soft: #e4e1da; --surface: #fff;
  --plot-0: #2f6f4e; --plot-1: #c4622d; --plot-2: #3b6fb6; --plot-3: #8a4fa3;
  --plot-4: #b08d00; --plot-5: #5f6b78; background: var(--surface);
  font: 12px system-ui, sans-serif; }
@media (prefers-color-scheme: dark) { svg { --ink: #e7e7e4; --muted: #a6abb2;
  --line-soft: #2c3037; --surface: #1f2227; --plot-0: #7fd1a6; --plot-1: #f0a070;
  --plot-2: #8fb8f0; --plot-3: #d3a4e8; --plot-4: #f0c14b; --plot-5: #b5bec9; } }
"""
"""The colours a plot opened on its own (``/stats/first.svg``) takes: the page's, light and
dark, as ``static/style.css`` gives them to a plot inside a page."""

PLOT_STYLE = (
    """
.plot text { fill: var(--ink); font-size: 12px; }
.plot .plot-title { font-size: 14px; font-weight: 600; }
.plot .plot-muted { fill: var(--muted); }
.plot .plot-grid { stroke: var(--line-soft); stroke-width: 1; }
.plot .plot-axis { stroke: var(--muted); stroke-width: 1; fill: none; }
.plot .plot-even { stroke: var(--muted); stroke-width: 2; }
"""
    + "".join(
        f".plot .plot-s{i} {{ fill: var(--plot-{i}); stroke: var(--plot-{i}); }}\n"
        f".plot .plot-band.plot-s{i} {{ fill-opacity: .15; stroke: none; }}\n"
        for i in range(SERIES)
    )
    + ".plot .plot-line { fill: none; stroke-width: 2; }\n"
)


def text_width(text: str, size: float = FONT) -> float:
    """An estimate of ``text``'s width in pixels: wide (East Asian) characters take a full
    em, others about 0.6 of one. Enough to leave room for labels without measuring fonts."""
    return sum(size if unicodedata.east_asian_width(ch) in "WF" else 0.6 * size for ch in text)


def nice_ticks(low: float, high: float, *, integer: bool = False, bins: int = 5) -> list[float]:
    """Round tick values covering ``[low, high]``, by matplotlib's ``MaxNLocator``."""
    from matplotlib.ticker import MaxNLocator

    if not (math.isfinite(low) and math.isfinite(high)):
        raise ValueError(f"axis limits must be finite, not {low!r} and {high!r}")
    if high <= low:
        high = low + 1
    values = MaxNLocator(nbins=bins, integer=integer, min_n_ticks=2).tick_values(low, high)
    return [float(v) for v in values]


@dataclass
class _Svg:
    """An SVG drawing being written: its elements in order."""

    height: float
    title: str
    description: str
    parts: list[str]

    def __init__(self, height: float, title: str, description: str) -> None:
        self.height = height
        self.title = title
        self.description = description
        self.parts = []

    def add(self, element: str, **attributes: object) -> None:
        self.parts.append(f"<{element}{_attrs(attributes)}/>")

    def text(self, x: float, y: float, words: str, **attributes: object) -> None:
        self.parts.append(f"<text{_attrs({'x': x, 'y': y, **attributes})}>{escape(words)}</text>")

    def render(self, standalone: bool = False) -> Markup:
        n = next(_ids)
        head = (
            f'<svg class="plot" xmlns="http://www.w3.org/2000/svg" role="img" '
            f'viewBox="0 0 {WIDTH} {_n(self.height)}" width="{WIDTH}" height="{_n(self.height)}" '
            f'aria-labelledby="plot-title-{n} plot-desc-{n}">'
            f'<title id="plot-title-{n}">{escape(self.title)}</title>'
            f'<desc id="plot-desc-{n}">{escape(self.description)}</desc>'
        )
        style = f"<style>{STANDALONE_STYLE if standalone else ''}{PLOT_STYLE}</style>"
        return Markup(head + style + "".join(self.parts) + "</svg>")


def _n(value: float) -> str:
    return f"{value:.1f}".removesuffix(".0")


def _attrs(attributes: dict[str, object]) -> str:
    out = []
    for key, value in attributes.items():
        name = key.rstrip("_").replace("_", "-")
        shown = _n(value) if isinstance(value, float) else str(value)
        out.append(f' {name}="{escape(shown)}"')
    return "".join(out)


def _legend(svg: _Svg, names: Sequence[str], left: float, top: float) -> float:
    """Swatches and names in rows from ``(left, top)``; returns the height they took."""
    x, y = left, top
    for i, name in enumerate(names):
        width = 16 + text_width(name) + 18
        if x + width > WIDTH - 10 and x > left:
            x, y = left, y + FONT + 8
        svg.add("rect", x=x, y=y, width=10, height=10, class_=f"plot-s{i % SERIES}")
        svg.text(x + 14, y + 10, name, class_="plot-legend")
        x += width
    return y + FONT + 8 - top


def bar_chart(
    title: str,
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    y_label: str,
    description: str,
    number: Callable[[float], str] = lambda v: f"{v:g}",
    standalone: bool = False,
) -> Markup | None:
    """Bars of counts stacked by series (``series``: name and one count per category)."""
    if not categories or not series:
        return None
    totals = [sum(values[i] for _, values in series) for i in range(len(categories))]
    if not any(totals):
        return None
    svg = _Svg(330, title, description)
    svg.text(WIDTH / 2, 18, title, class_="plot-title", text_anchor="middle")
    legend = _legend(svg, [name for name, _ in series], 60, 30)
    ticks = nice_ticks(0, max(totals), integer=True)
    labels = [number(t) for t in ticks]
    left = 30 + max(text_width(label) for label in labels) + 8
    top, bottom, right = 30 + legend + 8, svg.height - 60, WIDTH - 12
    y_of = _scale(0, ticks[-1], bottom, top)
    _y_axis(svg, ticks, labels, y_of, left, right, y_label, (top + bottom) / 2)
    slot = (right - left) / len(categories)
    bar = min(40.0, slot * 0.7)
    for i, category in enumerate(categories):
        x = left + slot * i + (slot - bar) / 2
        base = 0
        for s, (name, values) in enumerate(series):
            value = values[i]
            if value:
                svg.add(
                    "rect",
                    x=x,
                    y=y_of(base + value),
                    width=bar,
                    height=y_of(base) - y_of(base + value),
                    class_=f"plot-s{s % SERIES}",
                    data_series=name,
                    data_category=category,
                    data_value=value,
                )
            base += value
        cx, cy = x + bar / 2, bottom + 14
        svg.text(cx, cy, category, text_anchor="end", transform=f"rotate(-45 {_n(cx)} {_n(cy)})")
    svg.add("line", x1=left, y1=bottom, x2=right, y2=bottom, class_="plot-axis")
    return svg.render(standalone)


def interval_chart(
    title: str,
    rows: Sequence[tuple[str, float, float, float, float]],
    *,
    x_label: str,
    description: str,
    percent: Callable[[float], str],
    standalone: bool = False,
) -> Markup | None:
    """A dot and its interval per row (label, value, low, high, mark), on a 0–1 axis; the
    mark (an even share) is a short grey stroke."""
    if not rows:
        return None
    label_width = max(text_width(label) for label, *_ in rows)
    left = min(12 + label_width + 10, WIDTH / 2)
    right, top, step = WIDTH - 24, 40.0, 28.0
    bottom = top + step * len(rows)
    svg = _Svg(bottom + 50, title, description)
    svg.text(WIDTH / 2, 18, title, class_="plot-title", text_anchor="middle")
    x_of = _scale(0, 1, left, right)
    for tick in nice_ticks(0, 1):
        x = x_of(tick)
        svg.add("line", x1=x, y1=top, x2=x, y2=bottom, class_="plot-grid")
        svg.text(x, bottom + 16, percent(tick), text_anchor="middle")
    for i, (label, value, low, high, mark) in enumerate(rows):
        y = top + step * (i + 0.5)
        low, value, high = (min(1.0, max(0.0, v)) for v in (low, value, high))
        svg.text(left - 10, y + 4, label, text_anchor="end")
        svg.add("line", x1=x_of(mark), y1=y - 9, x2=x_of(mark), y2=y + 9, class_="plot-even")
        svg.add("line", x1=x_of(low), y1=y, x2=x_of(high), y2=y, class_="plot-line plot-s0")
        for end in (low, high):
            svg.add("line", x1=x_of(end), y1=y - 5, x2=x_of(end), y2=y + 5, class_="plot-s0")
        svg.add("circle", cx=x_of(value), cy=y, r=4.5, class_="plot-s0", data_value=f"{value:.6g}")
    svg.add("line", x1=left, y1=bottom, x2=right, y2=bottom, class_="plot-axis")
    svg.text((left + right) / 2, bottom + 36, x_label, text_anchor="middle", class_="plot-muted")
    return svg.render(standalone)


def line_chart(
    title: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    *,
    x_label: str,
    y_label: str,
    description: str,
    number: Callable[[float], str] = lambda v: f"{v:g}",
    standalone: bool = False,
) -> Markup | None:
    """A line per series over its points' order (1, 2, …), each point a value and the
    half-width of a band around it."""
    series = [(name, points) for name, points in series if points]
    if not series:
        return None
    svg = _Svg(340, title, description)
    svg.text(WIDTH / 2, 18, title, class_="plot-title", text_anchor="middle")
    legend = _legend(svg, [name for name, _ in series], 60, 30)
    lows = [v - abs(b) for _, points in series for v, b in points]
    highs = [v + abs(b) for _, points in series for v, b in points]
    ticks = nice_ticks(min(lows), max(highs))
    labels = [number(t) for t in ticks]
    left = 30 + max(text_width(label) for label in labels) + 8
    top, bottom, right = 30 + legend + 8, svg.height - 44, WIDTH - 16
    y_of = _scale(ticks[0], ticks[-1], bottom, top)
    _y_axis(svg, ticks, labels, y_of, left, right, y_label, (top + bottom) / 2)
    longest = max(len(points) for _, points in series)
    x_of = _scale(0.5, longest + 0.5, left, right)
    for tick in nice_ticks(1, max(longest, 2), integer=True):
        if 1 <= tick <= longest:
            svg.text(x_of(tick), bottom + 16, number(tick), text_anchor="middle")
    for s, (name, points) in enumerate(series):
        colour = f"plot-s{s % SERIES}"
        xs = [x_of(i + 1) for i in range(len(points))]
        upper = [f"{_n(x)},{_n(y_of(v + abs(b)))}" for x, (v, b) in zip(xs, points, strict=True)]
        lower = [f"{_n(x)},{_n(y_of(v - abs(b)))}" for x, (v, b) in zip(xs, points, strict=True)]
        if len(points) > 1:
            svg.add("polygon", points=" ".join(upper + lower[::-1]), class_=f"plot-band {colour}")
            line = " ".join(f"{_n(x)},{_n(y_of(v))}" for x, (v, _) in zip(xs, points, strict=True))
            svg.add("polyline", points=line, class_=f"plot-line {colour}")
        for x, (v, _) in zip(xs, points, strict=True):
            svg.add(
                "circle",
                cx=x,
                cy=y_of(v),
                r=3,
                class_=colour,
                data_series=name,
                data_value=f"{v:.6g}",
            )
    svg.add("line", x1=left, y1=bottom, x2=right, y2=bottom, class_="plot-axis")
    svg.text((left + right) / 2, bottom + 34, x_label, text_anchor="middle", class_="plot-muted")
    return svg.render(standalone)


def _scale(low: float, high: float, start: float, end: float) -> Callable[[float], float]:
    span = (high - low) or 1.0
    return lambda v: start + (v - low) / span * (end - start)


def _y_axis(svg, ticks, labels, y_of, left, right, y_label, middle) -> None:
    for tick, label in zip(ticks, labels, strict=True):
        y = y_of(tick)
        svg.add("line", x1=left, y1=y, x2=right, y2=y, class_="plot-grid")
        svg.text(left - 6, y + 4, label, text_anchor="end")
    svg.text(
        14,
        middle,
        y_label,
        text_anchor="middle",
        class_="plot-muted",
        transform=f"rotate(-90 14 {_n(middle)})",
    )
