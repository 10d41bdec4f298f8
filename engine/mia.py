"""¡Mía! — "¿Te sumas o te restas?" (rulebook seeds/000, RULINGS 1; docs/rules/mia.md).

One Game of two kinds of variant: the table modes (express, party, canada47), whose rules are in
``mia_multi`` with its rounds in ``mia_rounds`` and its views, hints and bots in
``mia_table_view``, and the solo square (solo5, solo4, solo3), whose rules are in ``mia_solo``
and its solver, hints and bots in ``mia_solver``. Each move is declared here with ``@plays``;
``_apply`` refuses the moves of the other kind of variant. The solo square's homework puzzles are
made by ``mia_puzzles``, which deals them through this Game.
"""

from __future__ import annotations

from engine import mia_cards, mia_multi, mia_puzzles, mia_solo, mia_solver, mia_table_view
from engine.core import (
    UNKNOWN_MOVE,
    Focus,
    Game,
    IllegalMove,
    Step,
    plays,
    require,
    require_int,
)
from engine.mia_cards import OPERATION_COUNT

TABLE_MOVES = ("claim", "pass", "extra_time")
SOLO_MOVES = ("solve", "swap")


def _solo(state) -> bool:
    return state.variant in mia_solo.VARIANTS


def _shows(variant, fact):
    if variant in mia_solo.VARIANTS:
        return mia_solo.shows(fact)
    return mia_cards.shows(fact, range(OPERATION_COUNT))


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

    def _setup(self, state, rng, now_ms, facts=()):
        (mia_solo if _solo(state) else mia_multi).setup(state, rng, now_ms, facts)

    def _setup_focused(self, state, rng, now_ms, facts):
        self._setup(state, rng, now_ms, facts)

    def active(self, state):
        return (mia_solo if _solo(state) else mia_multi).active(state)

    def legal_moves(self, state, seat):
        return (mia_solo if _solo(state) else mia_multi).legal_moves(state, seat)

    def passes_in_a_row(self, state):
        return None if _solo(state) else mia_multi.passes_in_a_row(state)

    def apply(self, state, seat, move, now_ms):
        if _solo(state) or not mia_multi.window_over(state, now_ms):
            return super().apply(state, seat, move, now_ms)
        # An Extra time window is over at its end, whether or not the server's timer has fired
        # yet: a move made after it finds the card open to every seat again.
        ended = state.clone()
        events = []
        mia_multi.end_window_on_time(ended, events)
        step = super().apply(ended, seat, move, now_ms)
        return Step(step.state, events + step.events)

    def heard_out_of_turn(self, state, seat, move):
        return not _solo(state) and mia_multi.late_claim(state, seat, move)

    def _apply(self, state, rng, seat, move, now_ms, events):
        kind = move["type"]
        if _solo(state):
            if kind not in SOLO_MOVES:
                raise IllegalMove(UNKNOWN_MOVE, f"the solo square has no move {kind!r}")
            super()._apply(state, rng, seat, move, now_ms, events)
            state.data["since_ms"] = now_ms  # the next decision starts now
            mia_solo.settle(state.data, events)
            return
        if kind not in TABLE_MOVES:
            raise IllegalMove(UNKNOWN_MOVE, f"{state.variant} has no move {kind!r}")
        if "round" in move and require_int(move, "round") != state.data["round"]:
            # A move made for a card that has since been solved or covered must not count against
            # the next card (the claim race): it is never judged against the new card. A claim
            # that lost the race for the card just won is still the child's answer to it.
            require(
                mia_multi.late_claim(state, seat, move),
                mia_multi.STALE_ROUND,
                "that operation card is no longer the one on top",
            )
            mia_multi.play_late_claim(state, seat, move, now_ms, events)
            return
        super()._apply(state, rng, seat, move, now_ms, events)

    # The table's moves: "round" names the operation card the move was made for, on any move.
    @plays("claim", fields=("cards", "option", "wild", "round"))
    def _claim(self, state, rng, seat, move, now_ms, events):
        mia_multi.play_claim(state, rng, seat, move, now_ms, events)

    @plays("pass", fields=("round",))
    def _pass(self, state, rng, seat, move, now_ms, events):
        mia_multi.play_pass(state, rng, seat, move, now_ms, events)

    @plays("extra_time", fields=("card", "round"))
    def _extra_time(self, state, rng, seat, move, now_ms, events):
        mia_multi.play_extra_time(state, rng, seat, move, now_ms, events)

    # The solo square's moves.
    @plays("solve", fields=("row", "col", "cards", "option"))
    def _solve(self, state, rng, seat, move, now_ms, events):
        mia_solo.play_solve(state.data, seat, move, now_ms, events)

    @plays("swap", fields=("cards",))
    def _swap(self, state, rng, seat, move, now_ms, events):
        mia_solo.play_swap(state.data, seat, move, now_ms, events)

    def deadline(self, state):
        return None if _solo(state) else mia_multi.deadline(state)

    def _tick(self, state, rng, now_ms, events):
        mia_multi.tick(state, rng, now_ms, events)  # the solo square has no timer to fire

    def _view(self, state, seat):
        return (mia_solo if _solo(state) else mia_table_view).view(state, seat)

    def outcome(self, state):
        return (mia_solo if _solo(state) else mia_table_view).outcome(state)

    def hint(self, state, seat):
        return (mia_solver if _solo(state) else mia_table_view).hint(state, seat)

    def bot_move(self, state, seat, level, rng):
        return (mia_solver if _solo(state) else mia_table_view).bot_move(state, seat, level, rng)

    def bot_move_leaving(self, state, seat, level, rng, leave, people=frozenset()):
        if _solo(state):  # the solo square has no other seat to leave a fact to
            return self.bot_move(state, seat, level, rng)
        return mia_table_view.bot_move_leaving(
            state, seat, level, rng, lambda move: self.answers_any(state, seat, move, leave)
        )


GAME = Mia()
