"""Writes each catalogue's header as ``config.languages`` says: its Plural-Forms and Language
(``make messages`` runs it after ``makemessages``; a catalogue new to ``makemessages`` comes with
Django's own plural forms, which may differ, or none), and a header that is no longer a template:
its own title, the project's name and no fuzzy mark (a translation platform, and the checks of
tests/site/test_i18n.py, read a fuzzy header as a translation still to be checked). Only a header
that differs is rewritten, so a catalogue already right is left byte for byte.

    python -m tools.catalogues
"""

import re
import sys
from pathlib import Path

from config.languages import LANGUAGES, PLURAL_FORMS

ROOT = Path(__file__).resolve().parent.parent
DOMAINS = {
    "django": "the pages and the server's texts",
    "djangojs": "the play pages' modules, served by /jsi18n/",
}
PROJECT = "arithmetic-games-classroom"
HEADER = re.compile(r'^msgid ""\nmsgstr ""\n((?:".*"\n)*)', re.M)


def header_fields(text: str) -> dict[str, str]:
    """The header's "Name: value" fields, its wrapped lines joined."""
    found = HEADER.search(_without_comments(text))
    joined = "".join(re.findall(r'^"(.*)"$', found.group(1), re.M)) if found else ""
    fields = {}
    for line in joined.split("\\n"):
        name, sep, value = line.partition(":")
        if sep:
            fields[name.strip()] = value.strip()
    return fields


def _without_comments(text: str) -> str:
    lines = text.split("\n")
    while lines and lines[0].startswith("#"):
        lines.pop(0)
    return "\n".join(lines)


def set_header(path: Path, language: str, domain: str) -> bool:
    """Writes ``language``'s Plural-Forms and Language into the catalogue at ``path``, in a header
    that is no template; True if it changed."""
    text = path.read_text(encoding="utf-8")
    fields = header_fields(text)
    wanted = {"Language": language, "Plural-Forms": PLURAL_FORMS[language]}
    if fields.get("Project-Id-Version", "PACKAGE VERSION") == "PACKAGE VERSION":
        wanted["Project-Id-Version"] = PROJECT
    comments = text[: len(text) - len(_without_comments(text))]
    template = "SOME DESCRIPTIVE TITLE" in comments or "#, fuzzy" in comments
    if not template and all(fields.get(name) == value for name, value in wanted.items()):
        return False
    fields.update(wanted)
    if template:
        name = dict(LANGUAGES)[language]
        comments = f"# {name}: {DOMAINS[domain]}, {PROJECT} (docs/translations.md).\n#\n"
    rest = _without_comments(text)
    found = HEADER.search(rest)
    lines = "".join(f'"{name}: {value}\\n"\n' for name, value in fields.items())
    start, end = found.span(1)
    path.write_text(comments + rest[:start] + lines + rest[end:], encoding="utf-8")
    return True


def set_plural_slots(path: Path, language: str) -> bool:
    """Gives every plural entry one ``msgstr[n]`` per plural form of ``language`` (Arabic's six),
    empty ones added after those it has; True if any was added. ``makemessages`` makes a new
    catalogue's entries with the two of the sources' English."""
    plurals = int(re.search(r"nplurals=(\d+)", PLURAL_FORMS[language]).group(1))
    entries = path.read_text(encoding="utf-8").split("\n\n")
    changed = False
    for index, entry in enumerate(entries):
        if "msgid_plural" not in entry or entry.startswith("#~"):
            continue
        have = len(re.findall(r"^msgstr\[\d+\]", entry, re.M))
        if have < plurals:
            missing = "".join(f'\nmsgstr[{n}] ""' for n in range(have, plurals))
            trailing = entry[len(entry.rstrip("\n")) :]
            entries[index] = entry.rstrip("\n") + missing + trailing
            changed = True
    if changed:
        path.write_text("\n\n".join(entries), encoding="utf-8")
    return changed


def main() -> int:
    for language in PLURAL_FORMS:
        for domain in DOMAINS:
            path = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
            if path.is_file() and set_header(path, language, domain):
                print(f"{path.relative_to(ROOT)}: header set")
            if path.is_file() and set_plural_slots(path, language):
                print(f"{path.relative_to(ROOT)}: every plural given its {language} forms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
