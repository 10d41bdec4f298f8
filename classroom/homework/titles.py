"""The titles the platform gives homework, kept as data and worded when read.

A title the teacher typed is kept as typed (``Assignment.typed_title``). A title the platform made
("Practise 5 + 9, 7 × 8" from a progress page's "Practise these facts", the personal practice
form's "Personal practice", the demo's "Practice squares") is kept as its kind and parameters
(``Assignment.title_kind``, ``title_params``) and worded in the reader's language each time it is
read (``Assignment.title``): a Spanish child reads "Practicar 5 + 9" for homework an English
teacher set. The label of a homework's match (``Match.label``) follows the same rule.

This module imports no model, so that ``classroom.models`` can word its titles with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from accounts.bidi import ltr
from classroom.practice.working_set import SIGNS

TYPED = ""  # the teacher's own words
PRACTISE_FACTS = "practise_facts"  # params: {"facts": [[operation, first, second], ...]}
PERSONAL_PRACTICE = "personal_practice"
PRACTICE_SQUARES = "practice_squares"
KINDS = (PRACTISE_FACTS, PERSONAL_PRACTICE, PRACTICE_SQUARES)


@dataclass(frozen=True)
class PlatformTitle:
    """A title the platform gives: its kind and the parameters its words need."""

    kind: str
    params: dict = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return worded(self.kind, self.params)


def practise_facts(facts: Iterable[tuple[str, int, int]]) -> PlatformTitle:
    return PlatformTitle(PRACTISE_FACTS, {"facts": [list(fact) for fact in facts]})


PERSONAL_PRACTICE_TITLE = PlatformTitle(PERSONAL_PRACTICE)
PRACTICE_SQUARES_TITLE = PlatformTitle(PRACTICE_SQUARES)


def facts_text(facts: Iterable[Iterable]) -> str:
    """ "5 + 9, 7 × 8": the signs are the same in every language."""
    return ", ".join(ltr(f"{first} {SIGNS.get(op, op)} {second}") for op, first, second in facts)


def worded(kind: str, params: dict) -> str:
    """A platform title in the active language ("" for a kind this version does not know)."""
    if kind == PRACTISE_FACTS:
        return _("Practise %(facts)s") % {"facts": facts_text(params.get("facts", []))}
    if kind == PERSONAL_PRACTICE:
        return _("Personal practice")
    if kind == PRACTICE_SQUARES:
        return _("Practice squares")
    return ""


# A homework match's label: "<title> · <item>/<items>", a message translated when read
# (games.models.shown_label) for a platform title, the teacher's words for a typed one.
LABELS = {
    PRACTISE_FACTS: gettext_noop("Practise %(facts)s · %(item)s/%(count)s"),
    PERSONAL_PRACTICE: gettext_noop("Personal practice · %(item)s/%(count)s"),
    PRACTICE_SQUARES: gettext_noop("Practice squares · %(item)s/%(count)s"),
}


def match_label(assignment, item: int) -> tuple[str, dict]:
    """(label, label values) of the match of ``item`` (0-based) of ``assignment``."""
    values = {"item": item + 1, "count": len(assignment.items)}
    label = LABELS.get(assignment.title_kind)
    if label is None:
        return f"{assignment.typed_title} · {values['item']}/{values['count']}", {}
    if assignment.title_kind == PRACTISE_FACTS:
        values["facts"] = facts_text(assignment.title_params.get("facts", []))
    return label, values


def give_title(assignment, title: str | PlatformTitle) -> None:
    """Names a new assignment: the platform's title as data, a typed one as typed."""
    if isinstance(title, PlatformTitle):
        assignment.typed_title = ""
        assignment.title_kind = title.kind
        assignment.title_params = title.params
    else:
        assignment.title = title.strip()


def retitle(assignment, title: str | PlatformTitle) -> None:
    """Names an assignment again, from an edit form that showed its title in the teacher's
    language: the platform's title sent back unchanged stays the platform's (so it is still
    worded for each reader); any other words become the typed title."""
    if isinstance(title, str) and assignment.title_kind and title.strip() == assignment.title:
        return
    give_title(assignment, title)
