"""ADD UP as pages name it (engine/add_up.py, docs/rules/add_up.md)."""

from django.utils.translation import gettext_lazy as _

TITLE = _("ADD UP")
VARIANT_TITLES = {
    "standard": _("48 cards with jokers"),
    "no_jokers": _("36 number cards, no jokers"),
}
CHILD_VARIANT_TITLES = {"standard": _("With jokers"), "no_jokers": _("No jokers")}
OPTION_LABELS = {"capture_plays_again": _("After a capture the same player plays again")}
