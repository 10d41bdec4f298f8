"""Each game's names as pages show them, translated: ``games/titles/<slug>.py`` holds ``TITLE``,
``VARIANT_TITLES`` and, for options of its own, ``OPTION_LABELS`` and ``CHOICE_LABELS`` (read by
games.catalog). A game without one is shown in its engine module's English."""
