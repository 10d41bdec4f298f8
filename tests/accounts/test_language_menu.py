"""The language menu names each language in itself, on a page in any language: a French reader
looking for English finds "English", not "Anglais"."""

import pytest
from django.utils import translation

from config.languages import LANGUAGES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page_language", ["fr", "es", "de", "ar"])
def test_the_menu_names_every_language_in_itself(client, page_language):
    client.cookies["django_language"] = page_language
    with translation.override(page_language):
        html = client.get("/").content.decode()
    for code, own_name in LANGUAGES:
        assert f'<option value="{code}" lang="{code}" translate="no"' in html
        assert f">{own_name}</option>" in html, (code, own_name)
