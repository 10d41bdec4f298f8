"""The words of the progress pages, reports and monitor: the names of skills, operations and
slips, figures as text, and a wrong answer worded as it happened at the table. The selectors
return figures; what is read of them is written here, once.

A wrong answer is worded game by game (issue 14: "5 + 9 = 1, right answer 14" read as if the child
had added 5 and 9 and written 1, when in ¡Mía! they had claimed that 5 and 9 make the 1 on the
table).

Each game's attempt (engine.core.attempt_event, docs/slips.md) holds the problem's numbers
(operands, true result, target) and the child's (answer); ``did`` says what the child did with
them and ``right`` what the problem truly gave.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

import engine
from accounts.bidi import ltr
from classroom.progress.models import MEDIAN_BOUND_MS, MEDIAN_BOUND_SHARE
from classroom.progress.numbers import percent, too_few
from games import catalog
from games.catalog import SIGNS

OPERATIONS = {
    "add": gettext_lazy("Addition"),
    "sub": gettext_lazy("Subtraction"),
    "mul": gettext_lazy("Multiplication"),
    "div": gettext_lazy("Division"),
    "mixed": gettext_lazy("Mixed operations"),
}
RANGES = {
    "within10": gettext_lazy("within 10"),
    "within20": gettext_lazy("within 20"),
    "within100": gettext_lazy("within 100"),
    "over100": gettext_lazy("over 100"),
}
MISTAKES = {
    "wrong_operation": gettext_lazy("Wrong operation"),
    "regrouping": gettext_lazy("Carrying or borrowing slip"),
    "table_neighbour": gettext_lazy("Neighbouring times-table fact"),
    "table_related": gettext_lazy("Another fact of the same times table"),
    "operand_misread": gettext_lazy("Misread a number"),
    "reversed_digits": gettext_lazy("Digits reversed"),
    "off_by_one": gettext_lazy("Off by one"),
    "off_by_two": gettext_lazy("Off by two"),
    "off_by_ten": gettext_lazy("Off by ten"),
    "operand_intrusion": gettext_lazy("Gave back a number of the problem"),
    "far_off": gettext_lazy("Far off (a guess?)"),
    "other": gettext_lazy("Other slips"),
}
_FACT = re.compile(r"^(-?\d+)([+\-x÷])(-?\d+)$")


# --- names and figures ---------------------------------------------------------------------------


def skill_label(skill: str) -> str:
    """A skill tag ("add.within10") as every page names it: "Addition within 10"."""
    return _skill_label(skill, get_language())


@functools.lru_cache(maxsize=512)
def _skill_label(skill: str, language: str | None) -> str:
    """Remembered per language: the live monitor names the same few skills on every change."""
    operation, _dot, band = skill.partition(".")
    return f"{OPERATIONS.get(operation, operation)} {RANGES.get(band, band)}".strip()


def operation_label(operation: str) -> str:
    return str(OPERATIONS.get(operation, operation))


def fact_text(fact: str) -> str:
    """A fact as stored ("7x8") as written ("7 × 8")."""
    found = _FACT.match(fact)
    if not found:
        return fact
    left, sign, right = found.groups()
    return ltr(f"{left} {SIGNS[sign]} {right}")


def known_fact_text(operation: str, left: int, right: int) -> str:
    """A fact a child knows by heart, with its result: "3 + 4 = 7", "6 × 7 = 42" (sums and times
    tables are the facts a child learns so)."""
    if operation == "add":
        return ltr(f"{left} + {right} = {left + right}")
    return ltr(f"{left} × {right} = {left * right}")


def percent_text(value: int) -> str:
    """A share as its language writes it: "86%", French and German "86 %" (no-break space)."""
    return _("%(percent)s%%") % {"percent": value}


def accuracy_text(right: int, answers: int) -> str:
    if too_few(answers):
        return _("too few answers")
    value = percent(right, answers)
    return "—" if value is None else percent_text(value)


def seconds_text(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return _("%(seconds)s s") % {"seconds": number_format(seconds, 1)}


def median_text(seconds: float | None, *, at_least: bool = False) -> str:
    """A median answer time; ``at_least`` when it is a lower bound (figures.Median)."""
    if at_least:
        return _("at least %(time)s") % {"time": seconds_text(seconds)}
    return seconds_text(seconds)


def median_precision_text() -> str:
    """What every page and report says of its medians (figures.median_from_histogram)."""
    return _(
        "Median times are within %(seconds)s s of the exact value (within %(percent)s%% for "
        "times over %(over)s s)."
    ) % {
        "seconds": number_format(MEDIAN_BOUND_MS / 1000, 1),
        "percent": round(MEDIAN_BOUND_SHARE * 100),
        "over": round(MEDIAN_BOUND_MS / MEDIAN_BOUND_SHARE / 1000),
    }


def change_text(change: int | None, answers_before: int) -> str:
    """A skill's accuracy against the period before, in percentage points: "+5 points",
    "−3 points", "±0 points"; "new in this period" without answers before, "—" with too few."""
    if change is not None:
        return ngettext("%(change)s point", "%(change)s points", abs(change)) % {
            "change": ltr(f"+{change}" if change > 0 else f"−{-change}" if change else "±0")
        }
    if answers_before == 0:
        return _("new in this period")
    return "—"


# --- a wrong answer at the table -----------------------------------------------------------------

# The Attempt fields ``wording`` reads: a query that words answers loads these (``.only``).
WORDED_FIELDS = ("game", "operands", "operator", "answer", "expected", "target", "detail")


@dataclass(frozen=True)
class Wording:
    did: str  # "Claimed 5 + 9 for the 1"
    right: str  # "5 + 9 makes 14"


def _numbers(attempt) -> list[int]:
    operands = attempt.operands if isinstance(attempt.operands, list) else []
    return [n for n in operands if isinstance(n, int) and not isinstance(n, bool)]


def _own_expression(attempt) -> str | None:
    """The problem as its game writes it from the attempt's details (a titles module's
    ``expression``: SUM's may mix signs), its arithmetic kept left to right by the game."""
    own = getattr(catalog.titles_module(attempt.game), "expression", None)
    return (own(attempt) if own is not None else None) or None


def _written(attempt) -> str:
    sign = f" {SIGNS.get(attempt.operator, attempt.operator)} "
    return sign.join(str(n) for n in _numbers(attempt)) or "?"


def _expression(attempt) -> str:
    """The problem as written, "5 + 9", kept left to right in a right-to-left sentence."""
    return _own_expression(attempt) or ltr(_written(attempt))


def _equation(attempt) -> str:
    """The problem and its true result, "5 + 9 = 14", kept left to right as one."""
    own = _own_expression(attempt)
    if own:
        return f"{own} = {attempt.expected}"
    return ltr(f"{_written(attempt)} = {attempt.expected}")


def _claimed(attempt) -> Wording:
    """The child says their cards make the target card (¡Mía!, SUM)."""
    expression = _expression(attempt)
    target = attempt.target if attempt.target is not None else attempt.answer
    if attempt.expected is None:  # a division with a remainder (SUM's 2 ÷ 5) has no value
        right = _("%(expression)s makes no whole number") % {"expression": expression}
    else:
        right = _("%(expression)s makes %(value)s") % {
            "expression": expression,
            "value": attempt.expected,
        }
    return Wording(
        _("Claimed %(expression)s for the %(target)s")
        % {"expression": expression, "target": target},
        right,
    )


def _balanced(attempt) -> Wording:
    """ADD UP: a card laid to even out the two rows; the answer is negative on the bigger row."""
    numbers = _numbers(attempt)
    bigger, smaller = [*numbers, 0, 0][:2]
    rows = {"bigger": bigger, "smaller": smaller}
    right = _("The rows made %(bigger)s and %(smaller)s: a %(gap)s on the smaller row") % {
        **rows,
        "gap": attempt.expected,
    }
    if attempt.answer is not None and attempt.answer < 0:
        did = _("Laid a %(card)s on the bigger row") % {"card": -attempt.answer}
    else:
        did = _("Laid a %(card)s on the smaller row") % {"card": attempt.answer}
    return Wording(did, right)


def _placed(attempt) -> Wording:
    """Mathable Junior: a tile laid next to two tiles it should complete."""
    numbers = _numbers(attempt)
    if len(numbers) != 2 or attempt.expected is None:
        return Wording(
            _("Placed a %(tile)s") % {"tile": attempt.answer},
            _("No sum, difference or product of its neighbours makes %(tile)s")
            % {"tile": attempt.answer},
        )
    first, second = numbers
    return Wording(
        _("Placed a %(tile)s next to %(first)s and %(second)s")
        % {"tile": attempt.answer, "first": first, "second": second},
        _equation(attempt),
    )


def _typed(attempt) -> Wording:
    """Add or Multiply?: the child types the round's score."""
    return Wording(
        _("Typed %(answer)s for %(expression)s")
        % {"answer": attempt.answer, "expression": _expression(attempt)},
        _equation(attempt),
    )


# engine.core.Game.answer_form -> its words.
_BY_FORM = {
    "claimed": _claimed,
    "balanced": _balanced,
    "placed": _placed,
    "typed": _typed,
}


def wording(attempt) -> Wording:
    """How a teacher reads this attempt, as its game says its answers are given. An attempt of a
    game no longer played, or of a form not worded here, reads as an answer typed for its
    problem."""
    form = engine.get_game(attempt.game).answer_form if engine.is_game(attempt.game) else "typed"
    return _BY_FORM.get(form, _typed)(attempt)
