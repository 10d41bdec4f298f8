"""The ¡Mía! claim race: ``python -m tools.loadtest --game mia`` (docs/capacity.md).

¡Mía! is played in real time: whoever solves the top operation card first takes it. Children at a
table see the card together and answer within milliseconds of one another, so at each table, once
every seat's socket shows the new card, EVERY seat answers at once: a seat that can make the
card's target with two cards of its hand claims it, a seat that cannot passes (in an order drawn
anew for each card). The server must let exactly one claim win, refuse the others as too late
(``stale_round``), and tell every socket of the table.

Each seat decides from its own view only (its hand, the top card's options as shown to it), as
its page would: nothing is read from the database and no hidden state is mirrored.

Per card it measures, from the first answer sent, the time until each socket of the table has
received the state in which the card is settled (taken, passed by everyone, or the game over):
claim -> every socket. It counts the winners per card from the ``claim_won`` events (exactly one
when some seat had a right claim, none when every seat passed), and what was lost: answers the
sender's socket never heard back about, and sockets that never saw the card settled. Versions a
socket skipped are counted apart: with the seats of a table on two processes, the news of two
answers applied a millisecond apart can cross, and a socket that got the newer one first drops the
older (news is delivered at most once; each state is whole, so only the skipped step's events
are missed).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations

from engine.mia_cards import result_of
from tools.loadtest.driver import (
    TABLE_SIZE,
    Figures,
    LoadRun,
    Sock,
    Table,
    TableSpec,
    _ms,
    _percentile,
    errors_and_cpu,
)

VARIANT = "party"  # 2 to 6 players; its deck of numbers is reshuffled, so every card can be raced
# The pass timeout at its longest: no card turns over by the clock while its table is racing it.
OPTIONS = {"pass_timeout_seconds": 120}
WILD_VALUES = range(1, 10)
# The refusals of an answer to a card already settled (the race's losers): expected, not errors.
TOO_LATE = frozenset({"stale_round", "game_over"})


# --- what a seat sees ----------------------------------------------------------------------------


def right_claim(view: dict) -> dict | None:
    """A right claim of the top card from a seat's own view (its hand, the card's options as shown
    to it, mirrored or not), sparing Wild cards; None when the seat cannot solve it."""
    top = view.get("top")
    if not top or top.get("kind") != "operation" or view.get("over_reason"):
        return None
    current = view["round"]
    usable = [card for card in view.get("hand") or () if card["kind"] != "extra_time"]
    found = []
    for first, second in combinations(usable, 2):
        for option, shown in enumerate(top["options"]):
            op, target = shown["op"], shown["target"]
            move = {
                "type": "claim",
                "cards": [first["id"], second["id"]],
                "option": option,
                "round": current,
            }
            wild = _wild_values(first, second, op, target)
            if wild is None:
                continue
            if wild:
                move["wild"] = wild[0] if len(wild) == 1 else list(wild)
            found.append((len(wild), move))
    if not found:
        return None
    return min(found, key=lambda item: item[0])[1]


def _wild_values(first: dict, second: dict, op: str, target: int) -> tuple[int, ...] | None:
    """The values to declare for the Wild cards among the two so that they make ``target``: ()
    when neither is a Wild and they make it; None when they cannot."""
    wilds = [card["kind"] == "wild" for card in (first, second)]
    if not any(wilds):
        return () if result_of(first["value"], second["value"], op) == target else None
    if all(wilds):
        for v in WILD_VALUES:
            for w in WILD_VALUES:
                if result_of(v, w, op) == target:
                    return (v, w)
        return None
    known = second["value"] if wilds[0] else first["value"]
    for value in WILD_VALUES:
        if result_of(known, value, op) == target:
            return (value,)
    return None


# --- the figures ---------------------------------------------------------------------------------


@dataclass
class MiaFigures(Figures):
    """One step of the race. ``acked`` counts the cards settled within the step; ``sent`` the
    cards raced."""

    answers: int = 0  # claims and passes sent
    claims: int = 0  # right claims sent
    stale: int = 0  # answers refused because the card was already settled (the race's losers)
    # per socket: first answer sent -> this socket has the state in which the card is settled
    claim_ms: list[float] = field(default_factory=list)
    # per card: first answer sent -> the last socket of its table has it
    slowest_ms: list[float] = field(default_factory=list)
    # winners per card some seat could claim (exactly one expected), and cards nobody could
    winners: Counter = field(default_factory=Counter)
    unclaimable: int = 0
    unclaimable_won: int = 0  # a card every seat passed that somebody won all the same
    lost_answers: int = 0  # answers the sender's socket never heard back about
    unsettled: int = 0  # sockets that never saw their table's card settled

    @property
    def wrong_winners(self) -> int:
        """Cards some seat could claim that were not won exactly once, and cards every seat
        passed that were won."""
        return sum(n for won, n in self.winners.items() if won != 1) + self.unclaimable_won

    def latency(self, which: str) -> dict[str, float | None]:
        values = sorted(self.claim_ms if which in ("claim", "mover") else self.slowest_ms)
        return {f"p{p}": _percentile(values, p) for p in (50, 95, 99)}

    @property
    def worst_p99(self) -> float | None:
        return self.latency("claim")["p99"]

    def as_dict(self) -> dict:
        return {
            **super().as_dict(),
            "cards_raced": self.sent,
            "cards_settled": self.acked,
            "answers": self.answers,
            "right_claims": self.claims,
            "refused_stale": self.stale,
            "latency_claim_every_socket_ms": self.latency("claim"),
            "latency_claim_slowest_socket_ms": self.latency("slowest"),
            "winners_per_claimable_card": {str(k): v for k, v in sorted(self.winners.items())},
            "unclaimable_cards": self.unclaimable,
            "unclaimable_cards_won": self.unclaimable_won,
            "lost_answers": self.lost_answers,
            "unsettled_sockets": self.unsettled,
        }


# --- a table racing ------------------------------------------------------------------------------


@dataclass
class Race:
    """One card raced at one table."""

    round: int
    figures: MiaFigures
    started: float = 0.0  # perf_counter when the first answer was sent
    waiting: dict[str, int] = field(default_factory=dict)  # client_id -> seat, not yet answered
    settled: set[int] = field(default_factory=set)  # seats whose socket has the card settled
    slowest: float = 0.0
    claimable: bool = False
    winners: int = 0
    counted: set[int] = field(default_factory=set)  # versions whose events were counted


class MiaTable(Table):
    """Three sockets racing each card of their match; each seat knows only its own view."""

    reads_views = True

    def __init__(self, run: LoadRun, spec: TableSpec, urls):
        super().__init__(run, spec, urls)
        self.views: list[dict | None] = [None] * len(self.socks)
        self.latest = -1  # the newest version any socket of the table received
        self.raced = -1  # the round of the last card raced
        self.race: Race | None = None
        self.answers = 0  # numbers the client ids

    def new_game(self) -> None:
        self.mirror = self.spec.state
        self.views = [None] * len(self.socks)
        self.latest = -1
        self.raced = -1
        self.race = None

    def final_version(self) -> int:
        return self.latest

    def in_flight(self) -> bool:
        return self.race is not None

    def ready(self) -> bool:
        if self.busy or self.broken or self.race is not None:
            return False
        if not all(s.open_now and s.last_version >= 0 for s in self.socks):
            return False
        views = self.views
        if any(v is None or v["over_reason"] or v["window"] for v in views):
            return False
        current = views[0]["round"]
        return current != self.raced and all(v["round"] == current for v in views)

    async def send_move(self, figures: MiaFigures) -> bool:
        current = self.views[0]["round"]
        race = Race(current, figures)
        texts = []
        for seat, view in enumerate(self.views):
            claim = right_claim(view)
            move = claim if claim is not None else {"type": "pass", "round": current}
            race.claimable = race.claimable or claim is not None
            figures.claims += claim is not None
            self.answers += 1
            client_id = f"a{self.answers}"
            race.waiting[client_id] = seat
            texts.append((seat, json.dumps({"type": "move", "move": move, "client_id": client_id})))
        self.rng.shuffle(texts)
        self.raced = current
        self.race = race
        figures.sent += 1
        figures.answers += len(texts)
        race.started = time.perf_counter()
        for seat, text in texts:
            await self.socks[seat].ws.send(text)
        return True

    # -- from the sockets

    def on_state(self, sock: Sock, version: int, received: float, message=None) -> None:
        figures = self.run.figures
        last = sock.last_version
        if last >= 0 and version > last + 1:
            figures.lost += version - last - 1
        elif 0 <= version < last:
            figures.out_of_order += 1
            return
        elif version == last:  # the answer to a sync: what the socket had already
            self.views[sock.seat] = message["view"]
            self._after_race()
            return
        sock.last_version = version
        self.latest = max(self.latest, version)
        view = message["view"]
        self.views[sock.seat] = view
        race = self.race
        if race is not None:
            race.waiting.pop(message.get("client_id", ""), None)
            if version not in race.counted:
                race.counted.add(version)
                race.winners += sum(
                    1
                    for event in message.get("events", ())
                    if event.get("type") == "claim_won" and event.get("round") == race.round
                )
            if sock.seat not in race.settled and (
                view["round"] != race.round or view["over_reason"]
            ):
                race.settled.add(sock.seat)
                elapsed_ms = (received - race.started) * 1000
                race.figures.claim_ms.append(elapsed_ms)
                race.slowest = max(race.slowest, elapsed_ms)
            self._finish_if_done()
        self._after_race()

    def on_error(self, sock: Sock, message: dict) -> None:
        race = self.race
        code = message.get("code", "?")
        if race is not None and race.waiting.pop(message.get("client_id", ""), None) is not None:
            if code in TOO_LATE:
                race.figures.stale += 1
            else:
                self.run.figures.errors[code] += 1
            self._finish_if_done()
            self._after_race()
            return
        self.run.figures.errors[code] += 1

    def _after_race(self) -> None:
        """The next card when it is up, or the next game once this one is over."""
        if self.race is not None or self.busy:
            return
        if any(view is not None and view["over_reason"] for view in self.views):
            self.busy = True
            self.run.spawn(self._next_game())
            return
        self._maybe_ready()

    def _finish_if_done(self, give_up: bool = False) -> None:
        race = self.race
        if race is None:
            return
        every_socket = len(race.settled) == len(self.socks)
        if not give_up and not (every_socket and not race.waiting):
            return
        figures = race.figures
        figures.lost_answers += len(race.waiting)
        figures.unsettled += len(self.socks) - len(race.settled)
        if every_socket:
            figures.slowest_ms.append(race.slowest)
            figures.timeline.setdefault(int(race.started - figures.started), []).append(
                race.slowest
            )
            if figures.open:
                figures.acked += 1
        if race.claimable:
            figures.winners[race.winners] += 1
        else:
            figures.unclaimable += 1
            figures.unclaimable_won += race.winners > 0
        self.race = None
        if give_up:
            # As a page would: ask for the state again (a missed one reaches the socket anew).
            for sock in self.socks:
                if sock.open_now:
                    self.run.spawn(sock.ws.send('{"type":"sync"}'))

    def give_up_if_stuck(self, now: float, after: float) -> bool:
        race = self.race
        if race is None or now - race.started < after:
            return False
        self._finish_if_done(give_up=True)
        return True

    def count_behind(self, figures: Figures) -> None:
        for sock in self.socks:
            if sock.open_now and not self.busy and 0 <= sock.last_version < self.latest:
                figures.lost += self.latest - sock.last_version
                sock.last_version = self.latest


class MiaRun(LoadRun):
    """The class racing ¡Mía!: ``rate`` is cards raced a second, in all (each card is answered by
    every seat of its table)."""

    table_type = MiaTable
    figures_type = MiaFigures

    def __init__(self, **kwargs):
        kwargs.setdefault("options", OPTIONS)
        super().__init__(**kwargs)


# --- the report ----------------------------------------------------------------------------------


def step_report(figures: MiaFigures) -> list[str]:
    claim = figures.latency("claim")
    slowest = figures.latency("slowest")
    errors, error_detail, cpu = errors_and_cpu(figures)
    claimable = sum(figures.winners.values())
    winners = ", ".join(f"{won}: {n}" for won, n in sorted(figures.winners.items())) or "-"
    lag_values = sorted(figures.client_lag_ms)
    return [
        f"connected sockets: {figures.connected}/{figures.sockets}"
        + (f" ({figures.between_games} between games)" if figures.between_games else ""),
        f"cards: {figures.acked} settled in {figures.duration:.1f} s = {figures.achieved:.1f}/s "
        f"achieved (target {figures.target_rate:g}/s); raced {figures.sent}, answers "
        f"{figures.answers} ({figures.claims} right claims, the rest passes), refused as too "
        f"late {figures.stale}, late {figures.late}, tables restarted "
        f"{figures.reconnects // TABLE_SIZE}",
        f"claim -> every socket (ms): p50 {_ms(claim['p50'])}  p95 {_ms(claim['p95'])}  "
        f"p99 {_ms(claim['p99'])}  (n={len(figures.claim_ms)})",
        f"claim -> slowest socket of the table (ms): p50 {_ms(slowest['p50'])}  "
        f"p95 {_ms(slowest['p95'])}  p99 {_ms(slowest['p99'])}  (n={len(figures.slowest_ms)})",
        f"winners per card: {winners} (cards some seat could claim: {claimable}; "
        f"not won exactly once: {figures.wrong_winners}); cards nobody could claim: "
        f"{figures.unclaimable}",
        f"lost: answers {figures.lost_answers}, sockets never settled {figures.unsettled}",
        # A socket's states are whole views: one that skips a version has the newer state, and
        # misses only the skipped step's events (its page asks for sync, docs/architecture.md).
        f"versions a socket skipped: {figures.lost}",
        f"out-of-order messages: {figures.out_of_order}",
        f"errors: {errors}{error_detail}",
        f"cpu % of one core: {cpu}",
        f"load client's own event-loop lag (ms): p50 {_ms(_percentile(lag_values, 50))}  "
        f"p99 {_ms(_percentile(lag_values, 99))}",
    ]


def ramp_table(steps) -> list[str]:
    lines = ["  rate  achieved  claim->every p50/p95/p99  winners!=1  lost  skipped  err  cpu %"]
    for figures in steps:
        claim = figures.latency("claim")
        lost = figures.lost_answers + figures.unsettled
        cpu = " ".join(f"{name}={value:.0f}" for name, value in figures.cpu.items())
        lines.append(
            f"{figures.target_rate:6g} {figures.achieved:9.1f} "
            f"{_ms(claim['p50']):>10}/{_ms(claim['p95']):>5}/{_ms(claim['p99']):>6} "
            f"{figures.wrong_winners:10d} {lost:5d} {figures.lost:8d} "
            f"{sum(figures.errors.values()):4d}  {cpu}"
        )
    return lines
