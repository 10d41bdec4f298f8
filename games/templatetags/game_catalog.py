"""Pages outside the games app (the landing page) name the games from the catalogue."""

from django import template
from django.utils.text import get_text_list
from django.utils.translation import gettext

from games import catalog

register = template.Library()


@register.simple_tag
def game_names() -> str:
    """The games as one phrase in the reader's language: "¡Mía!, SUM, … and Add or Multiply?"."""
    return get_text_list(catalog.game_titles(), gettext("and"))
