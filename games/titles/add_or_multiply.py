"""Add or Multiply? as pages name it (engine/add_or_multiply.py, docs/rules/add_or_multiply.md)."""

from django.utils.translation import gettext_lazy as _

TITLE = _("Add or Multiply?")
VARIANT_TITLES = {
    "standard": _("Add or Multiply?"),
    "to_ten": _("Numbers to 10 (a card of each number from 0 to 10; not in the rulebook)"),
}
CHILD_VARIANT_TITLES = {"standard": _("Add or Multiply?"), "to_ten": _("Numbers to 10")}
OPTION_LABELS = {"students_score": _("Students type their own round score")}
