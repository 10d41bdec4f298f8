"""Count alone: a game for the tests alone that offers solo puzzles (engine.core.Puzzles), as
docs/adding-a-game.md says a game declares them. One player counts on by one or two to the goal
of the variant, saying each number reached; a puzzle is a deal of one variant (the goal) and its
stars are 2 with no wrong number, 1 with some, 0 when the player gives up.

Its homework tests are tests/classroom/test_homework_puzzle_games.py."""

from __future__ import annotations

from engine.core import (
    Game,
    Outcome,
    PuzzleDeal,
    Puzzles,
    SetupError,
    Variant,
    attempt_event,
    plays,
    require,
    require_int,
    variants,
)

STEPS = (1, 2)
GOALS = {"alone6": 6, "alone9": 9}


def generate(size: int, difficulty: int, seed: int) -> PuzzleDeal:
    """Any seed deals the same count: the deal is the seed itself, rated as asked."""
    if size not in (6, 9):
        raise SetupError("unknown_variant", "count alone to 6 or 9")
    return PuzzleDeal(seed=seed, difficulty=difficulty)


class CountAlone(Game):
    slug = "count_alone"
    title = "Count alone"
    score_key = "said"
    variants = variants(
        Variant("alone6", "Count alone to six", 1, 1, {}),
        Variant("alone9", "Count alone to nine", 1, 1, {}),
    )
    puzzles = Puzzles(sizes={6: "alone6", 9: "alone9"}, generate=generate, max_stars=2)

    def _setup(self, state, rng, now_ms):
        state.data = {
            "count": 0,
            "goal": GOALS[state.variant],
            "said": [0],
            "slips": 0,
            "result": None,
            "since_ms": now_ms,
        }

    def active(self, state):
        return frozenset() if state.data["result"] else frozenset((0,))

    def legal_moves(self, state, seat):
        if seat not in self.active(state):
            return []
        count, goal = state.data["count"], state.data["goal"]
        return [
            *(
                {"type": "add", "step": step, "answer": count + step + slip}
                for step in STEPS
                if count + step <= goal
                for slip in (0, 1)
            ),
            {"type": "resign"},
        ]

    @plays("add", fields=("step", "answer"))
    def _add(self, state, rng, seat, move, now_ms, events):
        data = state.data
        step = require_int(move, "step")
        answer = require_int(move, "answer")
        require(step in STEPS and data["count"] + step <= data["goal"], "bad_step", "one or two")
        expected = data["count"] + step
        events.append(
            attempt_event(
                seat=seat,
                operands=[data["count"], step],
                operator="+",
                answer=answer,
                expected=expected,
                correct=answer == expected,
                elapsed_ms=now_ms - data["since_ms"],
            )
        )
        data["slips"] += answer != expected
        data["count"] = expected
        data["said"][0] += step
        data["since_ms"] = now_ms
        if expected == data["goal"]:
            data["result"] = "won"

    @plays("resign")
    def _resign(self, state, rng, seat, move, now_ms, events):
        state.data["result"] = "lost"

    def _view(self, state, seat):
        return {key: state.data[key] for key in ("count", "goal", "said", "slips")}

    def outcome(self, state):
        result = state.data["result"]
        if result is None:
            return None
        if result == "lost":
            return Outcome([0], [])
        return Outcome([2 if state.data["slips"] == 0 else 1], [0])

    def hint(self, state, seat):
        if seat not in self.active(state):
            return None
        return {"type": "add", "step": 1, "answer": state.data["count"] + 1}

    def bot_move(self, state, seat, level, rng):
        if seat not in self.active(state):
            return None
        if level == "random":
            return rng.choice([m for m in self.legal_moves(state, seat) if m["type"] == "add"])
        return self.hint(state, seat)


GAME = CountAlone()
