"""Every code a move can be refused with reaches the child in words, all written in one module,
static/js/play/errors.js: its shared words for the codes of live play and of the engine's shared
rules, each game's words (named for its slug in GAME_WORDS) for its own game's codes. The engine's
messages are English, for developers: a code answered by nobody would show them to a child."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
GAMES = tuple(game.slug for game in engine.list_games())
# Made by the play shell itself, never sent by the server.
CLIENT_CODES = {"busy", "timeout", "disconnected", "spectator"}
# The calls whose first argument is the code they refuse with (``engine.core.refusal``: a shared
# code in its one wording).
REFUSED_BY_FIRST_ARGUMENT = {
    "IllegalMove",
    "refusal",
    "MatchError",
    "Refused",
    "_error",
    "send_error",
}


def _codes_raised(path: Path, *defining: Path) -> set[str]:
    """The codes a module refuses moves with: ``require(cond, CODE, ...)``,
    ``IllegalMove(CODE, ...)`` and ``refusal(CODE)``, CODE a string or a constant naming one, of
    the module or of the ``defining`` modules it imports its constants from."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {
        target.id: node.value.value
        for source in (tree, *(ast.parse(p.read_text(encoding="utf-8")) for p in defining))
        for node in ast.walk(source)
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    codes = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        if name == "require" and len(node.args) >= 2:
            code = node.args[1]
        elif name in REFUSED_BY_FIRST_ARGUMENT and node.args:
            code = node.args[0]
        else:
            continue
        if isinstance(code, ast.Constant) and isinstance(code.value, str):
            codes.add(code.value)
        elif isinstance(code, ast.Name) and code.id in constants:
            codes.add(constants[code.id])
    return codes


def _engine_modules(slug: str) -> list[Path]:
    """The game's module and the engine modules it is made of (¡Mía!: its multi and solo)."""
    module = Path(type(engine.get_game(slug)).__module__.replace(".", "/") + ".py")
    source = (ROOT / module).read_text(encoding="utf-8")
    parts = re.findall(r"^from engine import (.+)$", source, re.M)
    names = {name.strip().split(" as ")[0] for line in parts for name in line.split(",")}
    modules = [ROOT / f"engine/{name}.py" for name in sorted(names)]
    return [ROOT / module] + [path for path in modules if path.is_file()]


def _answered(script: Path, function: str) -> set[str]:
    source = script.read_text(encoding="utf-8")
    body = re.search(rf"function {function}\(.*?\n}}\n", source, re.S)
    assert body, f"{script} has no {function}()"
    return set(re.findall(r'case "([a-z_]+)":', body.group(0)))


SHARED = (
    _codes_raised(ROOT / "engine/core.py", ROOT / "engine/state.py")
    | _codes_raised(ROOT / "realtime/sockets.py")  # every socket's (the flood limit)
    | {code for path in (ROOT / "games").rglob("*.py") for code in _codes_raised(path)}
)
ERRORS = ROOT / "static/js/play/errors.js"
SHELL = _answered(ERRORS, "sharedWords")
GAME_WORDS = dict(
    re.findall(
        r"^  (\w+): (\w+),$",
        re.search(r"const GAME_WORDS = \{\n(.*?)\n\}", ERRORS.read_text(encoding="utf-8"), re.S)[1],
        re.M,
    )
)


def test_the_shell_answers_for_the_shared_codes_and_no_games_own():
    assert sorted(SHELL - SHARED - CLIENT_CODES) == []
    for code in (
        "not_active",
        "game_over",
        "malformed",
        "unknown_move",
        "unknown_field",
        "bad_seat",
    ):
        assert code in SHELL


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_answers_for_its_own_codes(slug):
    own = set().union(*(_codes_raised(path) for path in _engine_modules(slug))) - SHARED
    assert own, f"{slug} refuses nothing of its own?"
    assert slug in GAME_WORDS, f"{slug} has no words in static/js/play/errors.js"
    answered = _answered(ERRORS, GAME_WORDS[slug])
    assert sorted(own - answered) == [], f"{slug}: codes nobody words for a child"


def test_no_renderer_words_a_code_of_its_own():
    """The words of the codes are in errors.js alone: no renderer writes them again."""
    renderers = sorted((ROOT / "static/js/play/games").rglob("*.js"))
    assert [p.name for p in renderers if "errorMessage" in p.read_text(encoding="utf-8")] == []
