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


def describe_assignment(assignment: Assignment) -> str:
    count = len(assignment.items)
    variant = catalog.variant_title(assignment.game, assignment.variant)
    if assignment.kind == Assignment.Kind.PUZZLES:
        return ngettext(
            "%(count)s puzzle · %(variant)s · difficulty %(difficulty)s",
            "%(count)s puzzles · %(variant)s · difficulty %(difficulty)s",
            count,
        ) % {"count": count, "variant": variant, "difficulty": assignment.difficulty}
    level = BOT_LEVELS.get(assignment.bot_level, lambda: assignment.bot_level)()
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
