"""The games, variants and options as people read them: the engine names them in English for
developers; pages show the translated names each game's module in games/titles declares (falling
back to the engine's own words), and list the games in the engine's registry."""

from __future__ import annotations

import functools
import importlib
from types import ModuleType

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.translation import gettext_lazy as _

import engine

# Options every game may offer (engine.core.first_player_option); a game's own options are labelled
# in its titles module. An option's name means the same in every game that offers it.
# An operator as pages write it (the engine writes "-" and "x").
SIGNS = {"+": "+", "-": "−", "x": "×", "÷": "÷"}
SHARED_OPTION_LABELS = {"first_player": _("Who starts")}
SHARED_CHOICE_LABELS = {
    ("first_player", "random"): _("Drawn at random"),
    ("first_player", "seat0"): _("The first seat"),
}


def titles_module(slug: str) -> ModuleType | None:
    """``games.titles.<slug>`` of a registered game (or the same name under another of
    ``settings.GAME_TITLES_PACKAGES``), or None when it has none."""
    if not engine.is_game(slug):
        return None
    for package in settings.GAME_TITLES_PACKAGES:
        name = f"{package}.{slug}"
        try:
            return importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
    return None


@functools.cache
def stylesheet(slug: str) -> str | None:
    """The game's own stylesheet, ``static/css/games/<slug>.css``, which the play page loads for
    this game alone, or None when it has none. Looked for once per game: the static files do not
    change while the process runs, only where they are looked for (below)."""
    path = f"css/games/{slug}.css"
    return path if finders.find(path) is not None else None


@receiver(setting_changed)
def _look_for_stylesheets_again(*, setting, **kwargs):
    """A test that adds static directories (the test game's, tests/settings.py) or removes them."""
    if setting in {"STATICFILES_DIRS", "STATICFILES_FINDERS", "INSTALLED_APPS"}:
        stylesheet.cache_clear()


def games() -> list[engine.Game]:
    """Every game, in the order pages list them."""
    return engine.list_games()


def game_titles() -> list[str]:
    return [game_title(game.slug) for game in games()]


def game_title(slug: str) -> str:
    title = getattr(titles_module(slug), "TITLE", None)
    return str(title) if title is not None else engine.get_game(slug).title


def variant_title(slug: str, variant: str) -> str:
    title = getattr(titles_module(slug), "VARIANT_TITLES", {}).get(variant)
    if title is not None:
        return str(title)
    spec = engine.get_game(slug).variants.get(variant)
    return spec.title if spec is not None else variant


def child_variant_title(slug: str, variant: str) -> str:
    """The variant as a child reads it ("Quick game"): the titles module's
    ``CHILD_VARIANT_TITLES``, else the teacher's title (``variant_title``), which may describe the
    rules at length ("Express (the game ends when the number deck runs out)")."""
    title = getattr(titles_module(slug), "CHILD_VARIANT_TITLES", {}).get(variant)
    return str(title) if title is not None else variant_title(slug, variant)


def game_and_variant_title(slug: str, variant: str, *, child: bool = False) -> str:
    """ "¡Mía! · Canada 47 (…)" (for a child: "¡Mía! · Race to 47"); a variant named like its
    game ("SUM") is not said twice."""
    game = game_title(slug)
    variant = (child_variant_title if child else variant_title)(slug, variant)
    return game if variant == game else f"{game} · {variant}"


def _labels(attribute: str, shared: dict) -> dict:
    labels = dict(shared)
    for game in games():
        labels.update(getattr(titles_module(game.slug), attribute, {}))
    return labels


def option_label(name: str, help_text: str) -> str:
    label = _labels("OPTION_LABELS", SHARED_OPTION_LABELS).get(name)
    return str(label) if label is not None else help_text


def choice_label(name: str, choice: str) -> str:
    label = _labels("CHOICE_LABELS", SHARED_CHOICE_LABELS).get((name, choice))
    return str(label) if label is not None else choice
