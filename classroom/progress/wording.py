"""A wrong answer worded as it happened at the table, game by game (issue 14: "5 + 9 = 1, right
answer 14" read as if the child had added 5 and 9 and written 1, when in ¡Mía! they had claimed
that 5 and 9 make the 1 on the table).

Each game's attempt (engine.core.attempt_event, docs/slips.md) holds the problem's numbers
(operands, true result, target) and the child's (answer); ``did`` says what the child did with
them and ``right`` what the problem truly gave.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

import engine
from games import catalog
from games.catalog import SIGNS

# The Attempt fields ``wording`` reads: a query that words answers loads these (``.only``).
WORDED_FIELDS = ("game", "operands", "operator", "answer", "expected", "target", "detail")


@dataclass(frozen=True)
class Wording:
    did: str  # "Claimed 5 + 9 for the 1"
    right: str  # "5 + 9 makes 14"


def _numbers(attempt) -> list[int]:
    operands = attempt.operands if isinstance(attempt.operands, list) else []
    return [n for n in operands if isinstance(n, int) and not isinstance(n, bool)]


def _expression(attempt) -> str:
    """The problem as written, "5 + 9", or as its game writes it from the attempt's details (a
    titles module's ``expression``: SUM's may mix signs)."""
    own = getattr(catalog.titles_module(attempt.game), "expression", None)
    written = own(attempt) if own is not None else None
    if written:
        return written
    sign = f" {SIGNS.get(attempt.operator, attempt.operator)} "
    return sign.join(str(n) for n in _numbers(attempt)) or "?"


def _claimed(attempt) -> Wording:
    """The child says their cards make the target card (¡Mía!, SUM)."""
    expression = _expression(attempt)
    target = attempt.target if attempt.target is not None else attempt.answer
    return Wording(
        _("Claimed %(expression)s for the %(target)s")
        % {"expression": expression, "target": target},
        _("%(expression)s makes %(value)s") % {"expression": expression, "value": attempt.expected},
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
        f"{_expression(attempt)} = {attempt.expected}",
    )


def _typed(attempt) -> Wording:
    """Add or Multiply?: the child types the round's score."""
    expression = _expression(attempt)
    return Wording(
        _("Typed %(answer)s for %(expression)s")
        % {"answer": attempt.answer, "expression": expression},
        f"{expression} = {attempt.expected}",
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
