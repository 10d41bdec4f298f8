"""Count to ten as pages name it (tests/engine/count_to_ten.py, tests/engine/count_to_ten.md), for
the tests alone: tests/settings.py adds this package to ``GAME_TITLES_PACKAGES`` and its Spanish is
in tests/locale."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

TITLE = gettext_lazy("Count to ten")
VARIANT_TITLES = {
    "ten": gettext_lazy("Count to ten"),
    "race": gettext_lazy("Count to a goal, up to four players"),
}
CHILD_VARIANT_TITLES = {"race": gettext_lazy("Race to the goal")}
OPTION_LABELS = {"goal": gettext_lazy("The number that wins")}


def expression(attempt) -> str | None:
    """The count and the step the child counted on by, "7 and 2 more"."""
    operands = attempt.operands if isinstance(attempt.operands, list) else []
    if len(operands) != 2:
        return None
    return _("%(count)s and %(step)s more") % {"count": operands[0], "step": operands[1]}
