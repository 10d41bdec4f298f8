"""The front end keeps one way of doing each thing: every live page's socket is the one
reconnecting module (static/js/live-socket.js), which the pages import."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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
        "static/js/play/main.js",
        # A lesson's play page also follows the student socket (the teacher's next round).
        "static/js/play/follow.js",
        "static/js/session-live.js",
        "static/js/student-sessions.js",
    }
