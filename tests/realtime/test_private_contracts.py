"""Where live play leans on Channels' internals, fenced; and that the product reads or overrides no
private member of any of its dependencies.

``games.consumers.MatchConsumer`` overrides Channels' ``dispatch`` and every socket
(``realtime.sockets.CleanSocket``) its ``websocket_disconnect``, without their
``close_old_connections``; CleanSocket also reads its channel through ``channel_receive``. What
they copy or call is pinned here by its source: a new release that changes any of it fails this
test, and docs/live-play.md ("Upgrading Channels or channels_redis") says what to re-read.

The channel layers are channels_redis's and Channels' as they come (config/settings.py).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import re
from pathlib import Path

import pytest
from channels.consumer import AsyncConsumer
from channels.generic.websocket import AsyncWebsocketConsumer

from games import consumers
from realtime import sockets

UPGRADE_NOTE = "docs/live-play.md, 'Upgrading Channels or channels_redis'"

# (owner, attribute): the first 16 hex digits of its source's SHA-256, as last read.
READ_AND_RELIED_ON = {
    (AsyncConsumer, "dispatch"): "39f34e7d4fb0f655",
    # realtime.sockets.CleanSocket reads the socket's channel through ``channel_receive``, which
    # this sets, to wait out a Redis restart instead of ending the socket.
    (AsyncConsumer, "__call__"): "e52238720872dbc3",
    (AsyncWebsocketConsumer, "websocket_disconnect"): "10f38aa55fd51ff5",
}


def digest(owner, name: str) -> str:
    return hashlib.sha256(inspect.getsource(getattr(owner, name)).encode()).hexdigest()[:16]


@pytest.mark.parametrize(
    ("owner", "name"), list(READ_AND_RELIED_ON), ids=lambda x: getattr(x, "__name__", x)
)
def test_what_live_play_copies_or_calls_is_as_it_was_read(owner, name):
    assert digest(owner, name) == READ_AND_RELIED_ON[(owner, name)], (
        f"{owner.__module__}.{owner.__name__}.{name} changed: see {UPGRADE_NOTE}"
    )


def test_the_overrides_are_still_overrides_of_those():
    assert consumers.MatchConsumer.dispatch is consumers.LoopDispatch.dispatch
    assert consumers.MatchConsumer.__mro__[1] is consumers.LoopDispatch
    # Every socket's disconnect skips close_old_connections (realtime.sockets.CleanSocket).
    assert "websocket_disconnect" in vars(sockets.CleanSocket)
    assert issubclass(consumers.MatchConsumer, sockets.CleanSocket)
    assert "self.channel_receive" in inspect.getsource(AsyncConsumer.__call__)
    # What dispatch skips on purpose is still what Channels does there.
    assert "aclose_old_connections" in inspect.getsource(AsyncConsumer.dispatch)


# --- no private member of any dependency --------------------------------------------------------

# The libraries the product runs on: a name with one leading underscore anywhere in their source is
# theirs to change in any release.
DEPENDENCIES = (
    "django",
    "channels",
    "channels_redis",
    "daphne",
    "asgiref",
    "redis",
    "psycopg",
    "psycopg_pool",
    "celery",
    "kombu",
    "django_celery_beat",
    "whitenoise",
    "environ",
    "axes",
    "csp",
    "lti_tool",
    "pylti1p3",
    "reportlab",
    "segno",
    "svglib",
    "uvloop",
)
# Named with an underscore but documented as public: Django's Model _meta API
# (docs.djangoproject.com, "Model _meta API"), and the named tuples' (Python's collections).
DOCUMENTED = {"_meta", "_fields", "_replace", "_asdict", "_make"}
PRODUCT = ("accounts", "classroom", "config", "engine", "games", "realtime")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_names(tree: ast.AST) -> set[str]:
    """Every name a module defines: its functions, classes, assigned names and attributes."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _product_files():
    root = Path(__file__).resolve().parents[2]
    for package in PRODUCT:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(root), ast.parse(path.read_text(encoding="utf-8"))


# A name a module defines: a function or class, an assignment to a name or an attribute.
DEFINED = re.compile(
    r"(?:\bdef|\bclass)\s+(_[A-Za-z0-9]\w*)|(?:\.|^\s*)(_[A-Za-z0-9]\w*)\s*(?::[^=\n]*)?=(?!=)",
    re.M,
)


def _dependency_privates() -> set[str]:
    """Every private name the dependencies define (read as text: parsing them all takes minutes)."""
    names = set()
    for package in DEPENDENCIES:
        for folder in importlib.import_module(package).__path__:
            for path in Path(folder).rglob("*.py"):
                for match in DEFINED.finditer(path.read_text(encoding="utf-8", errors="replace")):
                    name = match.group(1) or match.group(2)
                    if _private(name):
                        names.add(name)
    return names - DOCUMENTED


def _overrides(module_name: str, node: ast.ClassDef) -> list[str]:
    """The private names the class ``node`` defines in its body that a dependency's class it
    derives from defines too."""
    cls = getattr(importlib.import_module(module_name), node.name, None)
    if not isinstance(cls, type):
        return []
    defined = {
        name
        for item in node.body
        for name in _defined_names(item)
        if _private(name) and getattr(item, "name", name) == name
    }
    return [
        f"{base.__module__}.{base.__qualname__}.{name}"
        for name in sorted(defined)
        for base in cls.__mro__[1:]
        if base.__module__.split(".")[0] in DEPENDENCIES and name in vars(base)
    ]


@pytest.mark.timeout(120)
def test_no_private_member_of_any_dependency_is_read_or_overridden():
    """A private name of a dependency (one it defines with one leading underscore) is neither
    read from one of its objects nor defined again by a subclass of one of its classes, anywhere
    in the product. A name the product defines itself is its own to read."""
    privates = _dependency_privates()
    assert {"_get_ready_connection", "_group_key", "_clean_expired"} <= privates
    files = list(_product_files())
    own = set().union(*(_defined_names(tree) for _path, tree in files))
    found = []
    for path, tree in files:
        module_name = ".".join(path.with_suffix("").parts).removesuffix(".__init__")
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in privates - own:
                found.append(f"{path}:{node.lineno} reads {node.attr}")
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                for overridden in _overrides(module_name, node):
                    found.append(f"{path}:{node.lineno} {node.name} overrides {overridden}")
    assert not found, found
