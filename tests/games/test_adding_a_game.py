"""docs/adding-a-game.md, followed: a sixth game (Count to ten) goes through every file the guide
lists, each at its place for a test-only game:

- its engine module, tests/engine/count_to_ten.py, and its registration (the ``count_to_ten``
  fixture, tests/conftest.py, for one test at a time: without it the product knows only its own);
- its renderer, tests/static/js/play/games/count_to_ten.js, and its stylesheet,
  tests/static/css/games/count_to_ten.css (tests/settings.py adds tests/static);
- its names and words, tests/titles/count_to_ten.py;
- its rules document, tests/engine/count_to_ten.md;
- its tests, this file;
- its Spanish, tests/locale/es/LC_MESSAGES/django.po and djangojs.po.

The rest of the platform takes it from there: the engine's API, the bench, the catalogue and the
forms that list games, the landing page, the teacher's wording of its answers, and live play
through games.services (tests/browser/test_adding_a_game_in_a_browser.py plays it on the play
page)."""

import random

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation

import engine
from classroom.progress.wording import wording
from engine import IllegalMove, bench
from engine.simulate import bot_chooser, play, random_legal
from games import catalog
from games.models import Attempt, Match
from games.services import SeatSpec, match_create, submit_move
from tests.factories import make_class, make_student, make_teacher

SLUG = "count_to_ten"


def test_unregistered_it_is_unknown_and_listed_nowhere():
    assert not engine.is_game(SLUG)
    assert SLUG not in [game.slug for game in engine.list_games()]
    with pytest.raises(engine.SetupError) as error:
        engine.get_game(SLUG)
    assert error.value.code == "unknown_game"


def test_registered_it_is_listed_after_the_products_games(count_to_ten):
    slugs = [game.slug for game in engine.list_games()]
    assert slugs[-1] == SLUG and slugs[:-1] == [m.rpartition(".")[2] for m in engine.GAMES]
    assert engine.get_game(SLUG) is count_to_ten
    # A second module under the same slug would make two games of one name.
    with pytest.raises(engine.SetupError) as error:
        engine.register_game("somewhere.else.count_to_ten")
    assert error.value.code == "duplicate_game"


def test_its_declarations(count_to_ten):
    assert count_to_ten.move_types == ("add", "resign")
    assert count_to_ten.real_time is False
    assert count_to_ten.answer_form == "typed"
    state = count_to_ten.new(variant="ten", players=2, seed=1, options={"first_player": "seat0"})
    assert count_to_ten.running_scores(state) == [0, 0]


def test_the_engine_plays_it_by_its_moves_table(count_to_ten):
    game = count_to_ten
    state = game.new(variant="ten", players=2, seed=1, options={"first_player": "seat0"})
    assert game.active(state) == {0}
    step = game.apply(state, 0, {"type": "add", "step": 2, "answer": 3}, now_ms=1500)
    (attempt,) = step.events
    assert (attempt["answer"], attempt["expected"], attempt["correct"]) == (3, 2, False)
    assert attempt["skill"] == "add.within10" and attempt["elapsed_ms"] == 1500
    assert game.view(step.state, 1)["count"] == 2  # the table goes on from the right number
    assert game.event_view(step.events, 1) == []  # an attempt is its actor's
    assert state.data["count"] == 0  # apply is pure
    for move, code in [
        ({"type": "jump"}, "unknown_move"),
        ({"type": "add", "step": 3, "answer": 5}, "bad_step"),
        ({"type": "add", "step": 1}, "malformed"),
    ]:
        with pytest.raises(IllegalMove) as error:
            game.apply(step.state, 1, move, now_ms=2000)
        assert error.value.code == code
    with pytest.raises(IllegalMove) as error:
        game.apply(step.state, 0, {"type": "add", "step": 1, "answer": 3}, now_ms=2000)
    assert error.value.code == "not_active"
    resigned = game.apply(step.state, 1, {"type": "resign"}, now_ms=2000).state
    assert game.outcome(resigned).winners == [0]
    assert game.load(game.dump(resigned)) == resigned


@pytest.mark.parametrize("variant, players", [("ten", 2), ("race", 3)])
def test_every_bot_level_plays_it_to_the_end(count_to_ten, variant, players):
    for level in ("random", "easy", "strong"):
        state = count_to_ten.new(variant=variant, players=players, seed=7)
        done = play(count_to_ten, state, [bot_chooser(level)] * players, random.Random(7))
        assert done.outcome is not None
        assert done.state.data["count"] == done.state.data["goal"]
    # Strong leaves a multiple of three: at two players the one who starts wins from 0 to 10.
    state = count_to_ten.new(variant="ten", players=2, seed=1, options={"first_player": "seat0"})
    done = play(count_to_ten, state, [bot_chooser("strong"), random_legal], random.Random(1))
    assert done.outcome.winners == [0]


def test_the_bench_times_it_at_the_tables_it_declares(count_to_ten, capsys):
    assert bench.bench_tables(count_to_ten) == [("ten", 2), ("race", 3)]
    assert bench.arena_table(count_to_ten) == ("ten", 2)
    bench.main(["--only", SLUG, "--games", "3", "--bot-games", "6"])
    printed = capsys.readouterr().out
    assert "ten        2p  apply+view median" in printed
    assert "race       3p  apply+view median" in printed
    assert "bots (ten, 2p, 6 games" in printed


@pytest.mark.django_db
def test_the_catalogue_and_the_forms_list_it_in_the_engines_words(count_to_ten):
    from classroom.forms import parse_variant, variant_choices
    from classroom.homework.forms import AssignmentForm
    from classroom.sessions.forms import SessionCreateForm

    assert catalog.game_title(SLUG) == "Count to ten"  # its titles module's
    assert catalog.variant_title(SLUG, "race") == "Count to a goal, up to four players"
    assert catalog.child_variant_title(SLUG, "race") == "Race to the goal"
    assert catalog.option_label("goal", "The number that wins.") == "The number that wins"
    with translation.override("es"):
        assert catalog.game_title(SLUG) == "Contar hasta diez"
        assert catalog.option_label("goal", "The number that wins.") == "El número que gana"
    assert catalog.game_titles()[-1] == "Count to ten"
    assert (
        "Count to ten",
        [(f"{SLUG}:ten", "Count to ten"), (f"{SLUG}:race", catalog.variant_title(SLUG, "race"))],
    ) in variant_choices()
    assert parse_variant(f"{SLUG}:race") == (SLUG, "race")
    session_groups = dict(SessionCreateForm().fields["variant"].choices)
    assert [key for key, _title in session_groups["Count to ten"]] == [
        f"{SLUG}:ten",
        f"{SLUG}:race",
    ]
    homework_groups = dict(AssignmentForm().fields["variant"].choices)
    assert f"{SLUG}:race" in dict(homework_groups["Count to ten"])


@pytest.mark.django_db
def test_the_landing_page_names_it_only_while_it_is_registered(client, request):
    assert "Count to ten" not in client.get("/").content.decode()
    request.getfixturevalue("count_to_ten")
    text = client.get("/").content.decode()
    assert "Add or Multiply? and Count to ten" in text
    assert (
        "Mathable Junior, ¿Sumar o multiplicar? y Contar hasta diez"
        in client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    )


@pytest.mark.django_db
def test_a_live_match_of_it_is_played_through_the_services(count_to_ten, client):
    classroom = make_class(teacher=make_teacher())
    ana, ben = make_student(classroom, "Ana"), make_student(classroom, "Ben", secret="1111")
    match = match_create(
        game=SLUG,
        variant="ten",
        seats=[SeatSpec(name="Ana", user=ana), SeatSpec(name="Ben", user=ben)],
        options={"first_player": "seat0"},
        seed=5,
    )
    client.force_login(ana)
    page = client.get(reverse("games:play", args=[match.pk])).content.decode()
    assert "<title>Count to ten" in page and '"game": "count_to_ten"' in page
    assert 'href="/static/css/games/count_to_ten.css"' in page
    players = [ana, ben]
    while match.status == Match.Status.PLAYING:
        state = count_to_ten.load(match.state)
        (seat,) = count_to_ten.active(state)
        submit_move(match_id=match.pk, user=players[seat], move=count_to_ten.hint(state, seat))
        match.refresh_from_db()
    assert match.outcome["winners"] == [0]
    assert Attempt.objects.filter(match=match, game=SLUG, correct=True).count() >= 4
    # The teacher reads an answer in the game's own words (its titles module's ``expression``).
    first = Attempt.objects.filter(match=match, game=SLUG).earliest("id")
    step = first.operands[1]
    assert wording(first).did == f"Typed {step} for 0 and {step} more"


def test_its_renderer_and_stylesheet_are_served_and_its_texts_are_in_spanish(count_to_ten, client):
    for path in ("js/play/games/count_to_ten.js", "css/games/count_to_ten.css"):
        assert finders.find(path), path
    catalogue = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '"Say it": "Dilo"' in catalogue
    assert '"The number you reach": "' in catalogue


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_landing_pages_list_of_games_reads_as_a_sentence(client, language):
    """The list ends inside the sentence: a title ending in "?" or "!" is not followed by a
    stop ("... and Add or Multiply?." read as a typo)."""
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    lead = page.split('class="lead">', 1)[1].split("</p>", 1)[0]
    assert "Mathable Junior" in lead
    assert "?." not in lead and "!." not in lead
