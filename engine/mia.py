"""¡Mía! — "¿Te sumas o te restas?" (rulebook seeds/000, RULINGS 1; docs/rules/mia.md).

The table modes (express, party, canada47) live in ``mia_multi``, the solo square (solo5, solo4,
solo3) in ``mia_solo``; this Game sends each call to the module that owns the state's variant.
The solo square's homework puzzles are made by ``mia_puzzles``, which deals them through this
Game.
"""

from __future__ import annotations

from engine import mia_multi, mia_puzzles, mia_solo
from engine.core import Focus, Game, Step


def _rules(state):
    return mia_solo if state.variant in mia_solo.VARIANTS else mia_multi


def _shows(variant, fact):
    if variant in mia_solo.VARIANTS:
        return mia_solo.shows(fact)
    return mia_multi.shows(fact, range(mia_multi.OPERATION_COUNT))


class Mia(Game):
    slug = "mia"
    score_key = "scores"
    answer_form = "claimed"
    bench_tables = (("express", 3), ("party", 4), ("canada47", 3), ("solo5", 1))
    arena_table = ("canada47", 2)
    real_time = True
    times_recall = False
    title = "¡Mía!"
    variants = {**mia_multi.VARIANTS, **mia_solo.VARIANTS}
    move_fields = {**mia_multi.MOVE_FIELDS, **mia_solo.MOVE_FIELDS}
    focus = Focus(
        operations=frozenset(("add", "sub")),
        variants=tuple(variants),
        how="The first operation cards revealed offer the facts' sums and differences, and the "
        "hands and the top of the number deck hold their pairs (the solo square: its cards, the "
        "hand and every other pair drawn).",
        shows=_shows,
    )

    def __init__(self):
        super().__init__()
        self.puzzles = mia_puzzles.puzzles_of(self)

    def _setup(self, state, rng, now_ms):
        _rules(state).setup(state, rng, now_ms)

    def _setup_focused(self, state, rng, now_ms, facts):
        _rules(state).setup(state, rng, now_ms, facts)

    def active(self, state):
        return _rules(state).active(state)

    def legal_moves(self, state, seat):
        return _rules(state).legal_moves(state, seat)

    def passes_in_a_row(self, state):
        return mia_multi.passes_in_a_row(state) if _rules(state) is mia_multi else None

    def apply(self, state, seat, move, now_ms):
        if _rules(state) is not mia_multi or not mia_multi.window_over(state, now_ms):
            return super().apply(state, seat, move, now_ms)
        # An Extra time window is over at its end, whether or not the server's timer has fired
        # yet: a move made after it finds the card open to every seat again.
        ended = state.clone()
        events = []
        mia_multi.end_window_on_time(ended, events)
        step = super().apply(ended, seat, move, now_ms)
        return Step(step.state, events + step.events)

    def heard_out_of_turn(self, state, seat, move):
        return _rules(state) is mia_multi and mia_multi.late_claim(state, seat, move)

    def _apply(self, state, rng, seat, move, now_ms, events):
        _rules(state).apply(state, rng, seat, move, now_ms, events)

    def deadline(self, state):
        return _rules(state).deadline(state)

    def _tick(self, state, rng, now_ms, events):
        _rules(state).tick(state, rng, now_ms, events)

    def _view(self, state, seat):
        return _rules(state).view(state, seat)

    def outcome(self, state):
        return _rules(state).outcome(state)

    def hint(self, state, seat):
        return _rules(state).hint(state, seat)

    def bot_move(self, state, seat, level, rng):
        return _rules(state).bot_move(state, seat, level, rng)

    def bot_move_leaving(self, state, seat, level, rng, leave, people=frozenset()):
        if _rules(state) is not mia_multi:  # the solo square has no other seat to leave a fact to
            return self.bot_move(state, seat, level, rng)
        return mia_multi.bot_move_leaving(
            state, seat, level, rng, lambda move: self.answers_any(state, seat, move, leave)
        )


GAME = Mia()
