"""Mathable Junior as pages name it (engine/mathable_junior.py, docs/rules/mathable_junior.md)."""

from django.utils.translation import gettext_lazy as _

TITLE = _("Mathable Junior")
VARIANT_TITLES = {
    "front": _("Front side: +, - and 2X squares"),
    "back": _("Back side: the numbered grid"),
}
CHILD_VARIANT_TITLES = {"front": _("Front side"), "back": _("Back side")}
OPTION_LABELS = {"priority": _("A tile that can score must score")}
