"""The games, variants and options as people read them: the engine names them in English for
developers; pages show these translated names (falling back to the engine's own words)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

import engine

GAME_TITLES = {
    "mia": _("¡Mía!"),
    "sum": _("SUM"),
    "add_up": _("ADD UP"),
    "mathable_junior": _("Mathable Junior"),
    "add_or_multiply": _("Add or Multiply?"),
}

VARIANT_TITLES = {
    ("mia", "express"): _("Express (the game ends when the number deck runs out)"),
    ("mia", "party"): _("Party (the game ends when the operation deck runs out)"),
    ("mia", "canada47"): _("Canada 47 (first to the target wins)"),
    ("mia", "solo5"): _("Solo square 5×5"),
    ("mia", "solo4"): _("Solo square 4×4 (children)"),
    ("mia", "solo3"): _("Solo square 3×3 (children)"),
    ("sum", "standard"): _("SUM"),
    ("add_up", "standard"): _("48 cards with jokers"),
    ("add_up", "no_jokers"): _("36 number cards, no jokers"),
    ("mathable_junior", "front"): _("Front side: +, - and 2X squares"),
    ("mathable_junior", "back"): _("Back side: the numbered grid"),
    ("add_or_multiply", "standard"): _("Add or Multiply?"),
}

OPTION_LABELS = {
    "pass_timeout_seconds": _("Seconds before a new card is flipped when nobody solves"),
    "extra_time_seconds": _("Seconds of an Extra time card"),
    "target": _("Points to reach"),
    "first_player": _("Who starts"),
    "wrong_limit": _("Wrong equations allowed in one turn"),
    "capture_plays_again": _("After a capture the same player plays again"),
    "priority": _("A tile that can score must score"),
    "students_score": _("Students type their own round score"),
}

CHOICE_LABELS = {
    ("first_player", "random"): _("Drawn at random"),
    ("first_player", "seat0"): _("The first seat"),
}


def game_title(slug: str) -> str:
    title = GAME_TITLES.get(slug)
    return str(title) if title is not None else engine.get_game(slug).title


def variant_title(slug: str, variant: str) -> str:
    title = VARIANT_TITLES.get((slug, variant))
    if title is not None:
        return str(title)
    spec = engine.get_game(slug).variants.get(variant)
    return spec.title if spec is not None else variant


def option_label(name: str, help_text: str) -> str:
    label = OPTION_LABELS.get(name)
    return str(label) if label is not None else help_text


def choice_label(name: str, choice: str) -> str:
    label = CHOICE_LABELS.get((name, choice))
    return str(label) if label is not None else choice
