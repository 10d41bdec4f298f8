"""The languages declared complete: the one list every language test reads (docs/translations.md).

A language joins ``COMPLETE`` when its translators are done: both its catalogues translated whole
(no empty, no fuzzy entry), its glossary in docs/translations.md, and then these pass for it:

- ``tests/site/test_i18n.py``: its catalogues
  (``test_a_complete_language_has_every_text_translated``), its counts and dates on the pages
  (``test_counts_and_dates_on_the_pages``);
- ``tests/browser/test_every_page_in_every_language.py``: every page type, each game played to its
  end, the PDFs and CSVs, with no English word, no raw placeholder and no text out of its box at
  phone size.

Until then those tests leave the language out, and the catalogue test expects it to be incomplete
(an expected failure that fails once the catalogue is whole: the sign to add it here).
"""

from config.languages import TRANSLATED

COMPLETE = ["es", "fr", "de", "ar", "nl", "pt", "it"]

# Every language the site speaks but English, complete or not.
ALL = TRANSLATED
