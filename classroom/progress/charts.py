"""Charts drawn on the server as inline SVG: no script, crisp at any size, printable.

Each chart is an image to assistive technology (``role="img"`` named by its ``<title>`` and
described by its ``<desc>``); the pages put a data table beside every chart for the figures
themselves. Colours are the Okabe-Ito set (told apart with colour blindness) and every line also
has its own dash pattern and marker shape, so nothing rests on colour alone.

In a language written right to left a chart is mirrored, as the page around it: its SVG says
``direction="rtl"``, the bars grow from the right with their labels on the right, and the weeks
run from the right. An anchor then names an end of the text in that direction (``start`` is
its right end), as browsers read it; the PDF turns them into sides (report_files._as_drawn).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language_bidi

INK = "#1d2433"
GRID = "#c9d1dc"
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DASHES = ("", "8 4", "2 4", "10 3 2 3", "4 4", "1 3")
MARKERS = ("circle", "square", "triangle", "diamond", "circle", "square")
# The pages' widths, in the SVG's own units (pixels at full size); the PDF asks for narrower ones.
BAR_CHART_WIDTH = 630
LINE_CHART_WIDTH = 640
LEGEND_COLUMN = 190  # a legend's columns are this far apart...
LEGEND_ENTRY = 186  # ...and an entry needs this much: the line, its marker, some 20 characters


@dataclass(frozen=True)
class Bar:
    label: str
    value: float | None  # None: no data (drawn as a dash)
    text: str  # the value as shown at the bar's end, e.g. "75%"


@dataclass(frozen=True)
class Series:
    name: str
    values: list[float | None]  # one per x label; None leaves a gap
    emphasis: bool = False


def _mirror(width: float):
    """x as drawn: as it is left to right, from the right edge right to left."""
    if get_language_bidi():
        return lambda x: width - x
    return lambda x: x


def _svg(chart_id: str, title: str, desc: str, width: int, height: int, body: list[str]):
    direction = ' direction="rtl"' if get_language_bidi() else ""
    return mark_safe(
        f'<svg class="chart" id="{escape(chart_id)}" role="img"{direction} '
        f'aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc" '
        f'viewBox="0 0 {width} {height}" preserveAspectRatio="xMinYMin meet" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(desc)}</desc>' + "".join(body) + "</svg>"
    )


def _number(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def bar_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    bars: list[Bar],
    max_value: float,
    ticks: list[tuple[float, str]],
    colour: str = PALETTE[0],
    width: int = BAR_CHART_WIDTH,
) -> SafeString:
    """Horizontal bars, one per row, labelled on the left, value written at the end."""
    label_width, value_width, row = 230, 70, 30
    bar_width = width - label_width - value_width
    top, bottom = 8, 26
    height = top + row * max(len(bars), 1) + bottom
    body = []
    scale = bar_width / max_value if max_value else 0
    mx = _mirror(width)
    for value, text in ticks:
        x = mx(label_width + value * scale)
        body.append(
            f'<line x1="{_number(x)}" y1="{top}" x2="{_number(x)}" y2="{height - bottom}" '
            f'stroke="{GRID}" stroke-width="1"/>'
            f'<text x="{_number(x)}" y="{height - 8}" font-size="12" text-anchor="middle" '
            f'fill="{INK}">{escape(text)}</text>'
        )
    for index, bar in enumerate(bars):
        y = top + index * row
        body.append(
            f'<text x="{_number(mx(label_width - 8))}" y="{y + 20}" font-size="14" '
            f'text-anchor="end" '
            f'fill="{INK}">{escape(bar.label)}</text>'
        )
        if bar.value is not None:
            length = max(0.0, min(bar.value, max_value)) * scale
            body.append(
                f'<rect x="{_number(min(mx(label_width), mx(label_width + length)))}" '
                f'y="{y + 6}" width="{_number(length)}" height="18" '
                f'rx="3" fill="{colour}"/>'
            )
            end = label_width + length + 6
        else:
            end = label_width + 6
        body.append(
            f'<text x="{_number(mx(end))}" y="{y + 20}" font-size="13" fill="{INK}">'
            f"{escape(bar.text)}</text>"
        )
    return _svg(chart_id, title, desc, width, height, body)


def _marker(shape: str, x: float, y: float, colour: str) -> str:
    if shape == "square":
        corner = f'x="{_number(x - 4)}" y="{_number(y - 4)}"'
        return f'<rect {corner} width="8" height="8" fill="{colour}"/>'
    if shape == "triangle":
        points = f"{_number(x)},{_number(y - 5)} {_number(x - 5)},{_number(y + 4)} " + (
            f"{_number(x + 5)},{_number(y + 4)}"
        )
        return f'<polygon points="{points}" fill="{colour}"/>'
    if shape == "diamond":
        points = (
            f"{_number(x)},{_number(y - 5)} {_number(x + 5)},{_number(y)} "
            f"{_number(x)},{_number(y + 5)} {_number(x - 5)},{_number(y)}"
        )
        return f'<polygon points="{points}" fill="{colour}"/>'
    return f'<circle cx="{_number(x)}" cy="{_number(y)}" r="4.5" fill="{colour}"/>'


def line_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    x_labels: list[str],
    series: list[Series],
    max_value: float,
    ticks: list[tuple[float, str]],
    width: int = LINE_CHART_WIDTH,
) -> SafeString:
    """Lines over evenly spaced x labels (weeks), a legend underneath."""
    left, right, top, plot_height = 52, 16, 12, 200
    plot_width = width - left - right
    columns = 1 + max(0, (width - left - LEGEND_ENTRY) // LEGEND_COLUMN)
    legend_rows = -(-len(series) // columns)
    height = top + plot_height + 34 + legend_rows * 22
    body = []
    count = max(len(x_labels), 1)
    step = plot_width / count
    mx = _mirror(width)

    def x_of(index: int) -> float:
        return mx(left + step * (index + 0.5))

    def y_of(value: float) -> float:
        return top + plot_height * (1 - max(0.0, min(value, max_value)) / max_value)

    for value, text in ticks:
        y = y_of(value)
        body.append(
            f'<line x1="{_number(mx(left))}" y1="{_number(y)}" x2="{_number(mx(width - right))}" '
            f'y2="{_number(y)}" '
            f'stroke="{GRID}" stroke-width="1"/>'
            f'<text x="{_number(mx(left - 6))}" y="{_number(y + 4)}" font-size="12" '
            f'text-anchor="end" '
            f'fill="{INK}">{escape(text)}</text>'
        )
    # Label every week when they fit, else every n-th, so that dates never overlap.
    every = max(1, -(-count * 56 // plot_width))
    for index, label in enumerate(x_labels):
        if index % every == 0:
            body.append(
                f'<text x="{_number(x_of(index))}" y="{top + plot_height + 18}" font-size="12" '
                f'text-anchor="middle" fill="{INK}">{escape(label)}</text>'
            )
    for number, line in enumerate(series):
        colour = INK if line.emphasis else PALETTE[number % len(PALETTE)]
        dash = "" if line.emphasis else DASHES[number % len(DASHES)]
        shape = "circle" if line.emphasis else MARKERS[number % len(MARKERS)]
        stroke = 3.5 if line.emphasis else 2
        runs, run = [], []
        for index, value in enumerate(line.values):
            if value is None:
                if run:
                    runs.append(run)
                run = []
            else:
                run.append((x_of(index), y_of(value)))
        if run:
            runs.append(run)
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        for points in runs:
            if len(points) > 1:
                path = " ".join(f"{_number(x)},{_number(y)}" for x, y in points)
                body.append(
                    f'<polyline points="{path}" fill="none" stroke="{colour}" '
                    f'stroke-width="{stroke}"{dash_attr}/>'
                )
            body.extend(_marker(shape, x, y, colour) for x, y in points)
        legend_x = left + (number % columns) * LEGEND_COLUMN
        line_ends = sorted((mx(legend_x), mx(legend_x + 28)))
        legend_y = top + plot_height + 40 + (number // columns) * 22
        body.append(
            f'<line x1="{_number(line_ends[0])}" y1="{legend_y}" x2="{_number(line_ends[1])}" '
            f'y2="{legend_y}" '
            f'stroke="{colour}" stroke-width="{stroke}"{dash_attr}/>'
            + _marker(shape, mx(legend_x + 14), legend_y, colour)
            + f'<text x="{_number(mx(legend_x + 36))}" y="{legend_y + 5}" font-size="13" '
            f'fill="{INK}">'
            f"{escape(line.name)}</text>"
        )
    return _svg(chart_id, title, desc, width, height, body)
