"""The pages mirror for a right-to-left language (Arabic) because no style names a physical side:
the sheets, the templates' inline styles and the styles the scripts set use logical properties
(margin-inline-start, inset-inline-end, text-align: start, border-start-start-radius...), so a page
with ``dir="rtl"`` lays itself out from the right (docs/translations.md, "Right to left").

A style that names a side, or that means one without naming it (a four-value margin whose left and
right differ, a corner radius on one side, a sideways shadow or shift, a triangle that points the
reading way), fails here, unless it is in ``PHYSICAL`` below with the reason it must stay
physical."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHEETS = sorted((ROOT / "static/css").rglob("*.css"))
SCRIPTS = sorted((ROOT / "static/js").rglob("*.js"))
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))

# (sheet, selector, property) -> why the direction stays physical there. Keep it short.
PHYSICAL = {
    # The marks that point the reading way (a disclosure's triangle, the player whose turn it is):
    # one pair for a left-to-right page, its mirror for a right-to-left one.
    ("site.css", ":root", "--forward-mark"): "points the reading way",
    ("site.css", ":root", "--turn-mark"): "points the reading way",
    ("site.css", ':root[dir="rtl"]', "--forward-mark"): "its mirror",
    ("site.css", ':root[dir="rtl"]', "--turn-mark"): "its mirror",
}

SIDE_WORD = re.compile(r"\b(left|right)\b", re.I)
# Properties whose four values go top, right, bottom, left.
FOUR_SIDES = {
    "margin",
    "padding",
    "inset",
    "border-width",
    "border-style",
    "border-color",
    "scroll-margin",
    "scroll-padding",
}
ARROWS = set("▸▶►→⇒◂◀◄←⇐▹▷◃◁")
SIDEWAYS_TRANSFORM = re.compile(r"\b(translateX|skewX|skew|rotate|rotateZ|scaleX)\(\s*([^)]*)\)")


def _declarations(css: str):
    """(selector, property, value) of every declaration, comments left out; at-rules' blocks
    (@media, @supports) are read through, @keyframes' steps too."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    selectors: list[str] = []
    for token in re.finditer(r"([^{};]*)([{};])", css):
        text, mark = token.group(1).strip(), token.group(2)
        if mark == "{":
            selectors.append(" ".join(text.split()))
        elif mark == "}":
            if text:
                yield from _declaration(selectors[-1] if selectors else "", text)
            if selectors:
                selectors.pop()
        elif text:
            yield from _declaration(selectors[-1] if selectors else "", text)


def _declaration(selector: str, text: str):
    if ":" in text:
        name, value = text.split(":", 1)
        yield selector, name.strip().lower(), value.replace("!important", "").strip()


def _zero(length: str) -> bool:
    return re.fullmatch(r"[-+]?0+(\.0*)?[a-z%]*", length.strip()) is not None


def _values(value: str) -> list[str]:
    return re.findall(r"[^\s(]+(?:\([^)]*\))?", value)


def physical(prop: str, value: str) -> str | None:
    """Why this declaration names or means a physical side, or None."""
    if SIDE_WORD.search(prop):
        return f"the property {prop} names a side"
    if prop == "direction" or (prop == "unicode-bidi" and "override" in value):
        return "it fixes the direction"
    if SIDE_WORD.search(value) and prop not in {"content", "grid-template-areas", "grid-area"}:
        return f"the value {value!r} names a side"
    if prop in FOUR_SIDES:
        parts = _values(value)
        if len(parts) == 4 and parts[1] != parts[3]:
            return f"{prop}: {value} differs left and right"
    if prop == "border-radius":
        corners = _values(value.split("/")[0])
        corners = (corners * 4)[:4] if len(corners) == 1 else corners
        full = {2: lambda c: [c[0], c[1], c[0], c[1]], 3: lambda c: [c[0], c[1], c[2], c[1]]}
        corners = full.get(len(corners), lambda c: c)(corners)
        if len(corners) == 4 and (corners[0] != corners[1] or corners[2] != corners[3]):
            return f"border-radius: {value} is rounder on one side"
    if prop in {"box-shadow", "text-shadow"}:
        for shadow in re.split(r",(?![^(]*\))", value):
            lengths = [p for p in _values(shadow) if re.match(r"^[-+]?[\d.]", p)]
            if lengths and not _zero(lengths[0]):
                return f"{prop}: {value} casts sideways"
    if prop == "transform":
        for name, arguments in SIDEWAYS_TRANSFORM.findall(value):
            first = arguments.split(",")[0]
            if name == "scaleX" and not first.strip().startswith("-"):
                continue
            if not _zero(first):
                return f"transform: {value} moves or turns sideways"
        for arguments in re.findall(r"\btranslate\(\s*([^)]*)\)", value):
            if not _zero(arguments.split(",")[0].split()[0]):
                return f"transform: {value} moves sideways"
    positions = {"background-position", "background-position-x", "object-position"}
    if prop in positions and value.split()[0] not in {"center", "top", "bottom", "50%"}:
        return f"{prop}: {value} sits on a side"
    if (prop == "content" or prop.startswith("--")) and ARROWS & set(value):
        return f"content: {value} points one way"
    return None


def _found(sheets) -> list[str]:
    found = []
    for sheet in sheets:
        name = sheet.relative_to(ROOT / "static/css").as_posix()
        for selector, prop, value in _declarations(sheet.read_text(encoding="utf-8")):
            why = physical(prop, value)
            if why and (name, selector, prop) not in PHYSICAL:
                found.append(f"{name}: {selector} {{ {prop}: {value} }}: {why}")
    return found


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_style_sheet_names_a_physical_side(sheet):
    assert _found([sheet]) == []


def test_every_physical_exception_is_still_there():
    """An allowed exception whose rule is gone leaves the list (it would hide a new one)."""
    present = {
        (sheet.relative_to(ROOT / "static/css").as_posix(), selector, prop)
        for sheet in SHEETS
        for selector, prop, _value in _declarations(sheet.read_text(encoding="utf-8"))
    }
    assert sorted(set(PHYSICAL) - present) == []


@pytest.mark.parametrize(
    "declaration",
    [
        "margin-left: 1rem",
        "padding-right: 0",
        "left: 0.5rem",
        "text-align: left",
        "float: right",
        "border-left: 6px solid red",
        "border-top-left-radius: 4px",
        "margin: 0 1rem 0 0",
        "border-radius: 1rem 0 0 1rem",
        "box-shadow: 2px 0 0 red",
        "transform: translateX(4px)",
        "transform: translate(4px, 0)",
        "background-position: left top",
        'content: "▸"',
        "background: linear-gradient(to right, red, blue)",
    ],
)
def test_the_check_catches_each_kind_of_physical_side(declaration):
    prop, value = declaration.split(":", 1)
    assert physical(prop.strip(), value.strip()), declaration


@pytest.mark.parametrize(
    "declaration",
    [
        "margin-inline-start: 1rem",
        "inset-inline-start: 0.5rem",
        "text-align: start",
        "border-inline-start: 6px solid red",
        "margin: 0 1rem",
        "margin: 0.1rem 0.25rem 0.1rem 0.25rem",
        "border-radius: 999px",
        "box-shadow: 0 0 0 3px red",
        "transform: translateY(-4px) scale(0.9)",
        'grid-template-areas: "bar bar" "total tables"',
    ],
)
def test_the_check_lets_logical_styles_pass(declaration):
    prop, value = declaration.split(":", 1)
    assert physical(prop.strip(), value.strip()) is None, declaration


def test_no_script_sets_a_physical_side():
    """Styles set from static/js (element.style, cssText, a style attribute built in a renderer)."""
    setter = re.compile(
        r"(style\.\w*(Left|Right)\b|setProperty\(\s*[\"'`][^\"'`]*(left|right)"
        r"|style\s*:\s*`[^`]*\b(left|right)\b|cssText\s*=\s*[^;]*\b(left|right)\b)",
        re.I,
    )
    found = [
        f"{script.relative_to(ROOT)}:{number}: {line.strip()}"
        for script in SCRIPTS
        for number, line in enumerate(script.read_text(encoding="utf-8").splitlines(), 1)
        if setter.search(line)
    ]
    assert found == []


def test_no_template_styles_a_physical_side():
    """Inline styles are refused by the Content-Security-Policy anyway; none names a side."""
    found = []
    for template in TEMPLATES:
        text = template.read_text(encoding="utf-8")
        blocks = re.findall(r"style\s*=\s*\"([^\"]*)\"", text) + re.findall(
            r"<style[^>]*>(.*?)</style>", text, re.S
        )
        for block in blocks:
            for prop, value in re.findall(r"([\w-]+)\s*:\s*([^;]+)", block):
                if physical(prop.lower(), value.strip()):
                    found.append(f"{template.relative_to(ROOT)}: {prop}: {value}")
    assert found == []
