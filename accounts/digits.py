"""The digits a page shows, and the digits a child may type (docs/translations.md, "Digits").

A school chooses, on its teacher's settings page (``User.digits``, as it chooses its time zone),
whether its pages in Arabic show Western digits (0-9) or Eastern Arabic ones (٠-٩); its children's
pages follow their teacher's choice. Pages in any other language show Western digits. The choice
is made active for a request by ``accounts.middleware`` (``activate``) and read where numbers are
drawn: the ``digits`` template filter, the play page's scripts (``<html data-digits>``), the PDFs.
Numbers travel and are stored as numbers: only what is shown changes.

Whatever is shown, a child may type either set, on any keyboard: every number typed (an answer
in a game, a PIN, a class code) is read through ``western`` at the boundary, so "٧" counts as 7.
"""

from __future__ import annotations

import contextlib
import re
from contextvars import ContextVar

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

WESTERN = "latn"  # CLDR's numbering system names
EASTERN_ARABIC = "arab"
CHOICES = [
    (WESTERN, _("Western digits: 0 1 2 3 4 5 6 7 8 9")),
    (EASTERN_ARABIC, _("Eastern Arabic digits: ٠ ١ ٢ ٣ ٤ ٥ ٦ ٧ ٨ ٩")),
]
# The languages whose pages show the school's choice; the others always show Western digits.
CHOOSING_LANGUAGES = frozenset({"ar"})

_EASTERN = "٠١٢٣٤٥٦٧٨٩"
_PERSIAN = "۰۱۲۳۴۵۶۷۸۹"  # the Eastern Arabic digits of a Persian or Urdu keyboard
_TO_EASTERN = str.maketrans("0123456789", _EASTERN)
_TO_WESTERN = str.maketrans(_EASTERN + _PERSIAN, "0123456789" * 2)
# A whole number as typed, in either set, a sign before it allowed (ASCII or U+2212); no game
# asks for one of more digits.
_TYPED_NUMBER = re.compile(r"\s*([-−]?)([0-9٠-٩۰-۹]{1,18})\s*")

_active: ContextVar[str] = ContextVar("digits", default=WESTERN)


def western(text: str) -> str:
    """``text`` with every Eastern Arabic (or Persian) digit written as the Western one."""
    return text.translate(_TO_WESTERN)


def typed_number(value):
    """A number a child typed, as an int when it is one in either digit set ("٧" -> 7,
    "−12" -> -12); anything else comes back as it was, for the caller's own check to refuse."""
    if isinstance(value, str):
        found = _TYPED_NUMBER.fullmatch(value)
        if found:
            return int(("-" if found.group(1) else "") + western(found.group(2)))
    return value


def activate(system: str | None) -> None:
    """The school's choice for the rest of this request (or task)."""
    _active.set(system if system in dict(CHOICES) else WESTERN)


def deactivate() -> None:
    _active.set(WESTERN)


@contextlib.contextmanager
def override(system: str | None):
    token = _active.set(system if system in dict(CHOICES) else WESTERN)
    try:
        yield
    finally:
        _active.reset(token)


def shown_system() -> str:
    """The digits the page being drawn shows: the school's choice in a choosing language."""
    language = (get_language() or "").split("-")[0]
    return _active.get() if language in CHOOSING_LANGUAGES else WESTERN


def shown(value) -> str:
    """``value`` as text with the digits the page shows ("12" or "١٢")."""
    text = str(value)
    return text.translate(_TO_EASTERN) if shown_system() == EASTERN_ARABIC else text
