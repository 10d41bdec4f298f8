"""Add or Multiply? as pages name it (engine/add_or_multiply.py, docs/rules/add_or_multiply.md)."""

from django.utils.translation import gettext_lazy as _

TITLE = _("Add or Multiply?")
VARIANT_TITLES = {"standard": _("Add or Multiply?")}
OPTION_LABELS = {"students_score": _("Students type their own round score")}
