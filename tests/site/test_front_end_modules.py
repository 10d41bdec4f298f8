"""The front end keeps one way of doing each thing: every live page's socket is the one
reconnecting module (static/js/live-socket.js), which the pages import."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static/js").rglob("*.js"))


def test_only_the_live_socket_module_opens_websockets():
    opening = [p.relative_to(ROOT).as_posix() for p in SCRIPTS if "new WebSocket(" in p.read_text()]
    assert opening == ["static/js/live-socket.js"]


def test_every_live_page_uses_it():
    users = {
        p.relative_to(ROOT).as_posix()
        for p in SCRIPTS
        if "live-socket.js" in p.read_text() and p.name != "live-socket.js"
    }
    assert users == {
        "static/js/play/shell.js",
        # A lesson's play page also follows the student socket (the teacher's next round).
        "static/js/play/follow.js",
        "static/js/session-live.js",
        "static/js/student-sessions.js",
    }


IMPORTED = re.compile(r"""(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\.{1,2}/[^"']+)["']""")
DYNAMIC = re.compile(r"""\bimport\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""")


def test_every_relative_import_names_a_module_that_exists():
    """A module whose import names no file fails only when a browser loads it (a game's table
    then reads "This match cannot be shown"): checked here for every module."""
    missing = [
        f"{path.relative_to(ROOT).as_posix()}: {target}"
        for path in SCRIPTS
        for pattern in (IMPORTED, DYNAMIC)
        for target in pattern.findall(path.read_text())
        if not (path.parent / target).resolve().is_file()
    ]
    assert missing == []


LONGEST_MODULE_LINES = 700


def test_no_module_is_longer_than_a_reader_can_hold():
    """A module over 700 lines has more than one job: its parts go to modules of their own (the
    play shell's in static/js/play/, a game's under static/js/play/games/<slug>/)."""
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in SCRIPTS
        if (lines := len(path.read_text().splitlines())) > LONGEST_MODULE_LINES
    }
    assert long == {}
