"""Every text is translatable, and every language declared complete (tests/languages.py) ships
complete: docs/translations.md."""

import gettext
import html
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation

from config.languages import PLURAL_FORMS, TRANSLATED
from tests.factories import make_attempts, make_class, make_student, make_teacher
from tests.languages import COMPLETE

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
# django.po: templates and Python; djangojs.po: the play pages' modules (served by /jsi18n/).
CATALOGUES = {"django": 50, "djangojs": 50}  # domain -> entries it has at least


def catalogue(language: str, domain: str) -> polib.POFile:
    return polib.pofile(str(ROOT / f"locale/{language}/LC_MESSAGES/{domain}.po"), wrapwidth=0)


def _complete_or_expected_to_fail(language: str):
    if language in COMPLETE:
        return pytest.param(language)
    return pytest.param(
        language,
        marks=pytest.mark.xfail(
            strict=True,
            reason=f"{language} is not declared complete (tests/languages.py): "
            "once this passes, add it to COMPLETE",
        ),
    )


@pytest.mark.parametrize("language", [_complete_or_expected_to_fail(lang) for lang in TRANSLATED])
def test_a_complete_language_has_every_text_translated(language):
    """No empty and no fuzzy entry in either catalogue (django.po, djangojs.po), each no template
    (a fuzzy header is one)."""
    for domain in sorted(CATALOGUES):
        po = catalogue(language, domain)
        assert len(po) > CATALOGUES[domain]
        assert not po.metadata_is_fuzzy, f"{domain}: the header is marked fuzzy"
        untranslated = [entry.msgid for entry in po.untranslated_entries()]
        fuzzy = [entry.msgid for entry in po.fuzzy_entries()]
        assert untranslated == [], (
            f"{domain}: {len(untranslated)} untranslated, the first: {untranslated[:5]}"
        )
        assert fuzzy == [], f"{domain}: {len(fuzzy)} fuzzy, the first: {fuzzy[:5]}"


# A word the glossary (docs/translations.md) chose against, in a language's catalogues: Spanish
# says "docente" for either gender, never "profesor".
AVOIDED_WORDS = {"es": re.compile(r"\bprofesor(a|es|as)?\b", re.IGNORECASE)}


@pytest.mark.parametrize("language", sorted(AVOIDED_WORDS))
def test_the_catalogues_keep_the_glossarys_words(language):
    for domain in sorted(CATALOGUES):
        found = [
            text
            for entry in catalogue(language, domain)
            for text in [entry.msgstr, *entry.msgstr_plural.values()]
            if AVOIDED_WORDS[language].search(text)
        ]
        assert found == [], f"{domain}: {found[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", sorted(CATALOGUES))
def test_every_catalogue_names_its_language_and_its_plural_forms(language, domain):
    """Each catalogue's header is config/languages.py's: a catalogue a platform sends back with
    other plural forms would pick the wrong form for every count (``make messages`` resets it)."""
    metadata = catalogue(language, domain).metadata
    assert metadata["Language"] == language
    assert metadata["Plural-Forms"] == PLURAL_FORMS[language]


def _msgids(catalogue: Path) -> set[str]:
    """The texts a catalogue translates (its header and obsolete entries left out)."""
    text = catalogue.read_text(encoding="utf-8")
    ids = set()
    for entry in text.split("\n\n")[1:]:
        if entry.startswith("#~"):
            continue
        found = re.search(r'^msgid "(.*)"((?:\n".*")*)', entry, re.M)
        ids.add(found.group(1) + "".join(re.findall(r'^"(.*)"$', found.group(2), re.M)))
    return ids


# makemessages on a copy of the tracked files, which reads no database or channel layer: the same in
# either pass of `make test`, so the embedded pass alone runs it (tests/conftest.py).
@pytest.mark.embedded
@pytest.mark.slow
@pytest.mark.timeout(300)
def test_the_catalogues_hold_every_text_of_the_sources_and_nothing_else(tmp_path):
    """``make messages`` on a copy of the tracked files changes no catalogue's texts: a text added
    to the sources without its entry in every catalogue (the projector's "Points" was one) fails
    here."""
    tracked = (
        subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, tracked):
        source = ROOT / name
        if source.is_file():
            (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, tmp_path / name)
    env = {**os.environ, "PYTHON": sys.executable, "COMPILE": "0"}
    subprocess.run(
        [str(tmp_path / "scripts/update-translations")],
        cwd=tmp_path,
        env=env,
        check=True,
        capture_output=True,
        timeout=240,
    )
    for language in TRANSLATED:
        for domain in sorted(CATALOGUES):
            committed = _msgids(ROOT / f"locale/{language}/LC_MESSAGES/{domain}.po")
            current = _msgids(tmp_path / f"locale/{language}/LC_MESSAGES/{domain}.po")
            where = f"{language} {domain}"
            assert sorted(current - committed) == [], f"{where}: texts missing from the catalogue"
            assert sorted(committed - current) == [], f"{where}: texts no longer in the sources"


def test_spanish_is_served_when_the_browser_asks_for_it(client):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="es")
    content = response.content.decode()
    assert '<html lang="es">' in content
    assert "Soy estudiante" in content
    assert "I am a student" not in content


def test_language_switch_remembers_the_choice(client):
    response = client.post(reverse("set_language"), {"language": "es", "next": "/student/"})
    assert response.status_code == 302
    assert "Código de la clase" in client.get("/student/").content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "Class code" in client.get("/student/").content.decode()


def test_error_messages_are_translated_too(client):
    classroom = make_class()
    ben = make_student(classroom, name="Ben", secret="2468")
    client.post(reverse("set_language"), {"language": "es"})
    url = reverse(
        "classroom:student_login_secret", kwargs={"code": classroom.code, "student_id": ben.pk}
    )
    assert "Ese PIN no es correcto" in client.post(url, {"secret": "1111"}).content.decode()


@pytest.mark.parametrize(
    "template", sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "templates").rglob("*.html"))
)
def test_templates_have_no_untranslated_prose(template):
    """Text between tags must come from {% translate %} / {% blocktranslate %} or a variable
    (comments aside)."""
    source = (ROOT / template).read_text(encoding="utf-8")
    # A template's comments are for its readers and never rendered.
    source = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}", "", source, flags=re.S)
    stripped = re.sub(r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}", "", source, flags=re.S)
    stripped = re.sub(r"{%.*?%}|{{.*?}}|<script.*?</script>|<!--.*?-->", "", stripped, flags=re.S)
    stripped = re.sub(r"<[^>]+>", "\n", stripped)
    words = [ln.strip() for ln in stripped.splitlines() if re.search(r"[A-Za-z]{2,}", ln)]
    assert words == [], f"{template} has text outside translate tags: {words}"


# Spanish has three plural forms (one, "de millones", other), Arabic six: an entry with fewer forms
# than its header names left every count but 1 in English on the pages ("6 students") and empty in
# the play pages ("Ben: ·", for "Ben: 5 cards in hand").
@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("domain", sorted(CATALOGUES))
def test_every_plural_has_a_form_for_each_plural_the_header_names(language, domain):
    text = (ROOT / f"locale/{language}/LC_MESSAGES/{domain}.po").read_text(encoding="utf-8")
    plurals = int(re.search(r"nplurals=(\d+)", text).group(1))
    entries = [e for e in text.split("\n\n")[1:] if "msgid_plural" in e and not e.startswith("#~")]
    assert entries
    for entry in entries:
        forms = re.findall(r"^msgstr\[(\d+)\]", entry, re.M)
        assert forms == [str(n) for n in range(plurals)], entry


def test_counts_read_in_spanish_on_pages_and_in_the_play_pages_catalogue(client):
    from django.utils import translation
    from django.utils.translation import ngettext

    with translation.override("es"):
        for count in (1, 2, 6, 1_000_000):
            text = ngettext("%(counter)s student", "%(counter)s students", count)
            assert "estudiante" in text, (count, text)
    response = client.get(reverse("javascript-catalog"), HTTP_ACCEPT_LANGUAGE="es")
    forms = re.search(r'"%\(count\)s card in hand": (\[.*?\])', response.content.decode(), re.S)
    assert forms.group(1).count("cartas en la mano") == 2, forms.group(1)


# One count of each plural form of every language here: Arabic's zero, one, two, few (3-10),
# many (11-99) and other (100); French's 0 and 1 alike; the rest's 1 and the others.
COUNTS = (0, 1, 2, 3, 11, 100)


def _form_in_catalogue(language: str, singular: str, plural: str, count: int) -> str:
    """The form the language's own compiled catalogue gives ``count`` (its Plural-Forms); the
    sources' own for English."""
    if language == "en":
        return singular if count == 1 else plural
    with (ROOT / f"locale/{language}/LC_MESSAGES/django.mo").open("rb") as compiled:
        return gettext.GNUTranslations(compiled).ngettext(singular, plural, count)


@pytest.mark.parametrize("language", ["en", *COMPLETE])
def test_counts_and_dates_on_the_pages(client, language):
    """The family summary, in each complete language (the family's): a count in the form its
    catalogue's Plural-Forms picks for 0, 1, 2, 3, 11 and 100, and the day in that language's
    words ("3 de noviembre de 2026", never "3 November 2026" or "03/11/2026")."""
    teacher = make_teacher()
    classroom = make_class(teacher)
    client.force_login(teacher)
    today = timezone.localdate()
    with translation.override(language):
        day = formats.date_format(today, "DATE_FORMAT")
    with translation.override("en"):
        english_day = formats.date_format(today, "DATE_FORMAT")
    for count in COUNTS:
        child = make_student(classroom, f"Child {count}", secret=f"{1000 + count}")
        child.family_language = language
        child.save()
        make_attempts(child, [(3, "+", 4, 7, 1500)] * count + [(3, "+", 4, 8, 1500)])
        page = client.get(
            reverse("classroom:progress_student_summary", args=[classroom.pk, child.pk])
        ).content.decode()
        sheet = html.unescape(page[page.index("<article") : page.index("</article>")])
        assert f'lang="{language}"' in sheet
        right = _form_in_catalogue(
            language, "%(counter)s right answer.", "%(counter)s right answers.", count
        )
        assert right % {"counter": count} in sheet, (count, right)
        if count:
            best = _form_in_catalogue(
                language,
                "Best day: %(counter)s right answer on %(day)s.",
                "Best day: %(counter)s right answers on %(day)s.",
                count,
            )
            assert best % {"counter": count, "day": day} in sheet, (count, best)
            if language != "en":
                assert english_day not in sheet


def test_no_picture_name_means_two_pictures_in_the_sites_languages():
    """A teacher may write a child's pictures in any language of the site: one word naming two
    pictures (one language's "sol" another's "sun" for the moon, say) would give the child the
    wrong secret."""
    from accounts.pictures import PICTURES
    from classroom.roster.student_secrets import fold_word

    named: dict[str, set[str]] = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for key, (_emoji, label) in PICTURES.items():
                named.setdefault(fold_word(str(label)), set()).add(key)
    assert {word: keys for word, keys in named.items() if len(keys) > 1} == {}
