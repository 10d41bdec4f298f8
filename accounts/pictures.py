"""The picture grid of student picture passwords.

A child taps a short sequence of pictures from a small grid. The keys are stored (hashed, in
canonical form); the labels are what a screen reader says and what a teacher reads on a login card.

Each picture is drawn here once, in simple shapes that print well in colour and in grey, and is
shown the same way on the printed login card (PDF) and on the sign-in page (SVG): a child looks on
the screen for the very picture on their card, and no device's emoji font is needed (a device
without one showed empty boxes where the pictures should be).
"""

import functools
import math

from django.utils.translation import gettext_lazy as _
from reportlab.graphics import renderSVG
from reportlab.graphics.shapes import Circle, Drawing, Ellipse, Group, Line, Polygon, Rect
from reportlab.lib import colors

# key -> (emoji, spoken label). Nine pictures: easy to tell apart and to name aloud. The emoji is
# one more way a teacher may type a picture when setting a password.
PICTURES = {
    "cat": ("🐱", _("cat")),
    "dog": ("🐶", _("dog")),
    "fish": ("🐟", _("fish")),
    "apple": ("🍎", _("apple")),
    "star": ("⭐", _("star")),
    "sun": ("☀️", _("sun")),
    "tree": ("🌳", _("tree")),
    "car": ("🚗", _("car")),
    "ball": ("⚽", _("ball")),
}
PICTURE_SEQUENCE_LENGTH = (3, 5)  # how many taps a picture password has, at least and at most
PIN_LENGTH = (4, 6)


def picture_drawing(key: str, side: float = 100) -> Drawing:
    """The picture ``key`` in a square of ``side`` points (a ``KeyError`` for an unknown key)."""
    group = Group(*_SHAPES[key]())
    group.scale(side / 100, side / 100)  # the shapes are drawn on a 100 x 100 grid
    drawing = Drawing(side, side)
    drawing.add(group)
    return drawing


@functools.cache
def picture_svg(key: str) -> str:
    return renderSVG.drawToString(picture_drawing(key))


# Outlines are black and 3 units wide unless a shape says otherwise.
def _shape(kind, *args, **style):
    return kind(*args, **{"strokeColor": colors.black, "strokeWidth": 3, **style})


def _filled(kind, *args, fill, **style):
    return _shape(kind, *args, fillColor=fill, **style)


def _spot(cx, cy, r, fill=colors.black):
    return Circle(cx, cy, r, fillColor=fill, strokeColor=None)


def _sun():
    rays = [(1, 0), (0.7, 0.7), (0, 1), (-0.7, 0.7), (-1, 0), (-0.7, -0.7), (0, -1)]
    return [
        *(
            _shape(
                Line, 50 + 30 * dx, 50 + 30 * dy, 50 + 46 * dx, 50 + 46 * dy,
                strokeColor=colors.orange, strokeWidth=6,
            )
            for dx, dy in rays
        ),
        _shape(Line, 71, 29, 83, 17, strokeColor=colors.orange, strokeWidth=6),
        _spot(50, 50, 24, colors.gold),
    ]  # fmt: skip


def _star():
    points = []
    for n in range(10):
        radius = 48 if n % 2 == 0 else 20
        angle = math.pi / 2 + n * math.pi / 5
        points += [50 + radius * math.cos(angle), 48 + radius * math.sin(angle)]
    return [_filled(Polygon, points, fill=colors.gold)]


def _apple():
    return [
        _filled(Ellipse, 50, 43, 38, 37, fill=colors.red),
        _shape(Line, 50, 76, 54, 96, strokeColor=colors.saddlebrown, strokeWidth=6),
        _filled(Ellipse, 70, 89, 14, 7, fill=colors.green, strokeWidth=2),
    ]


def _ball():
    corners = [
        (50 + 17 * math.cos(math.pi / 2 + k * 2 * math.pi / 5),
         50 + 17 * math.sin(math.pi / 2 + k * 2 * math.pi / 5))
        for k in range(5)
    ]  # fmt: skip
    return [
        _filled(Circle, 50, 50, 45, fill=colors.white),
        _filled(Polygon, [value for corner in corners for value in corner], fill=colors.black),
        *(_shape(Line, cx, cy, 50 + (cx - 50) * 2.6, 50 + (cy - 50) * 2.6) for cx, cy in corners),
    ]


def _tree():
    return [
        _filled(Rect, 42, 4, 16, 40, fill=colors.saddlebrown),
        *(
            _filled(Circle, cx, cy, r, fill=colors.forestgreen)
            for cx, cy, r in ((32, 52, 22), (68, 52, 22), (50, 72, 26))
        ),
    ]


def _car():
    return [
        _filled(Polygon, [26, 50, 36, 72, 66, 72, 78, 50], fill=colors.royalblue),
        _filled(Rect, 4, 24, 92, 28, rx=8, ry=8, fill=colors.royalblue),
        _spot(26, 22, 11),
        _spot(74, 22, 11),
    ]


def _fish():
    return [
        _filled(Polygon, [70, 50, 96, 72, 96, 28], fill=colors.deepskyblue),
        _filled(Ellipse, 41, 50, 37, 24, fill=colors.deepskyblue),
        _spot(24, 54, 5),
    ]


def _cat():
    return [
        _filled(Polygon, [20, 60, 26, 96, 46, 74], fill=colors.orange),
        _filled(Polygon, [80, 60, 74, 96, 54, 74], fill=colors.orange),
        _filled(Circle, 50, 46, 36, fill=colors.orange),
        _spot(37, 52, 5),
        _spot(63, 52, 5),
        *(
            _shape(Line, x1, 36 + dy, x2, 38, strokeWidth=2)
            for dy in (-6, 0, 6)
            for x1, x2 in ((4, 34), (96, 66))
        ),
    ]


def _dog():
    return [
        _filled(Circle, 50, 48, 36, fill=colors.tan),
        _filled(Ellipse, 14, 54, 12, 30, fill=colors.saddlebrown),
        _filled(Ellipse, 86, 54, 12, 30, fill=colors.saddlebrown),
        _spot(38, 56, 5),
        _spot(62, 56, 5),
        Ellipse(50, 36, 8, 6, fillColor=colors.black, strokeColor=None),
    ]


_SHAPES = {
    "sun": _sun,
    "star": _star,
    "apple": _apple,
    "ball": _ball,
    "tree": _tree,
    "car": _car,
    "fish": _fish,
    "cat": _cat,
    "dog": _dog,
}
