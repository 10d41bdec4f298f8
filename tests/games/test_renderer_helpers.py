"""What every renderer writes the same way is written once, in static/js/play/table.js (issue 24:
``fmt``/``say`` was defined five times, ``who`` twice, "send then rerender" in four shapes)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RENDERERS = sorted((ROOT / "static/js/play/games").glob("*.js"))
# A renderer drawn by modules of its own (static/js/play/games/mia/).
RENDERER_PARTS = sorted((ROOT / "static/js/play/games").glob("*/*.js"))
OWN_COPIES = {
    "an interpolate helper": re.compile(r"interpolate\(\w+, \w+, true\)"),
    "who": re.compile(r"function who\("),
    "send then rerender": re.compile(r"const answer = await ctx\.send\("),
}


def test_every_game_has_a_renderer():
    assert len(RENDERERS) >= 5


@pytest.mark.parametrize("renderer", RENDERERS, ids=lambda path: path.name)
def test_a_renderer_takes_the_shared_helpers_from_table_js(renderer):
    source = renderer.read_text(encoding="utf-8")
    copies = [name for name, pattern in OWN_COPIES.items() if pattern.search(source)]
    assert copies == [], f"{renderer.name} writes its own {copies}: import them from ../table.js"
    assert 'from "../table.js";' in source


@pytest.mark.parametrize("part", RENDERER_PARTS, ids=lambda path: f"{path.parent.name}/{path.name}")
def test_a_renderers_parts_take_them_from_table_js_too(part):
    source = part.read_text(encoding="utf-8")
    copies = [name for name, pattern in OWN_COPIES.items() if pattern.search(source)]
    assert copies == [], f"{part.name} writes its own {copies}: import them from ../../table.js"
