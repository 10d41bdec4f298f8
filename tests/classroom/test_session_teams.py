"""Teams in a class session (issue 23, docs/rules/teams.md): the teacher chooses how the class
scores; with tables as teams the projector ranks the tables by their children's points, with the
class together it shows the class's points against the bots'; no child is ranked in public. The
figures are checked against an independent count from the matches' own outcomes."""

from collections import defaultdict
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import timezone

from classroom.models import ClassSession
from classroom.sessions import selectors
from classroom.sessions.services import session_end, session_next_round
from engine.core import outcome_from_scores
from games.models import Match
from tests.classroom.sessions_helpers import joined_session, started_session
from tests.factories import finish_match_by_bots

pytestmark = pytest.mark.django_db


def sign_in(client, user):
    client.force_login(user)
    return client


def finish_every_table(session):
    """Plays every table to its end with bots and returns, per table number, the children's and
    the bots' points counted from each match's outcome and seats (not from the selectors)."""
    counted = {}
    for seed, match in enumerate(
        Match.objects.filter(session_table__session=session).order_by("session_table__number"),
        start=11,
    ):
        finish_match_by_bots(match, seed=seed)
        match.refresh_from_db()
        scores = match.outcome["scores"]
        children = bots = 0
        for seat in match.seats.all():
            if seat.user_id:
                children += scores[seat.index]
            else:
                bots += scores[seat.index]
        counted[match.session_table.number] = (children, bots)
    return counted


def test_the_teacher_chooses_how_the_class_scores(client):
    _classroom, _students, session = started_session(2, table_size=2)
    sign_in(client, session.classroom.teacher)
    url = reverse("classroom:sessions_create", args=[session.classroom.pk])
    page = client.get(url).content.decode()
    assert "How the class scores" in page
    assert 'name="team_mode" value="tables"' in page and 'name="team_mode" value="class"' in page
    form = {"variant": "add_up:no_jokers", "table_size": "2", "bot_level": "easy"}
    client.post(url, {**form, "team_mode": "tables"})
    assert ClassSession.objects.latest("id").team_mode == "tables"
    client.post(url, form)  # not chosen: each child for themselves
    assert ClassSession.objects.latest("id").team_mode == "none"
    refused = client.post(url, {**form, "team_mode": "everyone"})
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()


def test_tables_as_teams_rank_the_tables_by_their_childrens_points(client):
    # Five children at tables of two: the third table has a child and a bot.
    _classroom, _students, session = started_session(
        5, game="add_up", variant="no_jokers", table_size=2, team_mode="tables"
    )
    counted = finish_every_table(session)
    teams = selectors.session_monitor(session=session)["teams"]
    assert teams["mode"] == "tables"
    got = {row["number"]: row["points"] for row in teams["teams"]}
    assert got == {number: children for number, (children, _bots) in counted.items()}
    players = {1: 2, 2: 2, 3: 1}
    shares = [Fraction(row["points"], players[row["number"]]) for row in teams["teams"]]
    assert shares == sorted(shares, reverse=True)
    # Equal shares share a place; the next place counts the tables ahead (1, 2, 2, 4); a table
    # with no points has none.
    for row, share in zip(teams["teams"], shares, strict=True):
        expected = 1 + sum(other > share for other in shares) if share else None
        assert row["rank"] == expected
    sign_in(client, session.classroom.teacher)
    detail = client.get(reverse("classroom:sessions_detail", args=[session.pk])).content.decode()
    assert "Each table is a team" in detail
    live = reverse("classroom:sessions_projector_live", args=[session.pk])
    page = client.get(live).content.decode()
    assert "data-team-standings" in page
    for number, (children, _bots) in counted.items():
        assert f'data-team="{number}"' in page and f'data-points="{children}"' in page
    # No child is ranked in front of the class.
    assert "data-leaderboard" not in page and "data-podium" not in page
    session_end(session=session)
    ended = client.get(live).content.decode()
    assert "Well played, everyone!" in ended and "The winning tables" in ended
    assert "data-summary" in ended
    best = max(counted, key=lambda number: Fraction(counted[number][0], players[number]))
    assert f'data-team="{best}" data-place="1" data-points="{counted[best][0]}"' in ended


def test_the_class_together_against_the_bots(client):
    _classroom, _students, session = started_session(
        3, game="add_up", variant="no_jokers", table_size=2, team_mode="class"
    )
    counted = finish_every_table(session)
    teams = selectors.session_monitor(session=session)["teams"]
    children = sum(c for c, _b in counted.values())
    bots = sum(b for _c, b in counted.values())
    assert (teams["children"], teams["bots"]) == (children, bots)
    assert {row["number"]: (row["children"], row["bots"]) for row in teams["tables"]} == counted
    # Three children and one bot (tables of two): points per player decide.
    ours, theirs = Fraction(children, 3), Fraction(bots, 1)
    session_end(session=session)
    sign_in(client, session.classroom.teacher)
    page = client.get(
        reverse("classroom:sessions_projector_live", args=[session.pk])
    ).content.decode()
    assert f'data-children="{children}" data-bots="{bots}"' in page
    verdict = (
        "We beat the bots!"
        if ours > theirs
        else "The bots won this time."
        if theirs > ours
        else "A draw with the bots!"
    )
    assert verdict in page
    assert "data-leaderboard" not in page


def test_each_child_for_themselves_keeps_the_leaderboard(client):
    _classroom, _students, session = started_session(
        4, game="add_up", variant="no_jokers", table_size=2
    )
    finish_every_table(session)
    assert selectors.session_monitor(session=session)["teams"] is None
    sign_in(client, session.classroom.teacher)
    page = client.get(
        reverse("classroom:sessions_projector_live", args=[session.pk])
    ).content.decode()
    assert "data-leaderboard" in page and "data-team" not in page


def test_a_team_total_counts_no_bot(client):
    # One child and a bot at one table: the team's points are the child's alone.
    _classroom, (_ana,), session = started_session(
        1, game="add_up", variant="no_jokers", table_size=2, team_mode="tables"
    )
    counted = finish_every_table(session)
    ((children, bots),) = counted.values()
    assert bots > 0 or children > 0
    rows = selectors.session_monitor(session=session)["teams"]["teams"]
    assert [row["points"] for row in rows] == [children]
    per_seat = defaultdict(int)
    match = Match.objects.get(session_table__session=session)
    for seat in match.seats.all():
        per_seat[bool(seat.user_id)] += match.outcome["scores"][seat.index]
    assert rows[0]["points"] == per_seat[True]


def test_another_round_keeps_the_teams():
    _classroom, _students, session = started_session(
        4, game="add_up", variant="no_jokers", table_size=2, team_mode="class"
    )
    finish_every_table(session)
    session_end(session=session)
    following = session_next_round(session=session)
    assert following.team_mode == "class"


def test_the_child_is_told_how_the_class_scores_in_the_lobby(client):
    _classroom, (ana, _ben), session = joined_session(
        2, game="add_up", variant="no_jokers", table_size=2, team_mode="tables"
    )
    client.force_login(ana)
    lobby = reverse("classroom:sessions_lobby", args=[session.pk])
    assert "Today your table is a team" in client.get(lobby).content.decode()
    spanish = client.get(lobby, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Hoy tu mesa es un equipo" in spanish
    _classroom, (carla,), alone = joined_session(
        1, game="add_up", variant="no_jokers", table_size=2
    )
    client.force_login(carla)
    page = client.get(reverse("classroom:sessions_lobby", args=[alone.pk])).content.decode()
    assert "data-team-mode" not in page


def end_table(session, number, children_scores, bot_scores=()):
    """Ends one table's match with these points: its children's seats in seat order, then its
    bots' (the figures a finished match keeps; the scores are what the test is about, not how a
    game reached them)."""
    match = Match.objects.get(session_table__session=session, session_table__number=number)
    seats = list(match.seats.order_by("index"))
    children = iter(children_scores)
    bots = iter(bot_scores)
    scores = [next(children) if seat.user_id else next(bots) for seat in seats]
    match.status = Match.Status.FINISHED
    match.outcome = outcome_from_scores(scores).as_dict()
    match.finished_at = timezone.now()
    match.save()
    return match


def test_tables_of_different_sizes_compare_by_points_per_child(client):
    # Seven children at tables of four: four children, and three with a bot. The four score 28
    # together (7 each), the three 27 (9 each): more in all, but less each.
    _classroom, _students, session = started_session(
        7, game="add_up", variant="no_jokers", table_size=4, team_mode="tables"
    )
    end_table(session, 1, [7, 7, 7, 7])
    end_table(session, 2, [9, 9, 9], bot_scores=[5])
    rows = selectors.session_monitor(session=session)["teams"]["teams"]
    assert [(row["number"], row["points"], row["players"], row["rank"]) for row in rows] == [
        (2, 27, 3, 1),
        (1, 28, 4, 2),
    ]
    sign_in(client, session.classroom.teacher)
    live = reverse("classroom:sessions_projector_live", args=[session.pk])
    page = client.get(live).content.decode()
    assert 'data-team="2" data-place="1"' in page and 'data-team="1" data-place="2"' in page
    assert "9 points per player" in page and "27 ÷ 3" in page
    assert "7 points per player" in page and "28 ÷ 4" in page
    spanish = client.get(live, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "9 puntos por jugador" in spanish


def test_a_table_with_no_points_has_no_place(client):
    _classroom, _students, session = started_session(
        4, game="add_up", variant="no_jokers", table_size=2, team_mode="tables"
    )
    # Nobody has scored yet: no table is "1st".
    rows = selectors.session_monitor(session=session)["teams"]["teams"]
    assert [row["rank"] for row in rows] == [None, None]
    sign_in(client, session.classroom.teacher)
    live = reverse("classroom:sessions_projector_live", args=[session.pk])
    page = client.get(live).content.decode()
    assert page.count("No points yet") == 2
    assert "data-place" not in page and "1st" not in page
    # One table scores: it is first; the other still has no place.
    end_table(session, 2, [3, 2])
    page = client.get(live).content.decode()
    assert 'data-team="2" data-place="1"' in page
    assert "2.5 points per player" in page and page.count("No points yet") == 1
    assert "2,5 puntos por jugador" in client.get(live, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    end_table(session, 1, [0, 0])
    session_end(session=session)
    ended = client.get(live).content.decode()
    assert 'data-team="2" data-place="1"' in ended and 'data-team="1"' not in ended


def test_no_table_scoring_is_said_at_the_end(client):
    _classroom, _students, session = started_session(
        2, game="add_up", variant="no_jokers", table_size=2, team_mode="tables"
    )
    end_table(session, 1, [0, 0])
    session_end(session=session)
    sign_in(client, session.classroom.teacher)
    ended = client.get(
        reverse("classroom:sessions_projector_live", args=[session.pk])
    ).content.decode()
    assert "No table scored a point this time." in ended and "data-place" not in ended


def test_the_class_and_the_bots_compare_by_points_per_player(client):
    # Five children at tables of two: the third table has one child and a bot. The class scores
    # 15 in all (3 each), the one bot 4: the bot played better, seat for seat.
    _classroom, _students, session = started_session(
        5, game="add_up", variant="no_jokers", table_size=2, team_mode="class"
    )
    end_table(session, 1, [3, 3])
    end_table(session, 2, [4, 2])
    end_table(session, 3, [3], bot_scores=[4])
    teams = selectors.session_monitor(session=session)["teams"]
    assert (teams["children"], teams["bots"]) == (15, 4)
    assert teams["ahead"] == "bots"
    assert (teams["child_seats"], teams["bot_seats"]) == (5, 1)
    session_end(session=session)
    sign_in(client, session.classroom.teacher)
    page = client.get(
        reverse("classroom:sessions_projector_live", args=[session.pk])
    ).content.decode()
    assert 'data-children-per-player="3" data-bots-per-player="4"' in page
    assert "15 ÷ 5" in page and "4 ÷ 1" in page
    assert "The bots won this time." in page and "We beat the bots!" not in page


def test_a_class_with_no_bots_is_not_said_to_beat_them(client):
    _classroom, _students, session = started_session(
        4, game="add_up", variant="no_jokers", table_size=2, team_mode="class"
    )
    end_table(session, 1, [3, 3])
    end_table(session, 2, [1, 2])
    session_end(session=session)
    assert selectors.session_monitor(session=session)["teams"]["ahead"] == "no_bots"
    sign_in(client, session.classroom.teacher)
    live = reverse("classroom:sessions_projector_live", args=[session.pk])
    page = client.get(live).content.decode()
    assert "No bots at the tables today" in page and "We beat the bots!" not in page
    spanish = client.get(live, HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Hoy no hay bots en las mesas" in spanish
