"""How bots are named and how their levels read, on every page and form (one set of words).

A table's bots get distinct first names, so a child can tell "Pixel" from "Bolt" in the scores
and the log ("Robot: easy" twice told them nothing). In a class session they are numbered across
the whole room (classroom.sessions.services), so the projector never shows "Pixel" at every
table: sixteen names, then "Pixel 2"... The names are the same in every language:
they are names, short and easy to read aloud.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from engine.bots import LEVELS

BOT_NAMES = (
    "Pixel",
    "Bolt",
    "Sparky",
    "Gizmo",
    "Beep",
    "Dot",
    "Zip",
    "Robo",
    "Chip",
    "Nova",
    "Blip",
    "Widget",
    "Cosmo",
    "Echo",
    "Turbo",
    "Sprocket",
)

LEVEL_LABELS = {
    "random": _("Beginner"),
    "easy": _("Easy"),
    "strong": _("Strong"),
}
# Homework's default: each child's bots follow their own results (``adaptive_level``).
ADAPTIVE = "adaptive"
ADAPTIVE_LABEL = _("Adaptive: follows each child's results")
ADAPTIVE_GAMES = 3  # the latest games against bots that decide the next level
LEVEL_HELP = _(
    "Beginner bots play at random, wrong moves included; easy bots play right but plainly; "
    "strong bots play their best."
)
ADAPTIVE_HELP = _(
    "Adaptive: each child starts with beginner bots, meets the next level up after winning two "
    "games at a level and the next level down after losing three in a row."
)

# A lesson's option: each table's bots at the level of its children's figures at the lesson's game
# (``table_level``), so a table of beginners meets beginners and a fluent table strong bots.
AT_TABLE_LEVEL = "table"
AT_TABLE_LEVEL_LABEL = _("At each table's level: its children's figures")
AT_TABLE_LEVEL_HELP = _(
    "At each table's level: a table whose children are still learning the game's facts plays "
    "beginner bots, one that answers them well easy bots, one that knows them fluently strong "
    "bots; the least sure child of a table decides."
)
# A child's mean mastery of the game's skills (0 not started .. 4 mastered) from which their
# table's bots play at each level: below 1.5 beginner, below 3 easy, else strong.
TABLE_LEVEL_STEPS = ((1.5, "random"), (3.0, "easy"))

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


def session_level_choices() -> list[tuple[str, str]]:
    return [*level_choices(), (AT_TABLE_LEVEL, AT_TABLE_LEVEL_LABEL)]


def table_level(mean_levels: list[float | None]) -> str:
    """The bots' level at a table from its children's mean mastery levels at the game (None: no
    figures yet, read as not started): the least sure child decides, so nobody meets bots
    beyond them."""
    weakest = min((level or 0.0 for level in mean_levels), default=0.0)
    for below, level in TABLE_LEVEL_STEPS:
        if weakest < below:
            return level
    return LEVELS[-1]


def homework_level_choices() -> list[tuple[str, str]]:
    return [(ADAPTIVE, ADAPTIVE_LABEL), *level_choices()]


def adaptive_level(results: list[tuple[str, bool]]) -> str:
    """The bots' level for a child's next game from their latest games against bots, newest
    first, as (the bots' level, whether the child won): a child who won two of their last games
    (up to three) at the current level meets the next level up, one who lost three in a row there
    the next level down, anyone else the same level again. A child new to bots starts with
    beginners: a level the child cannot reach teaches nothing."""
    if not results:
        return LEVELS[0]
    current = results[0][0] if results[0][0] in LEVELS else LEVELS[0]
    # Only the games at the current level count: a level is judged on its own games.
    latest = []
    for level, won in results[:ADAPTIVE_GAMES]:
        if level != current:
            break
        latest.append(won)
    index = LEVELS.index(current)
    wins = sum(latest)
    if len(latest) >= 2 and wins >= 2:
        index = min(index + 1, len(LEVELS) - 1)
    elif len(latest) == ADAPTIVE_GAMES and wins == 0:
        index = max(index - 1, 0)
    return LEVELS[index]
