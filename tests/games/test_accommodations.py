"""A child's accommodations applied where a match is made (games.services.match_create_many):
every timer option runs the table's largest time allowance longer, bots think that much longer,
a child with no clock or a calm table gets a calm table where the variant has one, and nothing
of it reaches the other children (docs/accessibility.md, "Accommodations per child")."""

import json

import pytest

import engine
from accounts.models import Accommodations
from games import services
from games.models import Match
from tests.factories import make_class, make_match, make_student

pytestmark = pytest.mark.django_db

T0 = 1_700_000_000_000


@pytest.fixture
def timed_count():
    slug = engine.register_game("tests.engine.timed_count")
    try:
        yield engine.get_game(slug)
    finally:
        engine.unregister_game(slug)


@pytest.fixture
def classroom():
    return make_class()


def child(classroom, name, **accommodations):
    student = make_student(classroom, name)
    if accommodations:
        Accommodations.objects.create(student=student, **accommodations)
    return student


def test_a_mia_table_runs_its_clocks_at_its_slowest_childs_time(classroom):
    ana = child(classroom, "Ana", time="x1.5")
    ben = child(classroom, "Ben", time="x2")
    eva = child(classroom, "Eva")
    match = make_match(players=[ana, ben, eva], seed=7, at_ms=T0)
    # The teacher's choice (the defaults, 20 s and 5 s) is the base; Ben's x2 sets the table's.
    assert match.options["pass_timeout_seconds"] == 40
    assert match.options["extra_time_seconds"] == 10
    assert match.wake_at_ms == T0 + 40_000
    assert match.pace_factor == 2.0


def test_the_longest_chosen_clock_can_still_be_doubled(classroom):
    ana = child(classroom, "Ana", time="x2")
    match = make_match(
        players=[ana],
        bots=["easy"],
        options={"pass_timeout_seconds": 120, "extra_time_seconds": 30},
    )
    assert match.options["pass_timeout_seconds"] == 240
    assert match.options["extra_time_seconds"] == 60


def test_a_table_of_children_on_standard_time_keeps_the_teachers_options(classroom):
    ana = child(classroom, "Ana", read_aloud=True, dots=True, public_name="initials")
    ben = child(classroom, "Ben")
    match = make_match(players=[ana, ben], options={"pass_timeout_seconds": 25})
    assert match.options["pass_timeout_seconds"] == 25
    assert match.options["extra_time_seconds"] == 5
    assert match.pace_factor == 1.0


def test_bots_think_as_long_as_the_childs_time_allowance(classroom, settings):
    settings.GAMES_BOT_DELAY_SCALE = 1.0
    ana = child(classroom, "Ana", time="x2")
    ben = child(classroom, "Ben")
    low, high = services.BOT_DELAY_SECONDS["easy"]
    for player, factor in ((ana, 2.0), (ben, 1.0)):
        match = make_match(players=[player], bots=["easy"], seed=3, at_ms=T0)
        assert match.pace_factor == factor
        due = match.bot_plan["1"] - T0  # ¡Mía! is real time: the bot thinks from the start
        assert low * 1000 * factor <= due <= high * 1000 * factor


@pytest.mark.parametrize("need, seconds", [({"time": "none"}, 20), ({"calm_table": True}, 10)])
def test_a_child_with_no_clock_or_a_calm_table_gets_a_calm_table_where_the_game_has_one(
    classroom, timed_count, need, seconds
):
    ana = child(classroom, "Ana", **need)
    ben = child(classroom, "Ben")
    calm = make_match(game="timed_count", variant="calm", players=[ana, ben])
    assert calm.options["calm"] is True
    assert calm.pace_factor == 2.0  # bots at half speed
    # A clock the calm table still runs: twice as long for a child with none.
    assert calm.options["turn_seconds"] == seconds
    plain = make_match(game="timed_count", variant="calm", players=[ben], bots=["easy"])
    assert plain.options == {"calm": False, "turn_seconds": 10}


def test_no_clock_where_the_game_has_no_calm_table_is_the_longest_clock_it_allows(
    classroom, timed_count
):
    ana = child(classroom, "Ana", time="none")
    match = make_match(
        game="timed_count", variant="clocked", players=[ana], bots=["easy"], options={}
    )
    assert match.options == {"turn_seconds": 40}
    assert "calm" not in match.options
    calm_only = child(classroom, "Ben", calm_table=True)
    match = make_match(game="timed_count", variant="clocked", players=[calm_only], bots=["easy"])
    assert match.options == {"turn_seconds": 10}  # a calm table needs no longer clock


def test_a_time_allowance_scales_every_timer_option_generically(classroom, timed_count):
    ana = child(classroom, "Ana", time="x1.5")
    match = make_match(
        game="timed_count",
        variant="clocked",
        players=[ana],
        bots=["easy"],
        options={"turn_seconds": 7},
    )
    assert match.options == {"turn_seconds": 11}  # 10.5 rounded up: never less than x1.5
    assert match.pace_factor == 1.5


def test_a_bad_option_is_still_the_engines_to_refuse(classroom):
    ana = child(classroom, "Ana", time="x2")
    with pytest.raises(engine.SetupError):
        make_match(players=[ana], bots=["easy"], options={"pass_timeout_seconds": 500})


def test_the_other_children_see_a_longer_clock_but_never_why(classroom):
    ana = child(classroom, "Ana", time="x2", calm_table=True, public_name="hidden")
    ben = child(classroom, "Ben")
    match = make_match(players=[ana, ben], seed=5, at_ms=T0)
    rules = engine.get_game("mia")
    state = rules.load(Match.objects.get(pk=match.pk).state)
    for seat in (0, 1, None):
        seen = json.dumps(rules.view(state, seat))
        for word in ("accommodation", "pace_factor", "time_factor", "public_name", "x1.5"):
            assert word not in seen
