"""The play pages (/play/<id>/, /play/<id>/watch/), the teacher's "Start a game" page and the links
to live matches on both home pages."""

import json
import re

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

import engine
from games import catalog
from games.models import Match
from games.services import submit_move
from tests.factories import make_class, make_match, make_session, make_student, make_teacher
from tests.settings import TEST_GAME_FILES

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    teacher = make_teacher(name="Ms Rivera")
    classroom = make_class(teacher)
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    carla = make_student(classroom, "Carla", secret="2222")
    match = make_match(players=[ana, ben], bots=["easy"], teacher=teacher, label="Table 2")
    return teacher, classroom, ana, ben, carla, match


def page_config(response) -> dict:
    found = re.search(
        r'<script id="play-config" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.S,
    )
    assert found, "the page embeds its config"
    return json.loads(found.group(1))


# --- the play page -------------------------------------------------------------------------------


def test_seated_student_gets_the_page_with_their_seat_and_the_table(client, table):
    _, _, _, ben, _, match = table
    client.force_login(ben)
    response = client.get(reverse("games:play", args=[match.pk]))
    assert response.status_code == 200
    config = page_config(response)
    assert config == {
        "match_id": match.pk,
        "seat": 1,
        "seats": [
            {"seat": 0, "name": "Ana", "bot": False},
            {"seat": 1, "name": "Ben", "bot": False},
            {"seat": 2, "name": "Bot 1", "bot": True},
        ],
        "game": "mia",
        "variant": "express",
        "label": "Table 2",
        "socket_path": f"/ws/match/{match.pk}/",
        "watch": False,
        "next": [{"label": "Back to your home page", "url": "/home/", "post": False}],
        "follow": None,  # not a lesson's table: nothing else to follow
        "log": {"version": -1, "events": []},
        "read_aloud": None,
        "dots": False,
    }
    content = response.content.decode()
    assert "js/play/main.js" in content
    assert 'type="module"' in content
    assert reverse("javascript-catalog") in content
    assert 'role="alert"' in content and 'aria-live="polite"' in content
    # The seed would reveal the deck: the page never carries it.
    assert str(Match.objects.get(pk=match.pk).seed) not in content


def test_a_childs_own_read_aloud_and_dots_go_to_their_page_and_no_other(client, table):
    """Issue 22: the child's own accommodations, in the language of their page; the other seats of
    the same table, the teacher's page and the projector get none of them."""
    from accounts.models import Accommodations
    from games.read_aloud import WORDS

    teacher, _, ana, ben, _, match = table
    Accommodations.objects.create(student=ana, read_aloud=True, dots=True)

    def config_of(user, view="games:play", language="en"):
        client.force_login(user)
        return page_config(
            client.get(reverse(view, args=[match.pk]), HTTP_ACCEPT_LANGUAGE=language)
        )

    for language in ("en", "es"):
        own = config_of(ana, language=language)
        assert own["dots"] is True
        assert own["read_aloud"]["lang"] == language
        clips = own["read_aloud"]["clips"]
        assert set(clips) == set(WORDS[language])
        assert clips["7"] == f"/static/audio/{language}/7.mp3"
        assert clips["plus"] == f"/static/audio/{language}/plus.mp3"
    for user, view in ((ben, "games:play"), (teacher, "games:play"), (teacher, "games:watch")):
        config = config_of(user, view)
        assert config["read_aloud"] is None and config["dots"] is False, (user, view)
        assert "/static/audio/" not in json.dumps(config)
    client.force_login(ben)
    assert (
        'id="play-read"' not in client.get(reverse("games:play", args=[match.pk])).content.decode()
    )
    client.force_login(ana)
    assert 'id="play-read"' in client.get(reverse("games:play", args=[match.pk])).content.decode()


def test_every_clip_named_is_committed():
    """The clips the pages ask for are in static/audio/ (scripts/make-number-clips made them)."""
    from pathlib import Path

    from games.read_aloud import WORDS, clip_path

    static = Path(__file__).resolve().parents[2] / "static"
    sizes = [
        (static / clip_path(language, name)).stat().st_size
        for language, clips in WORDS.items()
        for name in clips
    ]
    assert all(sizes)
    assert sum(sizes) < 1_500_000


@pytest.mark.parametrize("game", [m.rpartition(".")[2] for m in engine.GAMES])
def test_the_page_loads_its_games_own_stylesheet_and_no_others(client, game):
    """Each game's rules are in static/css/games/<slug>.css (docs/adding-a-game.md), on its page
    alone."""
    classroom = make_class(make_teacher())
    ana = make_student(classroom, "Ana")
    variant = next(iter(engine.get_game(game).variants.values()))
    bots = ["easy"] * (variant.min_players - 1)
    match = make_match(game=game, variant=variant.name, players=[ana], bots=bots)
    client.force_login(ana)
    page = client.get(reverse("games:play", args=[match.pk])).content.decode()
    sheets = re.findall(r'href="/static/css/games/([a-z_]+)\.css"', page)
    assert sheets == [game]


def test_the_play_page_looks_for_its_games_stylesheet_once(client, table, monkeypatch):
    """The stylesheet is found on disk once per game and process, not on every page."""
    _, _, ana, _, _, match = table
    catalog.stylesheet.cache_clear()
    looked_up = []
    find = finders.find
    monkeypatch.setattr(finders, "find", lambda path, **kw: looked_up.append(path) or find(path))
    client.force_login(ana)
    for _ in range(3):
        page = client.get(reverse("games:play", args=[match.pk])).content.decode()
        assert "/static/css/games/mia.css" in page
    assert looked_up == ["css/games/mia.css"]


def test_a_stylesheet_added_by_a_change_of_settings_is_found(settings):
    """Tests that add static directories (the test game's, tests/settings.py) see its stylesheet,
    and stop seeing it when the directories are restored."""
    product_dirs = settings.STATICFILES_DIRS
    assert catalog.stylesheet("count_to_ten") is None
    settings.STATICFILES_DIRS = TEST_GAME_FILES["STATICFILES_DIRS"]
    assert catalog.stylesheet("count_to_ten") == "css/games/count_to_ten.css"
    settings.STATICFILES_DIRS = product_dirs
    assert catalog.stylesheet("count_to_ten") is None


def test_another_student_is_refused(client, table):
    _, _, _, _, carla, match = table
    client.force_login(carla)
    assert client.get(reverse("games:play", args=[match.pk])).status_code == 403
    assert client.get(reverse("games:watch", args=[match.pk])).status_code == 403


def test_the_teacher_who_created_it_watches(client, table):
    teacher, _, _, _, _, match = table
    client.force_login(teacher)
    play = client.get(reverse("games:play", args=[match.pk]))
    assert play.status_code == 200
    assert page_config(play)["seat"] is None
    watch = client.get(reverse("games:watch", args=[match.pk]))
    assert watch.status_code == 200
    config = page_config(watch)
    assert config["seat"] is None and config["watch"] is True
    assert "play-watch" in watch.content.decode()


def test_another_teacher_is_refused(client, table):
    match = table[-1]
    client.force_login(make_teacher(name="Mr Other"))
    assert client.get(reverse("games:play", args=[match.pk])).status_code == 403
    assert client.get(reverse("games:watch", args=[match.pk])).status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client, table):
    match = table[-1]
    for name in ("games:play", "games:watch"):
        response = client.get(reverse(name, args=[match.pk]))
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:login"))


def test_a_reloaded_page_brings_its_log_filtered_for_its_seat(client, table):
    """A claim's attempt is the claimer's and the teacher's alone (Game.event_view): a page that
    is reloaded gets the same events its socket would have sent it."""
    teacher, _, ana, ben, _, match = table
    rules = engine.get_game(match.game)
    state = rules.load(match.state)
    claim = next(m for m in rules.legal_moves(state, 0) if m["type"] == "claim")
    submit_move(match_id=match.pk, user=ana, move=claim)
    match.refresh_from_db()

    def log_of(user, view="games:play"):
        client.force_login(user)
        return page_config(client.get(reverse(view, args=[match.pk])))["log"]

    for user, view, sees_the_attempt in (
        (ana, "games:play", True),
        (ben, "games:play", False),
        (teacher, "games:watch", True),
    ):
        log = log_of(user, view)
        assert log["version"] == match.version
        types = [event["type"] for event in log["events"]]
        assert ("attempt" in types) is sees_the_attempt, user
        assert types == [
            e["type"]
            for e in rules.event_view(match.moves.get(version=match.version).events, None)
            if e["type"] != "attempt" or sees_the_attempt
        ]


def test_a_player_opening_the_projector_view_gets_their_own_page(client, table):
    _, _, ana, _, _, match = table
    client.force_login(ana)
    response = client.get(reverse("games:watch", args=[match.pk]))
    assert response.status_code == 302
    assert response.url == reverse("games:play", args=[match.pk])


def test_a_match_that_does_not_exist_is_refused(client, table):
    client.force_login(table[2])
    assert client.get(reverse("games:play", args=[999_999])).status_code == 403


def test_the_javascript_catalog_serves_spanish(client, table):
    client.force_login(table[2])
    client.post(reverse("set_language"), {"language": "es"})
    response = client.get(reverse("javascript-catalog"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "¡Tu turno!" in json.loads(body.split("const newcatalog = ", 1)[1].split(";\n")[0]).get(
        "Your turn!", ""
    )


# --- the teacher's "Start a game" page -----------------------------------------------------------


NEW = reverse("classroom:match_new")


def test_new_match_lists_every_game_and_variant(client, table):
    client.force_login(table[0])
    content = client.get(NEW).content.decode()
    for value in (
        "mia:express",
        "mia:solo3",
        "sum:standard",
        "add_up:no_jokers",
        "add_or_multiply:standard",
    ):
        assert f'value="{value}"' in content


def test_new_match_form_shows_the_variant_options_and_the_teachers_students(client, table):
    teacher, _, ana, ben, carla, _ = table
    stranger = make_student(make_class(make_teacher(), name="Other class"), "Zed", secret="9999")
    client.force_login(teacher)
    content = client.get(NEW, {"variant": "mia:canada47"}).content.decode()
    for field in ("option_target", "option_pass_timeout_seconds", "option_first_player"):
        assert f'name="{field}"' in content
    assert 'name="seat_5"' in content  # Canada 47 seats up to 6
    for student in (ana, ben, carla):
        assert f'value="student:{student.pk}"' in content
    assert f'value="student:{stranger.pk}"' not in content
    assert 'value="bot:strong"' in content


def test_new_match_creates_the_table_with_the_chosen_seats(client, table):
    teacher, _, ana, _, carla, _ = table
    client.force_login(teacher)
    response = client.post(
        f"{NEW}?variant=mia:canada47",
        {
            "seat_0": f"student:{carla.pk}",
            "seat_1": "",
            "seat_2": "bot:strong",
            "seat_3": f"student:{ana.pk}",
            "option_target": "30",
            "option_pass_timeout_seconds": "25",
            "option_extra_time_seconds": "5",
            "option_first_player": "seat0",
            "label": "Front table",
        },
    )
    match = Match.objects.exclude(pk=table[-1].pk).get()
    assert response.status_code == 302
    assert response.url == reverse("games:watch", args=[match.pk])
    assert (match.game, match.variant, match.label, match.created_by) == (
        "mia",
        "canada47",
        "Front table",
        teacher,
    )
    assert match.options["target"] == 30 and match.options["first_player"] == "seat0"
    seats = list(match.seats.order_by("index").values_list("index", "user", "bot_level"))
    assert seats == [(0, carla.pk, ""), (1, None, "strong"), (2, ana.pk, "")]
    assert match.state["players"] == 3


def test_two_bots_at_a_teachers_table_have_distinct_names(client, table):
    teacher, _, ana, _, _, _ = table
    client.force_login(teacher)
    client.post(
        f"{NEW}?variant=mia:canada47",
        {
            "seat_0": "bot:easy",
            "seat_1": f"student:{ana.pk}",
            "seat_2": "bot:easy",
            "option_target": "47",
            "option_pass_timeout_seconds": "25",
            "option_extra_time_seconds": "5",
            "option_first_player": "seat0",
        },
    )
    match = Match.objects.exclude(pk=table[-1].pk).get()
    names = list(match.seats.order_by("index").values_list("name", flat=True))
    assert names == ["Pixel", str(ana), "Bolt"]


def test_new_match_shows_the_engines_verdict_on_a_bad_option(client, table):
    teacher, _, ana, ben, _, _ = table
    client.force_login(teacher)
    response = client.post(
        f"{NEW}?variant=mia:canada47",
        {
            "seat_0": f"student:{ana.pk}",
            "seat_1": f"student:{ben.pk}",
            "option_target": "5",
            "option_pass_timeout_seconds": "20",
            "option_extra_time_seconds": "5",
            "option_first_player": "random",
        },
    )
    assert response.status_code == 200
    assert "Choose a whole number from 10 to 200." in response.content.decode()
    assert Match.objects.count() == 1


def test_new_match_refuses_another_teachers_student(client, table):
    teacher, _, ana, _, _, _ = table
    stranger = make_student(make_class(make_teacher(), name="Other class"), "Zed", secret="9999")
    client.force_login(teacher)
    response = client.post(
        f"{NEW}?variant=mia:express",
        {
            "seat_0": f"student:{ana.pk}",
            "seat_1": f"student:{stranger.pk}",
            "option_pass_timeout_seconds": "20",
            "option_extra_time_seconds": "5",
            "option_first_player": "random",
        },
    )
    assert response.status_code == 200
    assert response.context["form"].errors["seat_1"]
    assert Match.objects.count() == 1


def test_new_match_refuses_a_wrong_number_of_players_and_a_double_seat(client, table):
    teacher, _, ana, _, _, _ = table
    client.force_login(teacher)
    alone = client.post(f"{NEW}?variant=add_or_multiply:standard", {"seat_0": f"student:{ana.pk}"})
    assert "This game takes 3 to 3 players." in alone.content.decode()
    twice = client.post(
        f"{NEW}?variant=add_or_multiply:standard",
        {"seat_0": f"student:{ana.pk}", "seat_1": f"student:{ana.pk}", "seat_2": "bot:easy"},
    )
    assert twice.context["form"].errors["seat_1"]
    assert Match.objects.count() == 1


def test_students_cannot_start_games(client, table):
    client.force_login(table[2])
    assert client.get(NEW).status_code == 403


# --- home pages ----------------------------------------------------------------------------------


def test_teacher_home_lists_the_matches_they_created(client, table, django_assert_num_queries):
    teacher, _, ana, ben, carla, match = table
    make_match(
        game="add_or_multiply", variant="standard", players=[ana, ben, carla], teacher=teacher
    )
    client.force_login(teacher)
    # The session, the user, the classes, the matches, their seats, their students' classes: not
    # one more per match.
    with django_assert_num_queries(6):
        response = client.get(reverse("classroom:teacher_home"))
    content = response.content.decode()
    assert reverse("games:watch", args=[match.pk]) in content
    assert "Table 2: Ana, Ben, Bot 1" in content
    assert reverse("classroom:match_new") in content


def test_teacher_home_lists_recent_games_with_date_class_and_game(client):
    from classroom.sessions.services import session_join, session_start

    teacher = make_teacher()
    fourth, fifth = make_class(teacher, name="Class 4A"), make_class(teacher, name="Class 5B")
    ana, ben = make_student(fourth, "Ana"), make_student(fourth, "Ben")
    students = [make_student(fifth, f"Student {i}") for i in range(5)]
    make_match(game="mia", variant="express", players=[ana, ben], teacher=teacher)
    session = make_session(fifth, table_size=2)
    for student in students:
        session_join(session=session, student=student)
    session_start(session=session)
    client.force_login(teacher)
    content = client.get(reverse("classroom:teacher_home")).content.decode()
    rows = re.findall(r"<tr>(.*?)</tr>", content.split("recent-games", 1)[1], re.S)[1:]
    cells = [re.sub(r"<[^>]+>|\s+", " ", row).split() for row in rows]
    assert len(rows) == 2  # three tables of one session are one row
    session_row, table_row = (" ".join(c) for c in cells)
    assert "Class 5B" in session_row and "Class session, 3 tables" in session_row
    assert "¡Mía! · Canada 47" in session_row
    assert "Class 4A" in table_row and "Ana, Ben" in table_row
    assert reverse("classroom:sessions_detail", args=[session.pk]) in content


def test_a_single_tables_seats_offer_the_chosen_class_only(client):
    teacher = make_teacher()
    fourth, fifth = make_class(teacher, name="Class 4A"), make_class(teacher, name="Class 5B")
    ana, zed = make_student(fourth, "Ana"), make_student(fifth, "Zed")
    client.force_login(teacher)
    asked = client.get(NEW, {"variant": "mia:canada47"}).content.decode()
    assert 'name="classroom"' in asked and "Class 5B" in asked  # two classes: which one?
    form = client.get(NEW, {"variant": "mia:canada47", "classroom": fourth.pk}).content.decode()
    assert f'value="student:{ana.pk}"' in form and f'value="student:{zed.pk}"' not in form
    refused = client.post(
        f"{NEW}?variant=mia:express&classroom={fourth.pk}",
        {"seat_0": f"student:{ana.pk}", "seat_1": f"student:{zed.pk}"},
    )
    assert refused.status_code == 200 and refused.context["form"].errors["seat_1"]


def test_student_home_links_to_their_playing_matches(client, table):
    teacher, _, ana, _, carla, match = table
    finished = make_match(players=[ana], game="mia", variant="solo3", teacher=teacher)
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    client.force_login(ana)
    content = client.get(reverse("classroom:student_home")).content.decode()
    assert reverse("games:play", args=[match.pk]) in content
    assert reverse("games:play", args=[finished.pk]) not in content
    client.force_login(carla)
    content = client.get(reverse("classroom:student_home")).content.decode()
    assert reverse("games:play", args=[match.pk]) not in content
