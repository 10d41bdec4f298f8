"""One name for one thing in the teacher's class URLs."""

from django.urls import URLPattern, URLResolver, get_resolver


def routes(patterns, prefix=""):
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route


def test_every_class_url_names_the_classroom_classroom_id():
    class_routes = [route for route in routes(get_resolver().url_patterns) if "classes/<" in route]
    assert len(class_routes) > 20  # roster, access, sessions, homework, progress
    assert [r for r in class_routes if "classes/<int:classroom_id>/" not in r] == []
