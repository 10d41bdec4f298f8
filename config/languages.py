"""The site's languages and their catalogues' plural forms (docs/translations.md).

Each language is named in itself ("Français", not "French"): the switcher reads the same to every
reader, whatever the page's language. The plural forms are those of the gettext manual and of
CLDR; ``make messages`` writes them into each catalogue's header (``tools.catalogues``), so a
catalogue made by a translation platform or by ``makemessages`` cannot carry another.
"""

# (code, name in the language itself), the switcher's order.
LANGUAGES = [
    ("en", "English"),
    ("es", "Español"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("nl", "Nederlands"),
    ("it", "Italiano"),
    ("pt", "Português"),
    ("ar", "العربية"),
]

# The languages with catalogues (English is the sources' own).
TRANSLATED = [code for code, _name in LANGUAGES if code != "en"]

# The Plural-Forms header of each catalogue.
PLURAL_FORMS = {
    # one, "de millones" (1 000 000 de estudiantes), other: as Django's own Spanish
    "es": "nplurals=3; plural=n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;",
    # 0 and 1 are singular in French ("0 élève", "1 élève", "2 élèves")
    "fr": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "pt": "nplurals=2; plural=(n != 1);",
    # zero, one, two, few (3-10), many (11-99), other (100-102...): CLDR's six
    "ar": (
        "nplurals=6; plural=n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : "
        "n % 100 >= 3 && n % 100 <= 10 ? 3 : n % 100 >= 11 ? 4 : 5;"
    ),
}


def supported(code: str | None) -> str:
    """``code`` if the site speaks it, else "" (a stored choice of a language since removed)."""
    return code if code in dict(LANGUAGES) else ""
