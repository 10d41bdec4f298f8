""" "Practise these facts" (issue 25): the small form on the progress pages that turns facts a
teacher is looking at into personal practice homework or a child's table at the next session."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from classroom.practice.working_set import NUMBERS, SIGNS

HOMEWORK = "homework"
SESSION = "session"
WEAK_PERCENT = 70  # a grid's fact under this share of right answers is offered
MAX_FACTS = 12  # a handful to practise at once: a form offers and takes at most this many
OPERATORS = {"+": "add", "x": "mul"}


def fact_value(operation: str, first: int, second: int) -> str:
    return f"{operation}:{first}:{second}"


def parse_fact(value: str) -> tuple[str, int, int] | None:
    """("add", 7, 8) from "add:7:8" for a table fact, else None."""
    parts = value.split(":")
    if len(parts) != 3 or parts[0] not in NUMBERS:
        return None
    try:
        first, second = int(parts[1]), int(parts[2])
    except ValueError:
        return None
    if first not in NUMBERS[parts[0]] or second not in NUMBERS[parts[0]]:
        return None
    return (parts[0], first, second)


def offered(facts) -> list[tuple[str, str]]:
    """(value, label) of each (operation, a, b), once, at most MAX_FACTS."""
    seen = {}
    for operation, first, second in facts:
        seen.setdefault(
            fact_value(operation, first, second), f"{first} {SIGNS[operation]} {second}"
        )
    return list(seen.items())[:MAX_FACTS]


def working_set_facts(working_set) -> list[tuple[str, str]]:
    return offered((i.operation, i.first, i.second) for i in working_set.items)


def weak_grid_facts(grids) -> list[tuple[str, str]]:
    """The grids' facts under WEAK_PERCENT right (judged cells only), weakest first."""
    cells = [
        (cell.percent, grid.table.operation, cell.first, cell.second)
        for grid in grids
        if grid.table.operation in NUMBERS
        for row in grid.rows
        for cell in row
        if cell.percent is not None and cell.percent < WEAK_PERCENT
    ]
    cells.sort(key=lambda c: c[0])
    return offered((operation, a, b) for _p, operation, a, b in cells)


def wrong_facts(answers) -> list[tuple[str, str]]:
    """The table facts of the wrong ``answers`` (the struggling list's, operands decoded)."""
    facts = []
    for answer in answers:
        operation = OPERATORS.get(answer.operator)
        if answer.correct or operation is None or len(answer.operands) != 2:
            continue
        a, b = answer.operands
        if a in NUMBERS[operation] and b in NUMBERS[operation]:
            facts.append((operation, a, b))
    return offered(facts)


class PractiseFactsForm(forms.Form):
    students = forms.MultipleChoiceField(required=False)
    facts = forms.MultipleChoiceField(
        error_messages={"required": _("Choose at least one fact to practise.")}
    )
    to = forms.ChoiceField(choices=[(HOMEWORK, HOMEWORK), (SESSION, SESSION)])

    def __init__(self, *args, roster=(), **kw):
        super().__init__(*args, **kw)
        self.fields["students"].choices = [(str(pk), str(pk)) for pk in roster]
        # Any table fact may be posted (the page offers those it shows).
        self.fields["facts"].choices = [
            (fact_value(operation, a, b), "")
            for operation, numbers in NUMBERS.items()
            for a in numbers
            for b in numbers
        ]

    def clean_students(self):
        return [int(pk) for pk in self.cleaned_data["students"]] or None

    def clean_facts(self):
        return [parse_fact(value) for value in self.cleaned_data["facts"]][:MAX_FACTS]
