"""RULINGS 1: "exactly one claim wins a card", whatever the number of processes. Thirty threads,
each with its own PostgreSQL connection, claim the same ¡Mía! card at the same instant, 200 times
over; the row lock in games.services.submit_move must let exactly one through every time. So must
it in a server's event loop, where thirty claims run at once on thirty connections of its pool
(games.services.submit_move_async)."""

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection

import engine
from engine import IllegalMove
from games import async_db
from games.models import Match, MoveRecord
from games.services import submit_move, submit_move_async
from tests.factories import make_class, make_match, make_student

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

THREADS = 30
ROUNDS = 200
SEATS = 6  # ¡Mía! Party seats six: five threads per seat, same-seat duplicates included


def seeds_where_every_seat_can_claim(count):
    rules = engine.get_game("mia")
    found, seed = [], 0
    while len(found) < count:
        state = rules.new("party", SEATS, seed)
        if all(rules.hint(state, seat) for seat in range(SEATS)):
            found.append(seed)
        seed += 1
    return found


def test_thirty_threads_claim_one_card_and_exactly_one_wins_every_time(services, request):
    classroom = make_class()
    students = [make_student(classroom, f"S{i}", secret=f"{1000 + i}") for i in range(SEATS)]
    rules = engine.get_game("mia")
    barrier = threading.Barrier(THREADS)

    def claim(match_id, user, move, client_id):
        barrier.wait()
        try:
            result = submit_move(match_id=match_id, user=user, move=move, client_id=client_id)
            return ("won", result.version)
        except IllegalMove as error:
            return ("refused", error.code)
        finally:
            connection.close()  # back to the pool

    # Every thread holds its own connection at the same moment: widen the pool for the test.
    pool_size = (connection.pool.min_size, connection.pool.max_size)
    connection.pool.resize(min_size=1, max_size=THREADS + 5)
    request.addfinalizer(lambda: connection.pool.resize(*pool_size))

    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        for round_number, seed in enumerate(seeds_where_every_seat_can_claim(ROUNDS)):
            match = make_match(variant="party", players=students, seed=seed)
            state = rules.load(match.state)
            jobs = []
            for thread in range(THREADS):
                seat = thread % SEATS
                move = rules.hint(state, seat)  # a right claim for every thread
                jobs.append(
                    pool.submit(claim, match.pk, students[seat], move, f"r{round_number}-{thread}")
                )
            outcomes = [job.result() for job in jobs]
            exactly_one_won(match, outcomes)


def exactly_one_won(match, outcomes):
    """One claim won the card; every other seat's right claim was heard once as a late answer
    (issue 22: recorded, not scored), changing nothing else; the rest were refused."""
    records = list(MoveRecord.objects.filter(match=match).order_by("version"))
    winner, *late = records
    assert [e["type"] for e in winner.events].count("claim_won") == 1, match.seed
    assert all([e["type"] for e in r.events] == ["attempt", "late_claim"] for r in late)
    assert sorted(r.seat for r in late) == sorted(set(range(SEATS)) - {winner.seat})
    applied = [o for o in outcomes if o[0] == "won"]
    assert len(applied) == len(records), (match.seed, outcomes)
    refused = [o[1] for o in outcomes if o[0] == "refused"]
    assert refused == ["stale_round"] * (THREADS - len(records))
    assert Match.objects.get(pk=match.pk).version == len(records)


def test_thirty_claims_on_one_event_loop_and_exactly_one_wins_every_time(services):
    services.GAMES_MOVE_CONNECTIONS = THREADS
    classroom = make_class()
    students = [make_student(classroom, f"S{i}", secret=f"{1000 + i}") for i in range(SEATS)]
    rules = engine.get_game("mia")

    async def claim(match_id, user, move, client_id):
        try:
            result = await submit_move_async(
                match_id=match_id, user=user, move=move, client_id=client_id
            )
            return ("won", result.version)
        except IllegalMove as error:
            return ("refused", error.code)

    async def claim_all(match, state, round_number):
        return await asyncio.gather(
            *(
                claim(
                    match.pk,
                    students[task % SEATS],
                    rules.hint(state, task % SEATS),
                    f"r{round_number}-{task}",
                )
                for task in range(THREADS)
            )
        )

    # One event loop for all the rounds, as in a server: its pool's connections are reused.
    loop = asyncio.new_event_loop()
    try:
        for round_number, seed in enumerate(seeds_where_every_seat_can_claim(ROUNDS)):
            match = make_match(variant="party", players=students, seed=seed)
            state = rules.load(match.state)
            outcomes = loop.run_until_complete(claim_all(match, state, round_number))
            exactly_one_won(match, outcomes)
    finally:
        loop.run_until_complete(async_db.close_pool())
        loop.run_until_complete(asyncio.sleep(0.1))  # the news of the last round goes out
        loop.close()
