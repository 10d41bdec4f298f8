"""Count to ten: a game for the tests alone, added as docs/adding-a-game.md says (its tests are
tests/games/test_adding_a_game.py). Players take turns counting on by one or two and say the number
they reach; whoever reaches the goal wins. Saying it is the arithmetic: a wrong number is an
attempt gone wrong, and the count goes on from the right one, as a table would correct it.

Moves: ``{"type": "add", "step": 1 | 2, "answer": n}`` and ``{"type": "resign"}``.
Codes of its own: ``bad_step`` (a step other than one or two, or past the goal).
"""

from __future__ import annotations

from engine.core import (
    Game,
    Option,
    Outcome,
    Variant,
    attempt_event,
    first_player_option,
    plays,
    require,
    require_int,
    variants,
)

BAD_STEP = "bad_step"
STEPS = (1, 2)


class CountToTen(Game):
    slug = "count_to_ten"
    title = "Count to ten"
    score_key = "said"  # how many numbers each seat has said
    variants = variants(
        Variant("ten", "Count to ten", 2, 2, {"first_player": first_player_option()}),
        Variant(
            "race",
            "Count to a goal, up to four players",
            2,
            4,
            {"goal": Option("goal", 20, "int", "The number that wins.", minimum=3, maximum=50)},
        ),
    )

    def _setup(self, state, rng, now_ms):
        first = state.options.get("first_player", "random")
        state.data = {
            "count": 0,
            "goal": state.options.get("goal", 10),
            "turn": rng.below(state.players) if first == "random" else 0,
            "said": [0] * state.players,
            "winner": None,
            "since_ms": now_ms,
        }

    def active(self, state):
        data = state.data
        return frozenset() if data["winner"] is not None else frozenset((data["turn"],))

    def legal_moves(self, state, seat):
        if seat not in self.active(state):
            return []
        count, goal = state.data["count"], state.data["goal"]
        moves = [
            {"type": "add", "step": step, "answer": count + step + slip}
            for step in STEPS
            if count + step <= goal
            for slip in (0, 1)
        ]
        return [*moves, {"type": "resign"}]

    @plays("add", fields=("step", "answer"))
    def _add(self, state, rng, seat, move, now_ms, events):
        data = state.data
        step = require_int(move, "step")
        answer = require_int(move, "answer")
        require(step in STEPS and data["count"] + step <= data["goal"], BAD_STEP, "one or two")
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
        data["count"] = expected
        data["said"][seat] += step
        if expected == data["goal"]:
            data["winner"] = seat
        self._next_turn(state, now_ms)

    @plays("resign")
    def _resign(self, state, rng, seat, move, now_ms, events):
        data = state.data
        data["winner"] = (seat + 1) % state.players
        events.append({"type": "resigned", "seat": seat})

    @staticmethod
    def _next_turn(state, now_ms):
        data = state.data
        data["turn"] = (data["turn"] + 1) % state.players
        data["since_ms"] = now_ms

    def _view(self, state, seat):
        data = state.data
        return {key: data[key] for key in ("count", "goal", "turn", "said")}

    def outcome(self, state):
        winner = state.data["winner"]
        return None if winner is None else Outcome(list(state.data["said"]), [winner])

    def hint(self, state, seat):
        if seat not in self.active(state):
            return None
        count, goal = state.data["count"], state.data["goal"]
        # Leave the next player a multiple of three to go: they cannot reach the goal first.
        step = next((s for s in STEPS if (goal - count - s) % 3 == 0 and count + s <= goal), 1)
        return {"type": "add", "step": step, "answer": count + step}

    def bot_move(self, state, seat, level, rng):
        if seat not in self.active(state):
            return None
        if level == "random":
            return rng.choice([m for m in self.legal_moves(state, seat) if m["type"] == "add"])
        if level == "easy":
            return {"type": "add", "step": 1, "answer": state.data["count"] + 1}
        return self.hint(state, seat)


GAME = CountToTen()
