"""The product's settings plus the files of the test-only game Count to ten
(tests/engine/count_to_ten.py), which the product never serves: its renderer and stylesheet
(tests/static), its names (tests/titles) and its Spanish (tests/locale). The ``count_to_ten``
fixture applies ``TEST_GAME_FILES`` to one test; a site started for the browser tests runs with
this module (``DJANGO_SETTINGS_MODULE=tests.settings``) and registers the game modules named in
``TEST_GAMES`` (space-separated)."""

import os

import engine
from config.settings import *  # noqa: F403
from config.settings import BASE_DIR, GAME_TITLES_PACKAGES, LOCALE_PATHS, STATICFILES_DIRS

TEST_GAME_FILES = {
    "STATICFILES_DIRS": [*STATICFILES_DIRS, BASE_DIR / "tests" / "static"],
    "LOCALE_PATHS": [*LOCALE_PATHS, BASE_DIR / "tests" / "locale"],
    "GAME_TITLES_PACKAGES": [*GAME_TITLES_PACKAGES, "tests.titles"],
}
vars().update(TEST_GAME_FILES)

for module in os.environ.get("TEST_GAMES", "").split():
    if not engine.is_game(module.rpartition(".")[2]):
        engine.register_game(module)
