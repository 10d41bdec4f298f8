"""SUM as pages name it (engine/sum.py, docs/rules/sum.md)."""

from django.utils.translation import gettext_lazy as _

TITLE = _("SUM")
VARIANT_TITLES = {"standard": _("SUM")}
OPTION_LABELS = {"wrong_limit": _("Wrong equations allowed in one turn")}
