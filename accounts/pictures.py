"""The picture grid of student picture passwords.

A child taps a short sequence of pictures from a small grid. The keys are stored (hashed, in
canonical form); the labels are what a screen reader says and what a teacher reads on a login card.
"""

from django.utils.translation import gettext_lazy as _

# key -> (emoji shown, spoken label). Nine pictures: easy to tell apart and to name aloud.
PICTURES = {
    "cat": ("🐱", _("cat")),
    "dog": ("🐶", _("dog")),
    "fish": ("🐟", _("fish")),
    "apple": ("🍎", _("apple")),
    "star": ("⭐", _("star")),
    "sun": ("☀️", _("sun")),
    "tree": ("🌳", _("tree")),
    "car": ("🚗", _("car")),
    "ball": ("⚽", _("ball")),
}
PICTURE_SEQUENCE_LENGTH = (3, 5)  # how many taps a picture password has, at least and at most
PIN_LENGTH = (4, 6)
