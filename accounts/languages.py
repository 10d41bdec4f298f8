"""Whose language a page, a socket or a file is in (docs/translations.md).

Each person's language is their own choice, stored with them: a teacher's on their account, a
child's on their record (their own choice from the language menu, or their teacher's), a family's
on the child's record (``User.family_language``). A signed-in person's pages follow it, whatever
the browser or a shared tablet's cookie says (``accounts.middleware`` activates it after Django's
``LocaleMiddleware``), and so do their sockets (``accounts.socket_users.scope_language``). Nobody
signed in, or somebody who never chose, is served Django's choice: the language menu's cookie,
else the browser's Accept-Language.
"""

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

NOT_CHOSEN = _("Not chosen: the browser's language")


def language_choices(empty_label=NOT_CHOSEN) -> list[tuple[str, str]]:
    """The site's languages, each named in itself, after an empty choice named ``empty_label``."""
    return [("", empty_label), *settings.LANGUAGES]


class LanguageSelect(forms.Select):
    """A menu of the site's languages: each option named in itself says so (``lang``) to a
    screen reader, and ``translate="no"`` to a browser's translator (and to the page-text checks
    of tests/site/test_page_texts_marked.py, which read such a name as no text of the site's)."""

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value:
            option["attrs"].update(lang=value, translate="no")
        return option


def stored_language(user) -> str:
    """The language ``user`` chose and the site still speaks, else ""."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    code = getattr(user, "language", "")
    return code if code in dict(settings.LANGUAGES) else ""


def family_language(student) -> str:
    """The language a child's family reads their summary in: the family's, else "" (the
    reader's)."""
    code = student.family_language
    return code if code in dict(settings.LANGUAGES) else ""


def language_info(code: str) -> dict:
    """A language's code, its name in itself and whether it is written right to left."""
    return {
        "code": code,
        "name": dict(settings.LANGUAGES).get(code, code),
        "bidi": translation.get_language_info(code)["bidi"],
    }


def activate_stored(request) -> None:
    """Makes the signed-in person's stored language the request's (after ``LocaleMiddleware``,
    which chose from the cookie and the browser)."""
    code = stored_language(getattr(request, "user", None))
    if code:
        translation.activate(code)
        request.LANGUAGE_CODE = code


def user_language_set(*, user, language: str) -> None:
    """Stores ``language`` (a code of ``settings.LANGUAGES``, or "" for none) as ``user``'s."""
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(f"not a language of the site: {language!r}")
    if user.language != language:
        user.language = language
        user.save(update_fields=["language"])


def user_family_language_set(*, student, language: str) -> None:
    if language and language not in dict(settings.LANGUAGES):
        raise ValueError(f"not a language of the site: {language!r}")
    if student.family_language != language:
        student.family_language = language
        student.save(update_fields=["family_language"])
