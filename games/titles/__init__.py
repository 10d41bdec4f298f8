"""Each game's names as pages show them, translated: ``games/titles/<slug>.py`` holds ``TITLE``,
``VARIANT_TITLES`` (the teacher's, which may say how the game ends), ``CHILD_VARIANT_TITLES`` (a
child's few words; a variant without one shows its teacher's title) and, for options of its own,
``OPTION_LABELS`` and ``CHOICE_LABELS`` (read by games.catalog), and optionally
``expression(attempt)``, the problem as the child wrote it from the details the game keeps in its
attempts (read by classroom/progress/wording.py). A game without one is shown in its engine
module's English."""
