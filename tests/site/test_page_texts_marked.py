"""Every text a page shows is marked for translation (docs/translations.md, "The checks").

Every page type (tests/page_types.py) is rendered in a test language whose catalogue gives every
text of the site's catalogues, and of Django's own, as itself between marks, "⟦Sign out⟧". A
visible text, a title, a label a screen reader says, with a word outside a mark, was written in a
template or in Python without ``{% translate %}``, ``gettext`` or a variable: a French child would
read it in English. The page's data (names, class codes, typed titles) is data, not text of the
site; the language menu's names (``translate="no"``) are each language's own.

The marked catalogue is installed as French's, ahead of the site's catalogues (the first of
``LOCALE_PATHS`` wins), so that the pages are French pages in every other way: French's dates add
no word of their own ("3 ⟦November⟧ 2026")."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import django
import polib
import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.models import time_zone_names
from classroom.models import Assignment, Classroom
from classroom.progress import wording
from tests.page_types import every_page_type

pytestmark = [pytest.mark.django_db, pytest.mark.timeout(600)]
ROOT = Path(__file__).resolve().parents[2]
OPEN, CLOSE = "⟦", "⟧"
MARKED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
WORD = re.compile(r"[^\W\d_]{2,}")
# An address or a path on a page is data ("testserver/student/", "/teacher/homework/3/").
ADDRESS = re.compile(r"\S*/\S*")
# The test language: the marked catalogue takes French's place.
LANGUAGE = "fr"
# What a person reads or hears besides the text between tags.
SAID = ("aria-label", "title", "placeholder", "alt", "aria-roledescription")
UNREAD = {"script", "style", "template", "noscript"}


def _sources() -> list[Path]:
    """Every catalogue whose texts a page may show: the site's (Spanish has every msgid), and
    Django's and its apps' (their English catalogues list their msgids)."""
    found = [ROOT / f"locale/es/LC_MESSAGES/{domain}.po" for domain in ("django", "djangojs")]
    found.append(Path(django.__file__).parent / "conf/locale/en/LC_MESSAGES/django.po")
    for config in apps.get_app_configs():
        english = Path(config.path) / "locale/en/LC_MESSAGES/django.po"
        if english.is_file():
            found.append(english)
    return found


def _mark(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text else text


def marked_catalogue(folder: Path) -> None:
    """Writes ``folder/<LANGUAGE>/LC_MESSAGES/{django,djangojs}.mo``: every msgid marked."""
    catalogue = polib.POFile()
    catalogue.metadata = {
        "Content-Type": "text/plain; charset=UTF-8",
        "Language": LANGUAGE,
        "Plural-Forms": "nplurals=2; plural=(n > 1);",
    }
    seen = set()
    for source in _sources():
        for entry in polib.pofile(str(source)):
            key = (entry.msgctxt, entry.msgid)
            if entry.obsolete or not entry.msgid or key in seen:
                continue
            seen.add(key)
            marked = polib.POEntry(msgctxt=entry.msgctxt, msgid=entry.msgid)
            if entry.msgid_plural:
                marked.msgid_plural = entry.msgid_plural
                marked.msgstr_plural = {0: _mark(entry.msgid), 1: _mark(entry.msgid_plural)}
            else:
                marked.msgstr = _mark(entry.msgid)
            catalogue.append(marked)
    messages = folder / LANGUAGE / "LC_MESSAGES"
    messages.mkdir(parents=True)
    for domain in ("django", "djangojs"):
        catalogue.save_as_mofile(str(messages / f"{domain}.mo"))


class _Reader(HTMLParser):
    """The texts of a page as a person reads and hears them: text between tags outside scripts
    and styles, and the names and descriptions of SAID; nothing inside ``translate="no"``."""

    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open: list[tuple[str, bool]] = []  # (tag, whether its text is not the site's)
        self.texts: list[str] = []
        self.said: list[str] = []

    def _skipping(self) -> bool:
        return any(skip for _tag, skip in self.open)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skip = tag in UNREAD or attrs.get("translate") == "no"
        if not skip and not self._skipping():
            self.said += [attrs[name] for name in SAID if attrs.get(name)]
            if tag == "input" and attrs.get("type") in ("submit", "button") and attrs.get("value"):
                self.said.append(attrs["value"])
        if tag not in self.VOID:
            self.open.append((tag, skip))

    def handle_endtag(self, tag):
        for index in range(len(self.open) - 1, -1, -1):
            if self.open[index][0] == tag:
                del self.open[index:]
                break

    def handle_data(self, data):
        if data.strip() and not self._skipping():
            self.texts.append(data)


def unmarked_words(html: str, data: list[str]) -> list[str]:
    """The page's texts with a word outside a mark, once the marked parts and the data are taken
    out. The text between tags is read as one (a translated text may hold tags: "⟦Join at
    <strong>...</strong> with the class code⟧"); each said name on its own."""
    reader = _Reader()
    reader.feed(html)
    found = []
    for text in ["\n".join(reader.texts), *reader.said]:
        rest = text
        while MARKED.search(rest):
            rest = MARKED.sub(" ", rest)
        rest = ADDRESS.sub(" ", rest)
        for value in data:
            rest = rest.replace(value, " ")
        found += [" ".join(line.split())[:120] for line in rest.splitlines() if WORD.search(line)]
    return found


def _data() -> list[str]:
    """The words of the data on the pages, longest first (a name inside a longer one)."""
    User = get_user_model()
    values = set()
    for user in User.objects.all():
        values.update({user.display_name, user.email, user.username, str(user)})
    for classroom in Classroom.objects.all():
        values.update({classroom.name, classroom.code})
    for assignment in Assignment.objects.all():
        values.add(assignment.typed_title)
    values.update(time_zone_names())  # the time zone menu: "America/Mexico_City", "UTC"
    return sorted((v for v in values if v), key=len, reverse=True)


@pytest.fixture
def marked_site(settings, tmp_path):
    marked_catalogue(tmp_path)
    settings.LOCALE_PATHS = [tmp_path, *settings.LOCALE_PATHS]
    settings.MEDIA_ROOT = tmp_path / "media"
    # The skills' names are remembered per language code: French's, read before in this process,
    # would stand for the marked ones.
    wording._skill_label.cache_clear()
    yield
    wording._skill_label.cache_clear()


def test_every_page_text_is_marked_for_translation(marked_site):
    made = every_page_type()
    User = get_user_model()
    clients = {}
    for who in ("visitor", "teacher", "student", "family"):
        client = Client()
        client.cookies["django_language"] = LANGUAGE
        if who != "visitor":
            client.force_login(User.objects.get(pk=made["ids"][who]))
        clients[who] = client
    data = _data()
    found, pages = [], 0
    for who, path, _kind in made["pages"]:
        response = clients[who].get(path)
        if response.status_code != 200:
            found.append(f"{who} {path}: HTTP {response.status_code}")
            continue
        html = response.content.decode()
        assert f'lang="{LANGUAGE}"' in html, (who, path)
        found += [f"{who} {path}: {text}" for text in unmarked_words(html, data)]
        pages += 1
    assert pages >= 50
    assert found == [], f"{len(found)} texts not marked for translation:\n" + "\n".join(found)


def test_the_check_finds_a_text_outside_the_marks():
    page = (
        "<html><head><title>⟦Home⟧</title></head><body><h1>⟦Hello⟧</h1><p>Written here</p>"
        '<button aria-label="Close">×</button><select><option translate="no">Deutsch</option>'
        "</select><script>var words = 'none';</script><p>⟦%(name)s won⟧ Ana 3 + 4</p></body></html>"
    )
    assert unmarked_words(page, ["Ana"]) == ["Written here", "Close"]
    across = "<p>⟦Join at <strong>example.org/student/</strong> with the class code⟧</p>"
    assert unmarked_words(across, []) == []
