"""The simulated child at the table: a deal played through the engine, the child at seat 0
making the moves a child makes, the bots the moves the product's bots make.

- The child's moves are a child's, not a bot's. In Add or Multiply? a child chooses their
  operation card either at random or by the numbers they expect (multiplying when the numbers
  the two opponents still hold make more multiplied than added), each child always the same way
  (``STYLES``), and gives the bots numbers at random: the easy bot's choice (the operation it
  holds more of) is what the focused bots rank their gifts by, so a bot-like child met the focus
  more often than a child does. In SUM a child lays a two-card equation that makes the centre
  card, one of those their hand makes at random, and otherwise draws and ends the turn. In a
  ¡Mía! solo square a child solves an open card with a pair of their hand, one of the right
  solves at random, and swaps two cards at random when stuck.
- Each answer is the learner's: right or wrong, in how many milliseconds. Add or Multiply?'s
  typed score is the learner's (a wrong answer types a wrong number). SUM and ¡Mía!'s claims
  are played as the right claim the child meant, and recorded right or wrong as the learner
  answered: a wrong claim would leave the cards in hand, which changes little of the deal.
- Each answer is recorded as the engine records it: the attempt's operands and operator (the
  order the child laid the cards, a difference larger first), its time from the moment the
  decision began, and whether that game's times measure recall (``engine.Game.times_recall``):
  a ¡Mía! claim's time holds the search of the square (``SEARCH_S_PER_CARD`` a card) and is not
  recall, so the product counts a slow right one for accuracy only.
- The bots think as the product's write path has them think: each move from a
  ``random.Random(f"{seed}:{version}:{seat}")`` and told the match's focus and the child's seat
  (``engine.bots.choose(..., leave=, people=)``); they play at ``BOT_LEVEL``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from itertools import combinations, permutations

import engine
from engine import bots
from engine.core import attempt_fact
from engine.mia_cards import number_cards, operation_cards, result_of
from engine.mia_solo import open_cells
from engine.sum_cards import DRAWS_PER_TURN, FACE, KIND, NUMBER, OPERATION, SOURCES
from tools.practice_bench.learner import Outcome

BOT_LEVEL = "easy"
CHILD = 0
STYLES = ("at random", "by the numbers")  # how a child chooses Add or Multiply?'s operation
SEARCH_S_PER_CARD = 0.25
THINK_MS = 1500  # a move that is not an answer (a choice, a draw, a swap)
MAX_STEPS = 2_000
SUM_OPERATION = {"+": "add", "-": "sub", "x": "mul"}


@dataclass(frozen=True)
class Answer:
    fact: tuple  # (operation, a, b) as the attempt names it
    correct: bool
    elapsed_ms: int
    times_recall: bool
    game: str = ""  # the game's slug; "" for a flash card


class Player:
    """The child: their learner (memory), their own random choices and their style."""

    def __init__(self, learner, rng: random.Random, style: str):
        self.learner = learner
        self.rng = rng
        self.style = style

    def answer(self, fact: tuple, clock_s: float) -> Outcome:
        return self.learner.answer(fact, clock_s)


@dataclass
class Table:
    game: engine.Game
    state: object
    seed: int
    leave: tuple
    start_s: float
    now_ms: int = 0

    def bot(self, seat: int) -> None:
        thinker = random.Random(f"{self.seed}:{self.state.version}:{seat}")
        move = bots.choose(
            self.game, self.state, seat, BOT_LEVEL, thinker, leave=self.leave, people=(CHILD,)
        )
        self.apply(seat, move, self.now_ms)

    def apply(self, seat: int, move: dict, at_ms: int) -> list[dict]:
        self.now_ms = max(self.now_ms, at_ms)
        step = self.game.apply(self.state, seat, move, self.now_ms)
        self.state = step.state
        return step.events

    @property
    def clock_s(self) -> float:
        return self.start_s + self.now_ms / 1000


def deal(
    player: Player,
    slug: str,
    variant: str,
    players: int,
    seed: int,
    focus,
    clock_s: float,
    wanted: int,
) -> tuple[list[Answer], float]:
    """The child's answers in one deal (at most ``wanted``, the rest of the day's) and the clock
    after it. ``focus``: the match's facts as the product passes them (``Match.focus``)."""
    game = engine.get_game(slug)
    state = game.new(variant, players, seed, focus=list(focus) or None)
    leave = game.focus.facts(variant, focus) if focus else ()
    table = Table(game, state, seed, tuple(leave), clock_s)
    play = {"add_or_multiply": _add_or_multiply, "sum": _sum, "mia": _mia_solo}[slug]
    answers = [replace(answer, game=slug) for answer in play(player, table, wanted)]
    return answers, table.clock_s


def _answered(table: Table, events: list[dict], outcome: Outcome) -> Answer | None:
    for event in events:
        if event.get("type") == "attempt" and event.get("seat") == CHILD:
            fact = attempt_fact(event)
            if fact is None:
                return None
            return Answer(fact, outcome.correct, event["elapsed_ms"], table.game.times_recall)
    return None


# --- Add or Multiply? ---------------------------------------------------------------------------


def _expected_op(player: Player, state) -> str:
    data = state.data
    held = data["operations"][CHILD]
    if player.style == STYLES[0] or len(set(held)) == 1:
        return player.rng.choice(held)
    left, right = (
        sum(data["numbers"][s]) / len(data["numbers"][s]) for s in (1, 2) if data["numbers"][s]
    )
    return "M" if left * right > left + right else "A"


def _add_or_multiply(player: Player, table: Table, wanted: int) -> list[Answer]:
    game = table.game
    answers: list[Answer] = []
    for _step in range(MAX_STEPS):
        if game.outcome(table.state) is not None or len(answers) >= wanted:
            break
        active = game.active(table.state)
        if CHILD not in active:
            table.bot(min(active))
            continue
        data = table.state.data
        if data["phase"] == "choose":
            op = _expected_op(player, table.state)
            moves = [m for m in game.legal_moves(table.state, CHILD) if m["op"] == op]
            table.apply(CHILD, player.rng.choice(moves), table.now_ms + THINK_MS)
            continue
        last = data["history"][-1]
        a, b = last["received"][CHILD]
        operation = "mul" if last["ops"][CHILD] == "M" else "add"
        expected = last["scores"][CHILD]
        outcome = player.answer((operation, a, b), table.clock_s)
        typed = expected if outcome.correct else max(0, expected + player.rng.choice((-1, 1)))
        if typed == expected and not outcome.correct:
            typed = expected + 1
        at = data["since_ms"] + outcome.elapsed_ms
        answer = _answered(
            table, table.apply(CHILD, {"type": "score", "value": typed}, at), outcome
        )
        answers.append(
            answer or Answer((operation, a, b), outcome.correct, outcome.elapsed_ms, True)
        )
    return answers


# --- SUM -----------------------------------------------------------------------------------------


def _two_card_equations(hand: list[int], target: int) -> list[tuple[int, int, int]]:
    """(number, operation, number) card ids of the hand that make ``target``."""
    numbers = [c for c in hand if KIND[c] == NUMBER]
    operations = {FACE[c]: c for c in hand if KIND[c] == OPERATION}
    found = []
    for x, y in permutations(numbers, 2):
        a, b = FACE[x], FACE[y]
        for sign, card in operations.items():
            value = (
                a + b
                if sign == "+"
                else a - b
                if sign == "-"
                else a * b
                if sign == "x"
                else a // b
                if a % b == 0
                else None
            )
            if value == target:
                found.append((x, card, y))
    return found


def _sum(player: Player, table: Table, wanted: int) -> list[Answer]:
    game = table.game
    answers: list[Answer] = []
    for _step in range(MAX_STEPS):
        if game.outcome(table.state) is not None or len(answers) >= wanted:
            break
        active = game.active(table.state)
        if CHILD not in active:
            table.bot(min(active))
            continue
        data = table.state.data
        hand = data["hands"][CHILD]
        if data["rotation"] is not None:
            table.apply(CHILD, {"type": "rotate", "card": player.rng.choice(hand)}, table.now_ms)
            continue
        right = []
        if data["wrong"] < table.state.options["wrong_limit"]:
            right = _two_card_equations(hand, FACE[data["centre"]])
        if right:
            x, sign, y = player.rng.choice(right)
            fact = (SUM_OPERATION.get(FACE[sign], "div"), FACE[x], FACE[y])
            outcome = player.answer(fact, table.clock_s)
            events = table.apply(
                CHILD,
                {"type": "equation", "cards": [x, sign, y]},
                data["since"] + outcome.elapsed_ms,
            )
            answer = _answered(table, events, outcome)
            if answer is not None or fact[0] == "div":
                answers.append(answer or Answer(fact, outcome.correct, outcome.elapsed_ms, True))
            continue
        sources = [name for name, pile in SOURCES.items() if data[pile]]
        if data["drawn"] < DRAWS_PER_TURN and sources:
            move = {"type": "draw", "from": player.rng.choice(sources)}
        else:
            move = {"type": "end_turn"}
        table.apply(CHILD, move, table.now_ms + THINK_MS)
    return answers


# --- ¡Mía! solo square --------------------------------------------------------------------------


def _right_solves(state) -> tuple[list[tuple], int]:
    """The right solves on offer (row, col, cards, option, fact) and the open cards."""
    data = state.data
    size, grid = data["size"], data["grid"]
    mask = sum(1 << cell for cell, card in enumerate(grid) if card is not None)
    cells = open_cells(size, mask)
    values = number_cards()
    solves = []
    for cell in cells:
        options = operation_cards()[grid[cell]]["options"]
        for x, y in combinations(data["hand"], 2):
            a, b = values[x]["value"], values[y]["value"]
            for index, option in enumerate(options):
                if result_of(a, b, option["op"]) == option["target"]:
                    if option["op"] == "+":
                        fact = ("add", a, b)
                    else:
                        fact = ("sub", max(a, b), min(a, b))
                    solves.append((cell // size, cell % size, [x, y], index, fact))
    return solves, len(cells)


def _mia_solo(player: Player, table: Table, wanted: int) -> list[Answer]:
    game = table.game
    answers: list[Answer] = []
    for _step in range(MAX_STEPS):
        if game.outcome(table.state) is not None or len(answers) >= wanted:
            break
        data = table.state.data
        solves, looked_at = _right_solves(table.state)
        if not solves:
            if len(data["deck"]) < 2:
                break
            cards = player.rng.sample(data["hand"], 2)
            table.apply(CHILD, {"type": "swap", "cards": cards}, table.now_ms + THINK_MS)
            continue
        row, col, cards, option, fact = player.rng.choice(solves)
        if fact[0] == "add" and player.rng.random() < 0.5:
            cards, fact = cards[::-1], ("add", fact[2], fact[1])
        search_ms = round(SEARCH_S_PER_CARD * looked_at * 1000)
        outcome = player.answer(fact, table.clock_s + search_ms / 1000)
        move = {"type": "solve", "row": row, "col": col, "cards": cards, "option": option}
        events = table.apply(CHILD, move, data["since_ms"] + search_ms + outcome.elapsed_ms)
        answer = _answered(table, events, outcome)
        answers.append(answer or Answer(fact, outcome.correct, outcome.elapsed_ms, False))
    return answers
