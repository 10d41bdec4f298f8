"""¡Mía! table modes: what a seat sees, the results, hints and bots (docs/rules/mia.md).

``engine.mia`` shows a table through ``view`` and asks ``hint`` and the bots here for a move; the
rules they play by are ``engine.mia_multi``'s.
"""

from __future__ import annotations

from itertools import combinations

from engine.core import Outcome, State, outcome_from_scores
from engine.mia_cards import (
    NUMBER_KIND,
    NUMBER_VALUE,
    OPERATION_OPTIONS,
    OPERATION_POINTS,
    WILD_VALUES,
    flip,
    number_face,
    operation_face,
    result_of,
)
from engine.mia_multi import active, legal_moves
from engine.mia_rounds import calm

# --- seeing and results --------------------------------------------------------------------------


def view(state: State, seat: int | None) -> dict:
    data = state.data
    pile = data["pile"]
    mirrored = len(data["mirrors"]) % 2 == 1
    window = data["window"]
    top = operation_face(pile[-1], mirrored) if pile else None
    calm_table = calm(state)
    answers = data.get("answers") or [None] * state.players
    hand_counts = [len(h) for h in data["hands"]]
    passed = [s for s, p in enumerate(data["passed"]) if p]
    if calm_table:
        # Until the card closes, a seat sees of the others only that they are done with it: not
        # whether they passed or claimed, nor their cards (held face down count as in hand).
        hand_counts = [
            count + (len(answers[s]["cards"]) if answers[s] is not None and s != seat else 0)
            for s, count in enumerate(hand_counts)
        ]
        passed = [s for s in passed if s == seat]
    return {
        "hand": None if seat is None else [number_face(c) for c in data["hands"][seat]],
        "hand_counts": hand_counts,
        # The set-aside cards were thrown face up on the table: public (docs/rules/mia.md).
        "set_aside": [
            [
                {"cards": [number_face(c) for c in b["cards"]], "back_after_round": b["back"]}
                for b in batches
            ]
            for batches in data["aside"]
        ],
        "top": top,
        "pile_count": len(pile),
        "pile_points": sum(OPERATION_POINTS[c] for c in pile),
        "mirrored": mirrored,
        "mirrors_pending": len(data["mirrors"]),
        "numbers_left": len(data["numbers"]),
        "operations_left": len(data["operations"]),
        "number_discard_count": len(data["number_discard"]),
        "operation_discard_count": len(data["operation_discard"]),
        "scores": list(data["scores"]),
        "won_counts": [
            len(w) + c
            for w, c in zip(data["won"], data.get("credited") or [0] * state.players, strict=True)
        ],
        "target": state.options.get("target"),
        "round": data["round"],
        "revealer": data["revealer"],
        "revealed_at": data["revealed_at"],
        "flip_at": None if data["over"] else data["flip_at"],
        "passed": passed,
        "locked_out": [s for s, w in enumerate(data["locked"]) if w],
        "window": None if window is None else {"seat": window["seat"], "until": window["until"]},
        "over_reason": data["over"],
        # The calm table (docs/rules/mia.md): who is done with the card, the seat's own answer
        # (None, {"passed": true} or the claim and whether it was right), the card closed last.
        "calm": calm_table,
        "answered": [s for s in range(state.players) if answers[s] is not None or data["passed"][s]]
        if calm_table
        else [],
        "answer": _own_answer(state, seat) if calm_table else None,
        "last_closed": data.get("last_closed") if calm_table else None,
    }


def _own_answer(state: State, seat: int | None) -> dict | None:
    if seat is None:
        return None
    data = state.data
    answer = data["answers"][seat]
    if answer is None:
        return {"passed": True} if data["passed"][seat] else None
    return {**answer, "cards": [number_face(c) for c in answer["cards"]]}


def outcome(state: State) -> Outcome | None:
    if state.data["over"] is None:
        return None
    # RULINGS 1: "Most points wins; ties share."
    return outcome_from_scores(state.data["scores"])


# --- help and bots -------------------------------------------------------------------------------


def _wild_pairs(op: str, target: int) -> tuple[int, int] | None:
    """Two Wild values that make ``target`` (the first found), or None."""
    for v in WILD_VALUES:
        w = target - v if op == "+" else v + target
        if w in WILD_VALUES:
            return v, w
    return None


def _right_claims(state: State, seat: int) -> list[tuple[dict, int]]:
    """Every right claim the seat can make now (one wild value per pair and option), each with the
    number of Wild cards it spends."""
    data = state.data
    if seat not in active(state) or not data["pile"]:
        return []
    top = data["pile"][-1]
    mirrored = len(data["mirrors"]) % 2 == 1
    current = data["round"]
    usable = [c for c in data["hands"][seat] if NUMBER_KIND[c] != "extra_time"]
    found: list[tuple[dict, int]] = []
    for first, second in combinations(usable, 2):
        wild_first = NUMBER_KIND[first] == "wild"
        wild_second = NUMBER_KIND[second] == "wild"
        for option, (op, target) in enumerate(OPERATION_OPTIONS[top]):
            if mirrored:
                op = flip(op)
            move = {"type": "claim", "cards": [first, second], "option": option, "round": current}
            if wild_first and wild_second:
                pair = _wild_pairs(op, target)
                if pair is not None:
                    found.append(({**move, "wild": list(pair)}, 2))
                continue
            if wild_first or wild_second:
                known = NUMBER_VALUE[second if wild_first else first]
                for value in WILD_VALUES:
                    if result_of(known, value, op) == target:
                        found.append(({**move, "wild": value}, 1))
                        break
                continue
            if result_of(NUMBER_VALUE[first], NUMBER_VALUE[second], op) == target:
                found.append((move, 0))
    return found


def hint(state: State, seat: int) -> dict | None:
    """A right claim, sparing Wild cards when possible; None when the seat cannot solve now."""
    claims = _right_claims(state, seat)
    if not claims:
        return None
    return min(claims, key=lambda item: item[1])[0]


def _flexibility(cards: list[int]) -> int:
    """How many different results the cards can still make: a hand that reaches more targets
    solves more future cards (the strong bot keeps such hands)."""
    values = [NUMBER_VALUE[c] for c in cards if NUMBER_KIND[c] == "number"]
    wilds = sum(1 for c in cards if NUMBER_KIND[c] == "wild")
    results = set()
    for a, b in combinations(values, 2):
        results.add(("+", a + b))
        results.add(("-", abs(a - b)))
    return len(results) + 20 * wilds  # a Wild in hand solves almost anything


def bot_move(state: State, seat: int, level: str, rng) -> dict | None:
    moves = legal_moves(state, seat)
    if not moves:
        return None
    if level == "random":
        if calm(state):
            # No timer will move a calm table on: a bot that waited would keep the card open for
            # ever, so it answers (right, wrong or pass) once its thinking time is over.
            return rng.choice(moves)
        # Uniform over the legal moves (wrong claims, passes, Extra time) plus one more choice:
        # waiting, as a real child sometimes just looks at the card (lets the timers fire).
        pick = rng.randrange(len(moves) + 1)
        return moves[pick] if pick < len(moves) else None
    data = state.data
    current = data["round"]
    claims = _right_claims(state, seat)
    if level == "easy":
        # Plain play: the first right claim found, otherwise pass.
        return claims[0][0] if claims else {"type": "pass", "round": current}
    if claims:
        hand = data["hands"][seat]

        def value(item: tuple[dict, int]) -> tuple[int, int, int]:
            move, wilds = item
            _op, target = OPERATION_OPTIONS[data["pile"][-1]][move["option"]]
            # Canada 47 scores the target solved; the other modes score the pile, whatever option.
            gained = target if state.variant == "canada47" else 0
            rest = [c for c in hand if c not in move["cards"]]
            return gained, -wilds, _flexibility(rest)

        return max(claims, key=value)[0]
    if data["window"] is None:
        # No solution: an Extra time card trades itself for a fresh card and an exclusive window
        # in which to use it.
        for move in moves:
            if move["type"] == "extra_time":
                return move
    return {"type": "pass", "round": current}


# --- bots in focused practice (docs/rules/mia.md, "Bots in focused practice") ------------------


def _another_seat_answered(state: State, seat: int) -> bool:
    """Whether another seat is done with the top card: passed or claimed wrong (locked out of it,
    RULINGS 1)."""
    data = state.data
    return any(
        data["passed"][other] or data["locked"][other]
        for other in range(state.players)
        if other != seat
    )


def bot_move_leaving(state: State, seat: int, level: str, rng, answers) -> dict | None:
    """The bot's move when facts are left to a child (``answers(move)`` says whether a move would
    answer one; docs/rules/mia.md, "Bots in focused practice"). A claim that answers one waits
    until another seat is done with the card (it passed or claimed wrong); then the bot claims
    it. It claims no other option of the card instead: any claim takes the card from the child.
    So the child has first chance, and the card's timer (RULINGS 1: a new card "after 20 s")
    moves the game on: it never stalls on the bot. In its own Extra time window nobody else may
    claim, so the bot claims. At a calm table a bot's answer takes nothing from the child (every
    right answer scores) and a bot never waits there (no timer would move the table on): it
    answers as it would."""
    move = bot_move(state, seat, level, rng)
    if move is None or move["type"] != "claim" or calm(state) or not answers(move):
        return move
    window = state.data["window"]
    if (window is not None and window["seat"] == seat) or _another_seat_answered(state, seat):
        return move
    return None
