"""Numbers read aloud (issue 22, accommodations): the recorded clips a play page composes numbers
from, in English and Spanish. The clips are made once, offline, by scripts/make-number-clips from
the words below, and committed under static/audio/<language>/<clip>.mp3; the page of a child with
read-aloud on gets their addresses and fetches them all at start, so that reading works on with
the network cut (static/js/play/read-aloud.js composes a number from them).

A clip's name is what static/js/play/read-aloud.js asks for: a number's own word ("7", "20",
"100"), a word that joins them ("hundred", "y", "ciento") or an operator ("plus", "minus",
"times", "divided", "equals")."""

from __future__ import annotations

from django.templatetags.static import static

_EN_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_EN_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_ES_UNITS = [
    "cero",
    "uno",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "seis",
    "siete",
    "ocho",
    "nueve",
    "diez",
    "once",
    "doce",
    "trece",
    "catorce",
    "quince",
    "dieciséis",
    "diecisiete",
    "dieciocho",
    "diecinueve",
    "veinte",
    "veintiuno",
    "veintidós",
    "veintitrés",
    "veinticuatro",
    "veinticinco",
    "veintiséis",
    "veintisiete",
    "veintiocho",
    "veintinueve",
]
_ES_TENS = ["treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"]
_ES_HUNDREDS = [
    "doscientos",
    "trescientos",
    "cuatrocientos",
    "quinientos",
    "seiscientos",
    "setecientos",
    "ochocientos",
    "novecientos",
]

# clip name -> the words spoken into it, per language.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        **{str(n): word for n, word in enumerate(_EN_UNITS)},
        **{str(10 * (i + 2)): word for i, word in enumerate(_EN_TENS)},
        "hundred": "hundred",
        "plus": "plus",
        "minus": "minus",
        "times": "times",
        "divided": "divided by",
        "equals": "equals",
    },
    "es": {
        **{str(n): word for n, word in enumerate(_ES_UNITS)},
        **{str(10 * (i + 3)): word for i, word in enumerate(_ES_TENS)},
        "y": "y",
        "100": "cien",
        "ciento": "ciento",
        **{str(100 * (i + 2)): word for i, word in enumerate(_ES_HUNDREDS)},
        "plus": "más",
        "minus": "menos",
        "times": "por",
        "divided": "entre",
        "equals": "igual a",
    },
}

# The espeak-ng voice of each language (scripts/make-number-clips).
VOICES = {"en": "en-us", "es": "es"}


def clip_language(language_code: str | None) -> str:
    """The clips' language for a page's language ("es", "es-mx" -> "es"; anything else: "en")."""
    base = (language_code or "").split("-")[0].lower()
    return base if base in WORDS else "en"


def clip_path(language: str, name: str) -> str:
    """Where a clip lies under static/."""
    return f"audio/{language}/{name}.mp3"


def read_aloud_config(language_code: str | None) -> dict:
    """What a play page needs to read numbers aloud in its language: the clips' addresses."""
    language = clip_language(language_code)
    return {
        "lang": language,
        "clips": {name: static(clip_path(language, name)) for name in WORDS[language]},
    }
