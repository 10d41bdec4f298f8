"""Numbers as a page shows them (accounts/digits.py, accounts/bidi.py):

{% load numerals %}
{{ figure|digits }}             12, or ١٢ on an Arabic page of a school that chose ١٢
{{ fact|expression }}           <bdo dir="ltr">3 + 4</bdo>: kept left to right in any sentence
{% shown_digits as DIGITS %}    "latn" or "arab", for <html data-digits> (static/js/digits.js)
"""

from django import template
from django.utils.html import format_html

from accounts import digits as digit_systems

register = template.Library()


@register.filter(is_safe=True)
def digits(value):
    return digit_systems.shown(value)


@register.filter
def expression(value):
    """An expression, an equation or a signed number, isolated and held left to right."""
    return format_html('<bdo dir="ltr">{}</bdo>', digit_systems.shown(value))


@register.simple_tag
def shown_digits() -> str:
    return digit_systems.shown_system()
