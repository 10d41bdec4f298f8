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

import engine
from games.models import Match, MoveRecord
from tests.factories import make_class, make_match, make_student, session_cookie_for
from tools.loadtest.servers import DaphneFleet, match_socket

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
    async with match_socket(url, match_id, cookie, open_timeout=TIMEOUT) as ws:
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


MIA_SEATS = 3
MIA_CARDS = 5


def mia_seed_where_every_seat_can_claim() -> int:
    rules = engine.get_game("mia")
    seed = 0
    while not all(rules.hint(rules.new("express", MIA_SEATS, seed), s) for s in range(MIA_SEATS)):
        seed += 1
    return seed


async def claim_together(urls, match_id, cookies, claims_of, version_of):
    """Every seat's socket (on the process ``urls`` gives it) claims at once, ``MIA_CARDS``
    times: each round's claims are made from the match as it stands (``claims_of``), and each
    socket reads up to the round's last version (``version_of``). Returns,
    per round, what each socket heard back."""
    sockets = [
        await match_socket(url, match_id, cookie, open_timeout=TIMEOUT)
        for url, cookie in zip(urls, cookies, strict=True)
    ]
    try:
        versions = [json.loads(await asyncio.wait_for(s.recv(), TIMEOUT)) for s in sockets]
        assert len({state["version"] for state in versions}) == 1
        heard_per_round = []
        for card in range(MIA_CARDS):
            claims = await claims_of()
            if not claims:
                break
            await asyncio.gather(
                *(
                    sockets[seat].send(
                        json.dumps({"type": "move", "move": move, "client_id": f"c{card}"})
                    )
                    for seat, move in claims.items()
                )
            )

            async def hear(seat, got, until):
                while not until(got):
                    got.append(json.loads(await asyncio.wait_for(sockets[seat].recv(), TIMEOUT)))
                return got

            # A claimant's own answer: its state, or its refusal. The claims that lost the race
            # are heard as late answers, each a version of its own, so only once every claimant
            # is answered is the round's last version known ...
            heard = await asyncio.gather(
                *(
                    hear(
                        s,
                        [],
                        lambda got, tag=f"c{card}": any(m.get("client_id") == tag for m in got),
                    )
                    if s in claims
                    else asyncio.sleep(0, result=[])
                    for s in range(MIA_SEATS)
                )
            )
            last = await version_of()

            # ... and every socket reads up to it, so that nothing of this round is left unread
            # for the next one.
            def up_to_last(got, last=last):
                return any(m["type"] == "state" and m["version"] >= last for m in got)

            heard_per_round.append(
                await asyncio.gather(*(hear(s, heard[s], up_to_last) for s in range(MIA_SEATS)))
            )
        return heard_per_round
    finally:
        for socket in sockets:
            await socket.close()


def test_one_matchs_claims_split_over_two_processes_have_exactly_one_winner_per_card(services):
    """RULINGS 1 does not rest on routing: a ¡Mía! table's sockets deliberately on two
    processes claim each card at once, and the row lock lets exactly one claim win it."""
    from asgiref.sync import sync_to_async

    classroom = make_class()
    players = [make_student(classroom, n, secret=f"{1000 + i}") for i, n in enumerate("ABC")]
    match = make_match(
        game="mia",
        variant="express",
        players=players,
        seed=mia_seed_where_every_seat_can_claim(),
        options={"pass_timeout_seconds": 120},
    )
    cookies = [session_cookie_for(player) for player in players]
    rules = engine.get_game("mia")

    @sync_to_async
    def claims_of():
        from django.db import connection

        try:
            state = rules.load(Match.objects.get(pk=match.pk).state)
        finally:
            connection.close()  # this thread's: the test database is dropped after the test
        hints = {seat: rules.hint(state, seat) for seat in range(MIA_SEATS)}
        return {seat: hint for seat, hint in hints.items() if hint and hint["type"] == "claim"}

    @sync_to_async
    def version_of():
        from django.db import connection

        try:
            return Match.objects.get(pk=match.pk).version
        finally:
            connection.close()

    with DaphneFleet(2) as fleet:
        first, second = fleet.urls
        try:
            rounds = asyncio.run(
                claim_together([first, second, first], match.pk, cookies, claims_of, version_of)
            )
        except Exception:
            print(fleet.log_tail())
            raise

    assert rounds, "no card could be claimed"
    records = list(MoveRecord.objects.filter(match=match).order_by("version"))
    won = [r for r in records if any(e["type"] == "claim_won" for e in r.events)]
    assert len(won) == len(rounds)  # one claim won per card, however many were sent
    # The others' claims on a card already won are heard as late answers (issue 22), nothing more.
    late = [r for r in records if r.actor == MoveRecord.Actor.PLAYER and r not in won]
    assert all([e["type"] for e in r.events] == ["attempt", "late_claim"] for r in late)
    for heard, record in zip(rounds, won, strict=True):
        # Every socket, on either process, saw the one winner's version (or a later one).
        states = [[m for m in got if m["type"] == "state"][-1] for got in heard]
        assert all(state["version"] >= record.version for state in states)
        refusals = [m for got in heard for m in got if m["type"] == "error"]
        assert all(m["code"] == "stale_round" for m in refusals), refusals
