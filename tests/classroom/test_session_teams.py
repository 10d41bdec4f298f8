"""Teams in a class session (issue 23, docs/rules/teams.md): the teacher chooses how the class
scores; with tables as teams the projector ranks the tables by their children's points, with the
class together it shows the class's points against the bots'; no child is ranked in public. The
figures are checked against an independent count from the matches' own outcomes."""

from collections import defaultdict

import pytest
from django.urls import reverse

from classroom.models import ClassSession
from classroom.sessions import selectors
from classroom.sessions.services import session_end, session_next_round
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
    points = [row["points"] for row in teams["teams"]]
    assert points == sorted(points, reverse=True)
    # Equal totals share a place; the next place counts the tables ahead (1, 2, 2, 4).
    for row in teams["teams"]:
        assert row["rank"] == 1 + sum(other > row["points"] for other in points)
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
    best = max(children for children, _bots in counted.values())
    assert f'data-place="1" data-points="{best}"' in ended


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
    session_end(session=session)
    sign_in(client, session.classroom.teacher)
    page = client.get(
        reverse("classroom:sessions_projector_live", args=[session.pk])
    ).content.decode()
    assert f'data-children="{children}" data-bots="{bots}"' in page
    verdict = (
        "We beat the bots!"
        if children > bots
        else "The bots won this time."
        if bots > children
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
