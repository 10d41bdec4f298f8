"""The docs state the present: every module, name and file they cite in code spans exists, and
they cite no commit (history is git's)."""

import importlib
import re
from pathlib import Path

import pytest
from django.apps import apps

ROOT = Path(__file__).resolve().parents[2]
DOCS = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]
PACKAGES = ("accounts", "classroom", "games", "engine", "realtime", "config", "tools")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
DOTTED_NAME = re.compile(rf"^(?:{'|'.join(PACKAGES)})(?:\.[A-Za-z_][A-Za-z0-9_]*)+$")
FILE_NAME = re.compile(r"\.(?:csv|py|md|html|js|css|po|zip|pdf|json|txt|toml|conf)$")
PATH = re.compile(
    rf"^(?:{'|'.join(PACKAGES)}|docs|templates|static|tests|docker|scripts|locale|\.ci)"
    r"/[\w./-]*$"
)
# A commit named by its hash: seven to forty hex digits with a digit and a letter among them.
COMMIT = re.compile(r"\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b")


def _code_spans(doc: Path):
    text = doc.read_text(encoding="utf-8")
    text = re.sub(r"```.*?```", "", text, flags=re.S)  # command blocks are run, not cited
    for number, line in enumerate(text.splitlines(), start=1):
        for span in CODE_SPAN.findall(line):
            yield number, span.strip()


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        rest = parts[cut:]
        break
    else:
        return False
    if not rest and cut == 1 and len(parts) > 1:
        return False
    for name in rest:
        if not hasattr(target, name):
            # "app.Model" and "app.Model.field" name a Django model by its app label.
            if target.__name__ in PACKAGES and rest and name == rest[0]:
                try:
                    target = apps.get_model(target.__name__, name)
                    continue
                except LookupError:
                    return False
            if isinstance(target, type) and hasattr(target, "_meta"):
                field_names = {f.name for f in target._meta.get_fields()}
                if name in field_names:
                    return True
            return False
        target = getattr(target, name)
    return True


def _is_cited(kind: str, span: str) -> bool:
    if kind == "name":
        return bool(DOTTED_NAME.match(span)) and not FILE_NAME.search(span)
    return bool(PATH.match(span))


def _cited(kind):
    for doc in DOCS:
        for number, span in _code_spans(doc):
            if _is_cited(kind, span):
                yield f"{doc.relative_to(ROOT)}:{number}", span


@pytest.mark.django_db(databases=[])
def test_every_name_the_docs_cite_exists():
    missing = [f"{where}: {name}" for where, name in _cited("name") if not _resolves(name)]
    assert not missing, "names cited in docs that do not exist:\n" + "\n".join(missing)


def test_every_file_the_docs_cite_exists():
    missing = [
        f"{where}: {path}"
        for where, path in _cited("path")
        if not (ROOT / path.split("#")[0].rstrip("/")).exists()
    ]
    assert not missing, "files cited in docs that do not exist:\n" + "\n".join(missing)


def test_the_docs_name_no_commit():
    found = [
        f"{doc.relative_to(ROOT)}:{number}: {match}"
        for doc in DOCS
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), start=1)
        for match in COMMIT.findall(line)
    ]
    assert not found, "commit hashes in docs (history is git's):\n" + "\n".join(found)
