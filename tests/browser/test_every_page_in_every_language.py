"""Every page in every complete language, at phone size (docs/translations.md, "The checks").

Every page type of tests/page_types.py (a visitor's, a teacher's, a child's, the family's summary,
the projector, each game's play page while playing and played to its end), the report's PDF and
CSV and the class's export (its README.csv) asked for in the language, and the other files a
teacher downloads, in Chromium at 360 x 740, in each language of ``tests.languages.COMPLETE`` but
English. It fails on:

- an English word left: a word of the English texts (the catalogues' msgids) that is no word of
  the language (its own translations), outside the page's data (names, codes, typed titles);
- a raw placeholder: "%(name)s", "%s", "{name}", "{{", "{%";
- a text that spills out of its box (a word wider than its button or cell), or a page that
  scrolls sideways.

A language joins ``COMPLETE`` once its translators are done; until then it is not walked here.
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
import subprocess
import zipfile
from functools import cache
from pathlib import Path

import polib
import pytest
from django.utils import translation
from django.utils.dates import MONTHS, MONTHS_3, MONTHS_AP, WEEKDAYS, WEEKDAYS_ABBR
from playwright.sync_api import expect

from tests.browser.conftest import add_session_cookie
from tests.languages import COMPLETE

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 360, "height": 740}
SETUP = """
import json
from tests.page_types import every_page_type
print(json.dumps(every_page_type()))
"""
WALKED = [language for language in COMPLETE if language != "en"]

# Django's own names of days and months ("Do" is Thursday in German, no English "do").
DATE_NAMES = (WEEKDAYS, WEEKDAYS_ABBR, MONTHS, MONTHS_3, MONTHS_AP)

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
# A placeholder left as it was, a template tag, or a value a script wrote for nothing.
RAW = re.compile(
    r"%\(\w*\)?[sd]?|%[sd]\b|\{\w*\}|\{\{|\}\}|\{%|%\}|\bnull\b|\bundefined\b|\bNaN\b|\[object"
)
# A column name or a code for a program ("student_id", "add.within20"): the same in every
# language by design (the class export's README says what each means, in the reader's language).
IDENTIFIER = re.compile(r"\b\w+(?:[_.]\w+)+\b")
# Words the English texts share with every language here, or that are no English word to a
# reader: the games' and the platform's names, units and abbreviations.
NOT_ENGLISH = {
    "csv",
    "pdf",
    "pin",
    "json",
    "zip",
    "url",
    "lti",
    "oneroster",
    "ms",
    "sum",
    "mathable",
    "junior",
    "mía",
    "add",
    "up",
    "ok",
    "x",
}


def _words(texts) -> set[str]:
    return {word.lower() for text in texts for word in WORD.findall(IDENTIFIER.sub(" ", text))}


def _strip_format(text: str) -> str:
    return re.sub(r"%\(\w+\)[sd]|%[sd]|<[^>]+>", " ", text)


@cache
def english_words(language: str) -> frozenset[str]:
    """The words of the English texts that are no words of ``language``: those of the msgids less
    those its own translations use (a word both languages write, "no", "total", is not English
    on its page)."""
    english, own = [], []
    for domain in ("django", "djangojs"):
        for entry in polib.pofile(str(ROOT / f"locale/{language}/LC_MESSAGES/{domain}.po")):
            if entry.obsolete:
                continue
            english += [entry.msgid, entry.msgid_plural]
            own += [entry.msgstr, *entry.msgstr_plural.values()]
    with translation.override(language):  # the day and month names Django's catalogue gives dates
        own += [str(name) for names in DATE_NAMES for name in names.values()]
    return frozenset(
        _words(map(_strip_format, english)) - _words(map(_strip_format, own)) - NOT_ENGLISH
    )


def data_of(database: Path) -> list[str]:
    """The data the pages show, longest first: names, class codes and names, typed titles."""
    with sqlite3.connect(database) as db:
        values = {
            value
            for (value,) in db.execute(
                "SELECT display_name FROM accounts_user UNION SELECT name FROM classroom_classroom"
                " UNION SELECT code FROM classroom_classroom"
                " UNION SELECT typed_title FROM classroom_assignment"
                " UNION SELECT name FROM games_seat"
            )
            if value
        }
        # The projector spells a class code out for screen readers ("M A T H 3 4"): data too.
        values |= {" ".join(code) for (code,) in db.execute("SELECT code FROM classroom_classroom")}
    return sorted(values, key=len, reverse=True)


def findings(text: str, language: str, data: list[str]) -> list[str]:
    """The lines of ``text`` with an English word or a raw placeholder."""
    english = english_words(language)
    found = []
    for line in text.splitlines():
        if RAW.search(line):
            found.append(f"raw placeholder: {line.strip()[:140]}")
            continue
        rest = line
        for value in data:
            rest = rest.replace(value, " ")
        rest = IDENTIFIER.sub(" ", re.sub(r"\S*@\S+|\S+/\S*", " ", rest))  # e-mails, addresses
        left = sorted({w for w in WORD.findall(rest) if w.lower() in english})
        if left:
            found.append(f"English {left}: {line.strip()[:140]}")
    return found


# The page as a person reads it: the visible text, the names and descriptions screen readers say,
# placeholders, and the page's title; nothing inside translate="no" (the language menu).
READ = """() => {
    const texts = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let line = [];
    while (walker.nextNode()) {
        const node = walker.currentNode;
        const el = node.parentElement;
        if (!el || el.closest('script, style, template, noscript, [translate="no"]')) continue;
        if (node.textContent.trim()) texts.push(node.textContent.trim());
    }
    for (const el of document.querySelectorAll(
        '[aria-label], [title], [placeholder], img[alt], input[type=submit][value]')) {
        if (el.closest('[translate="no"]')) continue;
        for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'value']) {
            if (el.hasAttribute(name) && (name !== 'value' || el.type === 'submit')) {
                texts.push(el.getAttribute(name));
            }
        }
    }
    return texts.join('\\n');
}"""

# Texts out of their box at this width: a text wider than the box it is laid out in (a long word
# in a button, a cell, a card), and a page wider than the screen. A box that scrolls by design
# (a wide table in its own scrolling box, Mathable's board) holds its texts: only the text's own
# box is checked there.
SPILLS = """() => {
    const out = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
        out.push(`the page scrolls sideways: ${root.scrollWidth} px wide on ${root.clientWidth}`);
    }
    const boxOf = (el) => {
        let box = el;
        while (box && getComputedStyle(box).display === 'inline') box = box.parentElement;
        return box;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
        const node = walker.currentNode;
        if (!node.textContent.trim()) continue;
        const el = node.parentElement;
        if (!el || el.closest('script, style, template, [hidden], .visually-hidden, option')) {
            continue;
        }
        const box = boxOf(el);
        if (!box) continue;
        const style = getComputedStyle(box);
        if (style.visibility === 'hidden' || style.display === 'none') continue;
        const outer = box.getBoundingClientRect();
        if (outer.width <= 2 || outer.height <= 2) continue;  // visually hidden, collapsed
        const range = document.createRange();
        range.selectNodeContents(node);
        for (const rect of range.getClientRects()) {
            if (rect.width === 0) continue;
            if (rect.right > outer.right + 1.5 || rect.left < outer.left - 1.5) {
                const tag = box.tagName.toLowerCase() + (box.className ? '.' + box.className : '');
                out.push(`"${node.textContent.trim().slice(0, 60)}" spills out of ${tag} ` +
                         `(${Math.round(rect.left)}-${Math.round(rect.right)} in ` +
                         `${Math.round(outer.left)}-${Math.round(outer.right)})`);
                break;
            }
        }
    }
    return out;
}"""


def settled(page, kind: str, talks_back: list) -> None:
    """A play page connected and its table drawn (the end shown for a finished game); a page whose
    scripts opened a socket or fetched given time for what they write (a first push, the
    projector's live part)."""
    if kind == "play":
        expect(page.locator("#play-status")).to_have_text("", timeout=15_000)
        expect(page.locator("#play-board")).to_have_attribute("aria-busy", "false", timeout=15_000)
    if talks_back:
        page.wait_for_timeout(300)


def script_traffic(page) -> list[str]:
    """What the page's scripts open or fetch once it is served: only such a page can write a text
    after it has loaded."""
    opened = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    page.on(
        "request",
        lambda request: (
            opened.append(request.url) if request.resource_type in ("fetch", "xhr") else None
        ),
    )
    return opened


def pdf_text(data: bytes, folder: Path, name: str) -> str:
    path = folder / f"{name}.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


# A cell that is a code for a program: a column name ("what_the_student_did", "when"), a skill
# ("mixed.within10"), a value ("all", "true"). The files for programs name their columns so in every
# language, and say in the reader's words what each means (the class export's README.csv).
CODE = re.compile(r"^[a-z0-9_.+-]*$")


def csv_text(data: bytes) -> str:
    """A CSV's worded cells, a line per row."""
    rows = csv.reader(io.StringIO(data.decode("utf-8-sig")), delimiter=_delimiter(data))
    return "\n".join(" | ".join(cell for cell in row if not CODE.match(cell)) for row in rows)


def _delimiter(data: bytes) -> str:
    first = data.decode("utf-8-sig").split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","


@pytest.fixture(scope="module")
def server(daphne_site):
    with daphne_site("every_language", setup=SETUP) as site:
        yield site


def _contexts(browser, server, language):
    contexts = {}
    for who in ("visitor", "teacher", "student", "family"):
        context = browser.new_context(viewport=PHONE, locale=language)
        context.add_cookies([{"name": "django_language", "value": language, "url": server.url}])
        if who != "visitor":
            add_session_cookie(context, server.url, server.made[who])
        contexts[who] = context
    return contexts


def _report_files(context, server, language) -> dict[str, bytes]:
    """The class's report asked for on the reports page, in the page's language: its PDF and
    CSV."""
    page = context.new_page()
    page.goto(server.url + "/teacher/reports/")
    page.locator("form[method=post] button[type=submit]").last.click()
    page.wait_for_load_state()
    links = {}
    for kind in ("pdf", "csv"):
        link = page.locator(f"a[href$='/{kind}/']")
        expect(link.first).to_be_attached(timeout=30_000)
        links[kind] = link.first.get_attribute("href")
    files = {kind: context.request.get(server.url + href).body() for kind, href in links.items()}
    page.close()
    return files


def _class_export(context, server, language) -> bytes:
    """The class's export (a zip of CSV tables) prepared from the class's page, in the page's
    language."""
    page = context.new_page()
    page.goto(server.url + f"/teacher/classes/{server.made['ids']['classroom']}/")
    page.locator("form[action$='/export-tables/'] button[type=submit]").click()
    page.wait_for_load_state()
    link = page.locator("a[href$='/zip/']")
    expect(link.first).to_be_attached(timeout=60_000)
    body = context.request.get(server.url + link.first.get_attribute("href")).body()
    page.close()
    return body


@pytest.mark.parametrize("language", WALKED)
def test_every_page_and_file_in_the_language(browser, server, language, tmp_path):
    data = data_of(server.database)
    contexts = _contexts(browser, server, language)
    # One tab per person, each of their pages opened in it in turn: every navigation reads a new
    # document, and a new tab for each page cost Chromium a renderer of its own and a cold first
    # load, about 0.8 s a page, more than half of this walk's time.
    tabs = {}
    found = []
    try:
        for who, path, kind in server.made["pages"]:
            if who not in tabs:
                tab = contexts[who].new_page()
                tab.set_default_timeout(15_000)
                tabs[who] = tab, script_traffic(tab)
            page, talks_back = tabs[who]
            talks_back.clear()  # what this page's scripts open, not the previous page's
            response = page.goto(server.url + path)
            if response.status >= 400:
                found.append(f"{who} {path}: HTTP {response.status}")
                continue
            settled(page, kind, talks_back)
            assert page.evaluate("document.documentElement.lang") == language, (who, path)
            found += [
                f"{who} {path}: {line}" for line in findings(page.evaluate(READ), language, data)
            ]
            found += [f"{who} {path}: {spill}" for spill in page.evaluate(SPILLS)]
        files = _report_files(contexts["teacher"], server, language)
        texts = {
            "report.pdf": pdf_text(files["pdf"], tmp_path, "report"),
            "report.csv": csv_text(files["csv"]),
        }
        with zipfile.ZipFile(
            io.BytesIO(_class_export(contexts["teacher"], server, language))
        ) as zipped:
            texts["export.zip README.csv"] = csv_text(zipped.read("README.csv"))
        request = contexts["teacher"].request
        for _who, path, kind in server.made["downloads"]:
            body = request.get(server.url + path).body()
            if kind == "pdf":
                texts[path] = pdf_text(body, tmp_path, "download")
            else:
                texts[path] = csv_text(body)
        for name, text in texts.items():
            found += [f"{name}: {line}" for line in findings(text, language, data)]
    finally:
        for context in contexts.values():
            context.close()
    assert found == [], f"{len(found)} findings in {language}:\n" + "\n".join(found)


def test_the_english_word_detector_finds_english_and_leaves_the_language_alone():
    english = english_words("es")
    assert {"students", "teacher", "sign"} <= english
    assert not {"no", "total", "ana"} & english
    lines = "Mis clases\nSign out (Ana)\nMesa %(number)s\nstudent_id add.within20"
    assert findings(lines, "es", ["Ana"]) == [
        "English ['Sign', 'out']: Sign out (Ana)",
        "raw placeholder: Mesa %(number)s",
    ]
