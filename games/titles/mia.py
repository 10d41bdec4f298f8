"""¡Mía! as pages name it (engine/mia.py, docs/rules/mia.md and mia_solo.md)."""

from django.utils.translation import gettext_lazy as _

TITLE = _("¡Mía!")
VARIANT_TITLES = {
    "express": _("Express (the game ends when the number deck runs out)"),
    "party": _("Party (the game ends when the operation deck runs out)"),
    "canada47": _("Canada 47 (first to the target wins)"),
    "solo5": _("Solo square 5×5"),
    "solo4": _("Solo square 4×4 (children)"),
    "solo3": _("Solo square 3×3 (children)"),
}
# What a child reads (their home page, the waiting room, the table): short, no rules.
CHILD_VARIANT_TITLES = {
    "express": _("Quick game"),
    "party": _("Long game"),
    "canada47": _("Canada 47"),
    "solo5": _("Square 5×5"),
    "solo4": _("Square 4×4"),
    "solo3": _("Square 3×3"),
}
OPTION_LABELS = {
    "pass_timeout_seconds": _("Seconds before a new card is flipped when nobody solves"),
    "extra_time_seconds": _("Seconds of an Extra time card"),
    "target": _("Points to reach"),
    "calm": _("Calm table: each player answers every card in their own time (no race, no clock)"),
}
