"""How an assignment reads on a page, in the reader's language."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from classroom.models import Assignment
from games import catalog

BOT_LEVELS = {
    "random": lambda: _("beginner bots"),
    "easy": lambda: _("easy bots"),
    "strong": lambda: _("strong bots"),
    "adaptive": lambda: _("bots that follow each child's results"),
}
# The same bots as a child reads them on their own homework.
CHILD_BOT_LEVELS = {
    "random": lambda: _("robots that are just learning"),
    "easy": lambda: _("easy robots"),
    "strong": lambda: _("strong robots"),
    "adaptive": lambda: _("robots that play at your level"),
}


def describe_assignment(assignment: Assignment, *, child: bool = False) -> str:
    """The teacher's words, or with ``child`` a child's (short variant names, robots)."""
    count = len(assignment.items)
    if assignment.kind == Assignment.Kind.PERSONAL:
        return _describe_personal(assignment, count, child)
    variant = (catalog.child_variant_title if child else catalog.variant_title)(
        assignment.game, assignment.variant
    )
    if assignment.kind == Assignment.Kind.PUZZLES:
        return ngettext(
            "%(count)s puzzle · %(variant)s · difficulty %(difficulty)s",
            "%(count)s puzzles · %(variant)s · difficulty %(difficulty)s",
            count,
        ) % {"count": count, "variant": variant, "difficulty": assignment.difficulty}
    levels = CHILD_BOT_LEVELS if child else BOT_LEVELS
    level = levels.get(assignment.bot_level, lambda: assignment.bot_level)()
    if child:
        return ngettext(
            "%(count)s game of %(game)s · %(players)s players · %(bots)s",
            "%(count)s games of %(game)s · %(players)s players · %(bots)s",
            count,
        ) % {
            "count": count,
            "game": catalog.game_and_variant_title(assignment.game, assignment.variant, child=True),
            "players": assignment.players,
            "bots": level,
        }
    return ngettext(
        "%(count)s game of %(game)s · %(variant)s · %(players)s players · %(bots)s",
        "%(count)s games of %(game)s · %(variant)s · %(players)s players · %(bots)s",
        count,
    ) % {
        "count": count,
        "game": catalog.game_title(assignment.game),
        "variant": variant,
        "players": assignment.players,
        "bots": level,
    }


def _describe_personal(assignment: Assignment, count: int, child: bool) -> str:
    from classroom.practice.services import allowed_choices

    games = ", ".join(c.label for c in allowed_choices(assignment))
    level = BOT_LEVELS.get(assignment.bot_level, lambda: assignment.bot_level)()
    # Sized in minutes of play or in items: each sentence whole, as its translators read it.
    minutes = assignment.options.get("minutes")
    if minutes and child:
        return ngettext(
            "%(count)s minute of games or puzzles chosen for you · %(games)s",
            "%(count)s minutes of games or puzzles chosen for you · %(games)s",
            minutes,
        ) % {"count": minutes, "games": games}
    if minutes:
        return ngettext(
            "Personal practice: %(count)s minute of play for each child, toward their own facts · "
            "%(games)s · %(bots)s",
            "Personal practice: %(count)s minutes of play for each child, toward their own facts · "
            "%(games)s · %(bots)s",
            minutes,
        ) % {"count": minutes, "games": games, "bots": level}
    if child:
        return ngettext(
            "%(count)s game or puzzle chosen for you · %(games)s",
            "%(count)s games or puzzles chosen for you · %(games)s",
            count,
        ) % {"count": count, "games": games}
    return ngettext(
        "Personal practice: %(count)s item for each child, toward their own facts · %(games)s · "
        "%(bots)s",
        "Personal practice: %(count)s items for each child, toward their own facts · %(games)s · "
        "%(bots)s",
        count,
    ) % {"count": count, "games": games, "bots": level}
