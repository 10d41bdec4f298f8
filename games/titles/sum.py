"""SUM as pages name it (engine/sum.py, docs/rules/sum.md), and its answers as the teacher reads
them (``expression``, read by classroom/progress/wording.py)."""

import re

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.bidi import ltr
from games.catalog import SIGNS

TITLE = gettext_lazy("SUM")
VARIANT_TITLES = {"standard": gettext_lazy("SUM")}
OPTION_LABELS = {"wrong_limit": gettext_lazy("Wrong equations allowed in one turn")}

# "3+12-4" as the engine writes it: a sign after a digit is an operation, one before is a number's.
_BINARY_SIGN = re.compile(r"(?<=\d)([+\-x÷])")


def expression(attempt) -> str | None:
    """The equation as the child laid it, "3 + 12 − 4", which may mix signs (engine/sum.py keeps
    it in the attempt's ``detail``), with each pair of equal cards used as their double named; None
    when the attempt kept none."""
    detail = attempt.detail if isinstance(attempt.detail, dict) else {}
    written = detail.get("expression")
    if not isinstance(written, str) or not written:
        return None
    text = ltr(_BINARY_SIGN.sub(lambda m: f" {SIGNS[m.group(1)]} ", written))
    notes = [
        _("two %(card)s cards used as a %(value)s") % {"card": card, "value": card * 2}
        for card in detail.get("pairs") or []
        if isinstance(card, int) and not isinstance(card, bool)
    ]
    return f"{text} ({', '.join(notes)})" if notes else text
