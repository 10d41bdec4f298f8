"""Count alone: Count to ten (tests/engine/count_to_ten.py) played alone, for the tests alone, as
a game that offers solo puzzles (engine.core.Puzzles), as docs/adding-a-game.md says a game
declares them. One player counts on by one or two to the goal of the variant, saying each number
reached; a puzzle is a deal of one variant (the goal) and its stars are 2 with no wrong number,
1 with some, 0 when the player gives up. Counting is Count to ten's; what is its own is the goal
of each variant, the slips it remembers for the stars, and giving up.

Its homework tests are tests/classroom/test_homework_puzzle_games.py."""

from __future__ import annotations

from engine.core import Outcome, PuzzleDeal, Puzzles, SetupError, Variant, plays, variants
from tests.engine.count_to_ten import CountToTen

GOALS = {"alone6": 6, "alone9": 9}


def generate(size: int, difficulty: int, seed: int) -> PuzzleDeal:
    """Any seed deals the same count: the deal is the seed itself, rated as asked."""
    if size not in (6, 9):
        raise SetupError("unknown_variant", "count alone to 6 or 9")
    return PuzzleDeal(seed=seed, difficulty=difficulty)


class CountAlone(CountToTen):
    slug = "count_alone"
    title = "Count alone"
    variants = variants(
        Variant("alone6", "Count alone to six", 1, 1, {}),
        Variant("alone9", "Count alone to nine", 1, 1, {}),
    )
    puzzles = Puzzles(sizes={6: "alone6", 9: "alone9"}, generate=generate, max_stars=2)

    def _setup(self, state, rng, now_ms):
        state.data = {
            "count": 0,
            "goal": GOALS[state.variant],
            "turn": 0,
            "said": [0],
            "winner": None,
            "since_ms": now_ms,
            "slips": 0,
            "gave_up": False,
        }

    def active(self, state):
        return frozenset() if state.data["gave_up"] else super().active(state)

    @plays("add", fields=("step", "answer"))
    def _add(self, state, rng, seat, move, now_ms, events):
        super()._add(state, rng, seat, move, now_ms, events)
        state.data["slips"] += not events[-1]["correct"]

    @plays("resign")
    def _resign(self, state, rng, seat, move, now_ms, events):
        state.data["gave_up"] = True

    def _view(self, state, seat):
        return {key: state.data[key] for key in ("count", "goal", "said", "slips")}

    def outcome(self, state):
        data = state.data
        if data["gave_up"]:
            return Outcome([0], [])
        if data["winner"] is None:
            return None
        return Outcome([2 if data["slips"] == 0 else 1], [0])


GAME = CountAlone()
