"""Two Daphne processes sharing one Redis and one PostgreSQL: a match played across them.

Ana's socket goes to one process, Ben's to the other, and a bot sits at the third seat. Every move
crosses processes through the channel layer; both processes' clocks wake the bot, and the row lock
lets only one of them move it.
"""

import asyncio
import json
import urllib.error
import urllib.request

import pytest
import websockets

from games.models import Match, MoveRecord
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tools.loadtest.servers import DaphneFleet, origin_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

BOT_SEAT = 2
TIMEOUT = 30


def a_move(view):
    """A student who balances the rows when a card in hand does, else plays their first card onto
    the smaller row."""
    top, bottom = view["top_sum"], view["bottom_sum"]
    row = "top" if top <= bottom else "bottom"
    hand = view["hand"]
    card = next((c for c in hand if c["value"] == abs(top - bottom)), hand[0])
    return {"type": "play", "card": card["id"], "row": row}


async def play_seat(url, match_id, cookie, seat, everyone_in):
    """One student's socket: plays on their turns until the game is over; returns every state
    message it received."""
    received = []
    async with websockets.connect(
        f"{url}/ws/match/{match_id}/",
        origin=origin_for(url),
        additional_headers={"Cookie": cookie},
        proxy=None,
    ) as ws:
        everyone_in.release()
        await everyone_in.acquire_all()
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), TIMEOUT))
            assert message["type"] == "state", message
            received.append(message)
            view = message["view"]
            if view["outcome"] is not None:
                return received
            if view["turn"] == seat:
                move = {"type": "move", "move": a_move(view), "client_id": f"v{view['version']}"}
                await ws.send(json.dumps(move))


class Gate:
    """Lets the players start only once both sockets are connected (and have their first state
    queued), so both see the match from version 0."""

    def __init__(self, count):
        self.count = count
        self.arrived = 0
        self.event = asyncio.Event()

    def release(self):
        self.arrived += 1
        if self.arrived == self.count:
            self.event.set()

    async def acquire_all(self):
        await asyncio.wait_for(self.event.wait(), TIMEOUT)


async def play_match(urls, match_id, cookies):
    gate = Gate(len(cookies))
    return await asyncio.gather(
        *(
            play_seat(url, match_id, cookie, seat, gate)
            for seat, (url, cookie) in enumerate(zip(urls, cookies, strict=True))
        )
    )


def add_up_for_ana_and_ben():
    """An ADD UP table of Ana, Ben and a bot, Ana first, and the two children's cookies."""
    classroom = make_class()
    ana = make_student(classroom, "Ana")
    ben = make_student(classroom, "Ben", secret="1111")
    match = make_match(
        game="add_up",
        variant="no_jokers",
        players=[ana, ben],
        bots=["easy"],
        options={"first_player": "seat0"},
    )
    return match, [session_cookie_for(ana), session_cookie_for(ben)]


def test_a_match_is_played_to_the_end_across_two_daphne_processes(services):
    match, cookies = add_up_for_ana_and_ben()

    with DaphneFleet(2, env={"GAMES_BOT_DELAY_SCALE": "0.05"}) as fleet:
        assert len(set(fleet.urls)) == 2
        try:
            ana_saw, ben_saw = asyncio.run(play_match(fleet.urls, match.pk, cookies))
        except Exception:
            print(fleet.log_tail())
            raise

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    final = match.version
    for saw in (ana_saw, ben_saw):
        # Every version, in order, none missing, none twice, up to the last one.
        assert [m["version"] for m in saw] == list(range(final + 1))
    assert ana_saw[-1]["view"]["outcome"] == ben_saw[-1]["view"]["outcome"]
    assert ana_saw[-1]["view"]["outcome"] == match.outcome

    # The bot moved once for every turn it was given, though both processes woke it.
    events = [event for message in ana_saw for event in message["events"]]
    turns_given = sum(1 for e in events if e["type"] == "turn" and e["seat"] == BOT_SEAT)
    bot_plays = [e for e in events if e["type"] == "card_played" and e["seat"] == BOT_SEAT]
    bot_records = MoveRecord.objects.filter(match=match, actor=MoveRecord.Actor.BOT)
    assert turns_given > 0
    assert len(bot_plays) == turns_given == bot_records.count()
    assert set(bot_records.values_list("seat", flat=True)) == {BOT_SEAT}
    # And the students' own moves were each applied once, from the process their socket was on.
    player_records = MoveRecord.objects.filter(match=match, actor=MoveRecord.Actor.PLAYER)
    assert player_records.count() + bot_records.count() == final
    assert set(player_records.values_list("seat", flat=True)) == {0, 1}


def readiness(ws_url: str) -> tuple[int, dict]:
    url = ws_url.replace("ws://", "http://") + "/readyz"
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def poll_readiness(urls, until: asyncio.Event) -> list[tuple[int, dict]]:
    answers = []
    while not until.is_set():
        for url in urls:
            answers.append(await asyncio.to_thread(readiness, url))
        await asyncio.sleep(0.1)
    return answers


def test_both_processes_stay_ready_while_their_sockets_play(services):
    """With sockets open and moves flowing on both processes, each one's readiness is 200 the
    whole time (its channel-layer check once timed out whenever a match socket was open)."""
    match, cookies = add_up_for_ana_and_ben()

    async def play_and_poll(urls):
        done = asyncio.Event()
        polling = asyncio.create_task(poll_readiness(urls, done))
        try:
            await play_match(urls, match.pk, cookies)
        finally:
            done.set()
        return await polling

    with DaphneFleet(2, env={"GAMES_BOT_DELAY_SCALE": "0.05"}) as fleet:
        try:
            answers = asyncio.run(play_and_poll(fleet.urls))
            live = [readiness(url) for url in fleet.urls]
        except Exception:
            print(fleet.log_tail())
            raise
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert len(answers) >= 4
    assert [status for status, _body in answers] == [200] * len(answers), answers
    assert {body["channel_layer"] for _status, body in answers} == {"ok"}
    assert [status for status, _body in live] == [200, 200]
