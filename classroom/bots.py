"""How bots are named and how their levels read, on every page and form (one set of words).

A table's bots get distinct first names, so a child can tell "Pixel" from "Bolt" in the scores
and the log ("Robot: easy" twice told them nothing). The names are the same in every language:
they are names, short and easy to read aloud.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from engine.bots import LEVELS

BOT_NAMES = ("Pixel", "Bolt", "Sparky", "Gizmo", "Beep", "Dot", "Zip", "Robo")

LEVEL_LABELS = {
    "random": _("Beginner"),
    "easy": _("Easy"),
    "strong": _("Strong"),
}
LEVEL_HELP = _(
    "Beginner bots play at random, wrong moves included; easy bots play right but plainly; "
    "strong bots play their best."
)

assert set(LEVEL_LABELS) == set(LEVELS), "every engine level needs a label"


def bot_name(number: int) -> str:
    """The ``number``-th bot of a table (1, 2, …), distinct from the others at that table."""
    if number < 1:
        raise ValueError("bots are numbered from 1")
    name = BOT_NAMES[(number - 1) % len(BOT_NAMES)]
    rounds = (number - 1) // len(BOT_NAMES)
    return name if rounds == 0 else f"{name} {rounds + 1}"


def level_choices() -> list[tuple[str, str]]:
    return [(level, LEVEL_LABELS[level]) for level in LEVELS]


def level_label(level: str) -> str:
    return str(LEVEL_LABELS.get(level, level))
