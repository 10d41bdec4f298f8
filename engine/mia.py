"""¡Mía! — "¿Te sumas o te restas?" (rulebook seeds/000, RULINGS 1; docs/rules/mia.md).

One Game of two kinds of variant: the table modes (express, party, canada47) and the solo square
(solo5, solo4, solo3). Both kinds' moves are played here, declared with ``@plays``; ``_apply``
refuses the moves of the other kind of variant. The rest of the table's rules are in
``mia_multi`` (setup, who may act, claim checks, timers), ``mia_rounds`` (a card closing, the
next reveal) and ``mia_table_view`` (views, hints, bots); the solo square's in ``mia_solo``
(setup, geometry, end, view) and ``mia_solver`` (solver, hints, bots). The solo square's
homework puzzles are made by ``mia_puzzles``, which deals them through this Game.
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
from engine.mia_cards import (
    NUMBER_KIND,
    OPERATION_COUNT,
    OPERATION_POINTS,
    claim_attempt,
    number_face,
    operation_cards,
)
from engine.mia_multi import (
    CARD_NOT_IN_HAND,
    NOT_EXTRA_TIME,
    WINDOW_OPEN,
    answered,
    claimed_cards,
    close_window,
    option_claimed,
    passed_on,
    waited_ms,
)
from engine.mia_rounds import (
    CLAIM_DRAW,
    calm,
    calm_answer,
    close_if_everyone_answered,
    draw,
    end_game,
    flip_if_everyone_done,
    next_round,
)
from engine.mia_solo import (
    BLOCKED_CARD,
    DECK_SHORT,
    DRAW_AFTER_SOLVE,
    EMPTY_CELL,
    SWAP_SIZE,
    draw_cards,
    mask_of,
    number_values,
    op_face,
    open_cells,
    two_hand_cards,
)

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
        data = state.data
        hand = data["hands"][seat]
        cards, option, a, b = claimed_cards(move, hand)
        answered(state, seat)

        top = data["pile"][-1]
        mirrored = len(data["mirrors"]) % 2 == 1
        op, target = option_claimed(top, option, mirrored)
        window = data["window"]
        # Attempt time runs from when the claimer could act on the card (issue 22): from the opening
        # of its own Extra time window, or from the reveal less the time another seat's window shut
        # it out (docs/rules/mia.md, "Timing from when the child could act").
        if window and window["seat"] == seat:
            started = window["opened_at"]
        else:
            started = data["revealed_at"] + waited_ms(state, seat)
        extra = {"calm": True} if calm(state) else {}
        attempt = claim_attempt(
            seat=seat, a=a, b=b, op=op, target=target, elapsed_ms=now_ms - started, **extra
        )
        events.append(attempt)
        result = attempt["expected"]
        if calm(state):
            answer = {
                "cards": list(cards),
                "option": option,
                "values": [a, b],
                "op": op,
                "target": target,
                "result": result,
                "correct": attempt["correct"],
            }
            calm_answer(state, rng, seat, answer, now_ms, events)
            return
        claim = {
            "seat": seat,
            "cards": [number_face(c) for c in cards],
            "values": [a, b],
            "option": option,
            "op": op,
            "target": target,
            "result": result,
            "round": data["round"],
        }
        for card in cards:
            hand.remove(card)

        if not attempt["correct"]:
            # RULINGS 1, wrong claim: the two cards are set aside until the end of the next
            # round, the seat is out for this card, the others go on claiming at once.
            data["aside"][seat].append({"cards": sorted(cards), "back": data["round"] + 1})
            data["locked"][seat] = True
            shown = f"{max(a, b)} - {min(a, b)}" if op == "-" else f"{a} + {b}"
            events.append(
                {**claim, "type": "wrong_claim", "reason": f"{shown} = {result}, not {target}"}
            )
            if window is not None and window["seat"] == seat:
                # RULINGS 1: "a wrong claim ends the window".
                close_window(state, now_ms)
                events.append({"type": "extra_time_over", "seat": seat, "reason": "wrong_claim"})
            flip_if_everyone_done(state, rng, now_ms, events)
            return

        # The others' claims for this card may still be on their way: each may yet be heard, as an
        # answer that is not scored (docs/rules/mia.md, decision "A right answer that loses the
        # race"). Only the seats that could claim it when it was won, with the hands they held then.
        racing = self.active(state)
        data["last_won"] = {
            "round": data["round"],
            "card": top,
            "mirrored": mirrored,
            "revealed_at": data["revealed_at"],
            "until": data["flip_at"],
            "waited": {str(other): ms for other, ms in enumerate(data.get("waited") or []) if ms},
            "hands": [
                list(data["hands"][other]) if other != seat and other in racing else None
                for other in range(state.players)
            ],
            "heard": [],
        }
        # RULINGS 1, right claim: take the whole pile, discard the two cards, draw 2, reveal the
        # next.
        taken = data["pile"]
        data["pile"] = []
        data["won"][seat].extend(taken)
        if state.variant == "canada47":
            # RULINGS 1: Canada 47 scores the target of the option solved (x2/x3 ignored).
            gained = target
        else:
            # rulebook, Scoring: each card is worth 1 point, special cards 2 and 3 (whole pile
            # taken).
            gained = sum(OPERATION_POINTS[c] for c in taken)
        data["scores"][seat] += gained
        # RULINGS 1: Mirror is discarded once used.
        data["operation_discard"].extend(data["mirrors"])
        data["mirrors"] = []
        data["window"] = None
        data["number_discard"].extend(cards)
        events.append(
            {
                **claim,
                "type": "claim_won",
                "points": gained,
                "cards_taken": len(taken),
                "score": data["scores"][seat],
            }
        )
        # rulebook: "The player who completes the operation correctly will be in charge of lifting
        # the next operation card."
        data["revealer"] = seat
        if state.variant == "canada47" and data["scores"][seat] >= state.options["target"]:
            # RULINGS 1: "first to 47 (option: target) wins".
            end_game(state, "target_reached", events)
            return
        draw(state, rng, seat, CLAIM_DRAW, events)
        if data["over"] is None:
            next_round(state, rng, now_ms, events)

    @plays("pass", fields=("round",))
    def _pass(self, state, rng, seat, move, now_ms, events):
        data = state.data
        # RULINGS 1: "Nobody can solve: each player may pass".
        data["passed"][seat] = True
        passed_on(state, seat)
        if calm(state):
            # A calm table: nobody learns before the card closes whether a seat passed or claimed,
            # only that it is done with the card (docs/rules/mia.md, "A calm table").
            events.append({"type": "answered", "seat": seat, "round": data["round"]})
            close_if_everyone_answered(state, rng, now_ms, events)
            return
        events.append({"type": "passed", "seat": seat, "round": data["round"]})
        window = data["window"]
        if window is not None and window["seat"] == seat:
            close_window(state, now_ms)
            events.append({"type": "extra_time_over", "seat": seat, "reason": "passed"})
        flip_if_everyone_done(state, rng, now_ms, events)

    @plays("extra_time", fields=("card", "round"))
    def _extra_time(self, state, rng, seat, move, now_ms, events):
        data = state.data
        card = require_int(move, "card")
        hand = data["hands"][seat]
        require(card in hand, CARD_NOT_IN_HAND, f"card {card} is not in your hand")
        require(NUMBER_KIND[card] == "extra_time", NOT_EXTRA_TIME, "that card is not Extra time")
        require(data["window"] is None, WINDOW_OPEN, "your Extra time window is already open")
        # RULINGS 1, Extra time: an exclusive window; the card is discarded and one is drawn at
        # once.
        hand.remove(card)
        data["number_discard"].append(card)
        if calm(state):
            # A calm table has no race to hold off and no clock to stop: the card opens no window,
            # it is traded for a fresh number card (docs/rules/mia.md, "A calm table").
            events.append(
                {"type": "extra_time", "seat": seat, "card": number_face(card), "until": None}
            )
            draw(state, rng, seat, 1, events, end=False)
            return
        until = now_ms + state.options["extra_time_seconds"] * 1000
        data["window"] = {"seat": seat, "opened_at": now_ms, "until": until}
        # The pass timeout never cuts a window short: "During this time no other player can solve
        # it."
        data["flip_at"] = max(data["flip_at"], until)
        events.append(
            {"type": "extra_time", "seat": seat, "card": number_face(card), "until": until}
        )
        draw(state, rng, seat, 1, events)

    # The solo square's moves.
    @plays("solve", fields=("row", "col", "cards", "option"))
    def _solve(self, state, rng, seat, move, now_ms, events):
        data = state.data
        size = data["size"]
        grid = data["grid"]
        row = require_int(move, "row", 0, size - 1)
        col = require_int(move, "col", 0, size - 1)
        option_index = require_int(move, "option", 0, 1)
        first, second = two_hand_cards(move, data["hand"])
        cell = row * size + col
        card_id = grid[cell]
        require(card_id is not None, EMPTY_CELL, "there is no card on that square")
        mask_before = mask_of(grid)
        open_before = open_cells(size, mask_before)
        require(cell in open_before, BLOCKED_CARD, "that card is not open yet")

        values = number_values()
        a, b = values[first], values[second]
        option = operation_cards()[card_id]["options"][option_index]
        op, target = option["op"], option["target"]
        attempt = claim_attempt(
            seat=seat,
            a=a,
            b=b,
            op=op,
            target=target,
            elapsed_ms=now_ms - data["since_ms"],
            row=row,
            col=col,
            card=card_id,
            option=option_index,
        )
        events.append(attempt)
        numbers = [number_face(first), number_face(second)]
        if not attempt["correct"]:
            # Our decision (RULINGS 1 names no penalty for solo): a wrong solve is recorded and
            # counted; the card stays on the square and both number cards stay in hand.
            data["mistakes"] += 1
            events.append(
                {
                    "type": "wrong_solve",
                    "seat": seat,
                    "row": row,
                    "col": col,
                    "card": op_face(card_id),
                    "numbers": numbers,
                    "op": op,
                    "target": target,
                    "result": attempt["expected"],
                    "why": f"{max(a, b) if op == '-' else a} {op} {min(a, b) if op == '-' else b}"
                    f" = {attempt['expected']}, not {target}",
                    "mistakes": data["mistakes"],
                }
            )
            return

        # RULINGS 1 Solo: "Solve: remove the card and the two number cards, draw 2."
        grid[cell] = None
        data["solved"].append(card_id)
        hand = data["hand"]
        hand.remove(first)
        hand.remove(second)
        data["discard"] += [first, second]
        events.append(
            {
                "type": "solved",
                "seat": seat,
                "row": row,
                "col": col,
                "card": op_face(card_id),
                "option": option_index,
                "numbers": numbers,
                "cleared": len(data["solved"]),
                "left": size * size - len(data["solved"]),
            }
        )
        if any(c is not None for c in grid):
            drawn = draw_cards(data, DRAW_AFTER_SOLVE)
            events.append(
                {"type": "drew", "seat": seat, "count": drawn, "deck_count": len(data["deck"])}
            )
            now_open = open_cells(size, mask_before & ~(1 << cell))
            newly = [[c // size, c % size] for c in now_open if c not in open_before]
            if newly:
                events.append({"type": "cards_opened", "cells": newly})

    @plays("swap", fields=("cards",))
    def _swap(self, state, rng, seat, move, now_ms, events):
        data = state.data
        first, second = two_hand_cards(move, data["hand"])
        # RULINGS 1 Solo: "swap 2 cards of your choice for 2 from the deck"; the deck must hold 2.
        require(len(data["deck"]) >= SWAP_SIZE, DECK_SHORT, "the deck has fewer than 2 cards left")
        hand = data["hand"]
        hand.remove(first)
        hand.remove(second)
        # Swapped cards go to the face-up discard, never back into the deck: the deck only shrinks,
        # which is what makes "lost when the number deck cannot refill" reachable.
        data["discard"] += [first, second]
        draw_cards(data, SWAP_SIZE)
        data["swaps"] += 1
        events.append(
            {
                "type": "swapped",
                "seat": seat,
                "numbers": [number_face(first), number_face(second)],
                "swaps": data["swaps"],
                "deck_count": len(data["deck"]),
            }
        )

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
