"""Each language's dates in words (``FORMAT_MODULE_PATH``): ``<language>/formats.py``.

The months' names are Django's own texts, brought into the site's catalogues here so that each
language writes them as inside a date: Django's Italian and Portuguese capitalise them
("3 Novembre 2026"), which those languages do not. The site's catalogues come before Django's.
"""

from django.utils.translation import gettext_noop

MONTHS = [
    # Translators: a month's name as written inside a date ("3 November 2026"): lower case in
    # Spanish, French, Dutch, Italian and Portuguese ("3 de noviembre de 2026", "3 novembre 2026").
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
]
