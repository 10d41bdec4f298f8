"""SUM: searching a hand for equations, and the hints and bots that play by it
(docs/rules/sum.md, "Bots").

The search works on a hand's counts of each face (``engine.sum_cards``); ``engine.sum`` lists a
sample of its right and wrong equations among the legal moves and asks the hints and bots here for
a seat that may act.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import lru_cache

from engine.core import State
from engine.sum_cards import (
    DRAWS_PER_TURN,
    FACE,
    KIND,
    MINUS_SLOT,
    NUMBER,
    OP_SLOT,
    OPERATION,
    OPERATIONS,
    RANK,
    SLOTS,
    WILD,
    evaluate,
)

# --- searching a hand for equations (hints and bots) ---------------------------------------------

# An equation is searched as tokens (1..9 and operation signs) over a hand's count vector, so that
# identical cards are never tried twice; tokens become card ids only at the end. A search grows
# prefixes ``operand (op operand)*`` kept as (sum of finished terms, current term) and, at every
# prefix, solves for the one last operand that would make the equation right, so it looks one
# operand further than it enumerates.
FEWEST_BUDGET = 200  # prefixes a hint may grow: plenty for the short equations hints look for
MOST_BUDGET = 250  # prefixes the strong bot's search for long equations may grow


@lru_cache(maxsize=16384)
def _operands(rem: tuple) -> tuple:
    """Every operand the cards ``rem`` can form: (value, tokens, remaining counts)."""
    found = []
    for value in range(1, 10):
        have = rem[value - 1]
        for size in (1, 2)[: min(have, 2)]:  # RULINGS 2: a pair of equal cards is one number
            left = list(rem)
            left[value - 1] -= size
            tokens = (value,) * size
            found.append((value * size, tokens, tuple(left)))
            if left[MINUS_SLOT]:  # RULINGS 2: a '-' card in front of a number makes it negative
                left[MINUS_SLOT] -= 1
                found.append((-value * size, ("-", *tokens), tuple(left)))
    return tuple(found)


@lru_cache(maxsize=16384)
def _operand_by_value(rem: tuple, most: bool) -> dict:
    """value -> (tokens, remaining counts) of the operand with the fewest (or most) cards."""
    table: dict[int, tuple] = {}
    for value, tokens, left in _operands(rem):
        kept = table.get(value)
        if kept is None or (len(tokens) > len(kept[0]) if most else len(tokens) < len(kept[0])):
            table[value] = (tokens, left)
    return table


@lru_cache(maxsize=16384)
def _after_operator(rem: tuple) -> tuple:
    """(operator, counts without that operator card) for each operator the cards hold."""
    found = []
    for op in OPERATIONS:
        slot = OP_SLOT[op]
        if rem[slot]:
            left = list(rem)
            left[slot] -= 1
            found.append((op, tuple(left)))
    return tuple(found)


def _extend(acc: int, term: int, op: str, value: int) -> tuple[int, int] | None:
    """(sum of finished terms, current term) after ``op value``; None for an inexact division."""
    if op == "x":
        return acc, term * value
    if op == "÷":
        return None if term % value else (acc, term // value)
    return acc + term, value if op == "+" else -value


def _closing_value(acc: int, term: int, op: str, target: int) -> int | None:
    """The operand that, after ``op``, makes the prefix (acc, term) equal ``target``."""
    if op == "+":
        return target - acc - term
    if op == "-":
        return acc + term - target
    rest = target - acc  # what the current term must become
    if op == "x":
        return rest // term if rest and rest % term == 0 else None
    return term // rest if rest and term % rest == 0 else None  # "÷": term ÷ v == rest


def _closings(rem: tuple, acc: int, term: int, target: int, most: bool):
    """Every ``op operand`` (tokens) that finishes the prefix as a right equation."""
    for op, left in _after_operator(rem):
        value = _closing_value(acc, term, op, target)
        if value is not None:
            found = _operand_by_value(left, most).get(value)
            if found is not None:
                yield (op, *found[0])


def _starts(rem: tuple):
    """First operands as prefixes (tokens, remaining counts, acc, term)."""
    return [(tokens, left, 0, value) for value, tokens, left in _operands(rem)]


@lru_cache(maxsize=4096)
def fewest_cards_equation(rem: tuple, target: int) -> tuple | None:
    """A right equation with the fewest cards (tokens), or None. Prefixes grow cheapest first and
    the search stops once no longer prefix can beat the best equation found."""
    best: tuple | None = None
    buckets: dict[int, list] = defaultdict(list)
    for tokens, left, acc, term in _starts(rem):
        buckets[len(tokens)].append((tokens, left, acc, term))
    seen = set()
    for cost in range(1, sum(rem) + 1):
        if best is not None and cost + 2 >= len(best):
            break  # every equation from here on has at least cost + 2 cards
        for tokens, left, acc, term in buckets.pop(cost, ()):
            key = (left, acc, term)
            if key in seen:
                continue
            seen.add(key)
            if len(seen) > FEWEST_BUDGET:
                return best
            for closing in _closings(left, acc, term, target, most=False):
                if best is None or cost + len(closing) < len(best):
                    best = tokens + closing
            for op, after_op in _after_operator(left):
                for value, more, after in _operands(after_op):
                    step = _extend(acc, term, op, value)
                    if step is not None:
                        buckets[cost + 1 + len(more)].append(((*tokens, op, *more), after, *step))
    return best


@lru_cache(maxsize=4096)
def most_cards_equation(rem: tuple, target: int) -> tuple | None:
    """A right equation with as many cards as a bounded search finds, or None. Depth first,
    trying first the continuations that keep the value closest to the target, since those are
    the ones a later operand can still close."""
    total = sum(rem)
    best: tuple | None = None
    stack = sorted(_starts(rem), key=lambda p: -abs(p[3] - target))
    seen = set()
    while stack and len(seen) < MOST_BUDGET:
        tokens, left, acc, term = stack.pop()
        key = (left, acc, term)
        if key in seen:
            continue
        seen.add(key)
        for closing in _closings(left, acc, term, target, most=True):
            if best is None or len(tokens) + len(closing) > len(best):
                best = tokens + closing
        if best is not None and len(best) == total:
            break  # the whole hand: nothing can be longer
        children = []
        for op, after_op in _after_operator(left):
            for value, more, after in _operands(after_op):
                step = _extend(acc, term, op, value)
                if step is not None:
                    children.append(((*tokens, op, *more), after, *step))
        children.sort(key=lambda p: -abs(p[2] + p[3] - target))
        stack += children
    return best or fewest_cards_equation(rem, target)


def hand_counts(hand: list[int]) -> tuple:
    counts = [0] * SLOTS
    for card in hand:
        slot = RANK[card]
        if slot >= 0:
            counts[slot] += 1
    return tuple(counts)


def tokens_to_cards(tokens: tuple, hand: list[int]) -> list[int]:
    """Card ids of ``hand`` spelling ``tokens`` (lowest ids first, so the choice is stable)."""
    by_slot: dict[int, list[int]] = defaultdict(list)
    for card in sorted(hand):
        by_slot[RANK[card]].append(card)
    cursor = dict.fromkeys(by_slot, 0)
    cards = []
    for token in tokens:
        slot = token - 1 if isinstance(token, int) else OP_SLOT[token]
        cards.append(by_slot[slot][cursor[slot]])
        cursor[slot] += 1
    return cards


def wrong_equation(hand: list[int], target: int) -> list[int] | None:
    """A short well-formed equation whose value is not ``target`` (for the legal-move sample):
    the first of ``a op b``, ``a a op b`` (a pair) and ``-a`` that the hand can make wrong."""
    numbers = sorted(c for c in hand if KIND[c] == NUMBER)
    first_of_op: dict[str, int] = {}
    for card in sorted(hand):
        if KIND[card] == OPERATION:
            first_of_op.setdefault(FACE[card], card)
    for op, op_card in first_of_op.items():
        for i, a in enumerate(numbers):
            for j, b in enumerate(numbers):
                if i != j and evaluate([FACE[a], FACE[b]], [op]) != target:
                    return [a, op_card, b]
            for j in range(i + 1, len(numbers)):
                if FACE[numbers[j]] != FACE[a]:
                    continue
                pair = [a, numbers[j]]
                for b in numbers:
                    if b not in pair and evaluate([2 * FACE[a], FACE[b]], [op]) != target:
                        return [*pair, op_card, b]
    if "-" in first_of_op and numbers:
        return [first_of_op["-"], numbers[0]]  # a negative number never equals a centre card
    return None


# --- hints and bots (the Game asks these for a seat that may act) --------------------------------


def hint(state: State, seat: int) -> dict | None:
    """The right equation with the fewest cards, or None (no equation, a Rotation running, or no
    wrong equation left to try)."""
    data = state.data
    if data["rotation"] is not None or data["wrong"] >= state.options["wrong_limit"]:
        return None
    hand = data["hands"][seat]
    tokens = fewest_cards_equation(hand_counts(hand), FACE[data["centre"]])
    if tokens is None:
        return None
    return {"type": "equation", "cards": tokens_to_cards(tokens, hand)}


def alternatives(state: State, seat: int, level: str, may_end_turn: bool) -> list[dict]:
    """Bots in focused practice (docs/rules/sum.md): instead of an equation that answers a fact
    left to the child, the strong bot's other right equation (the most cards), else a draw,
    else the end of the turn after the draws (seeds/001); the centre card stays for the next
    seat."""
    data = state.data
    if data["rotation"] is not None:
        return []
    hand = data["hands"][seat]
    moves = []
    if level == "strong":
        best = most_cards_equation(hand_counts(hand), FACE[data["centre"]])
        if best is not None:
            moves.append({"type": "equation", "cards": tokens_to_cards(best, hand)})
    if data["drawn"] < DRAWS_PER_TURN:
        source = _scarcer_source(data, hand)
        if source is not None:
            moves.append({"type": "draw", "from": source})
    if may_end_turn:
        moves.append({"type": "end_turn"})
    return moves


def easy_move(state: State, seat: int, legal_moves: Callable[[State, int], list[dict]]) -> dict:
    """Plain play: the right equation with the fewest cards as soon as there is one;
    otherwise draw from the deck whose kind the hand has fewer of, then play any usable wild
    (the first of ``legal_moves``), then end the turn."""
    data = state.data
    hand = data["hands"][seat]
    if data["rotation"] is not None:
        return {"type": "rotate", "card": min(hand)}
    right = hint(state, seat)
    if right is not None:
        return right
    if data["drawn"] < DRAWS_PER_TURN:
        source = _scarcer_source(data, hand)
        if source is not None:
            return {"type": "draw", "from": source}
    for move in legal_moves(state, seat):
        if move["type"] == "wild":
            return move
    return {"type": "end_turn"}


def strong_move(state: State, seat: int) -> dict:
    """Good play: shed as many cards as possible. Wilds go first (each one leaves the hand),
    an equation that empties the hand is played at once, otherwise the bot draws its 2 cards
    first (an equation ends the turn, so the draws can only lengthen it) and then plays the
    right equation with the most cards."""
    data = state.data
    hand = data["hands"][seat]
    target = FACE[data["centre"]]
    best = most_cards_equation(hand_counts(hand), target)
    in_best = tokens_to_cards(best, hand) if best else []
    spare = [c for c in hand if c not in in_best]
    if data["rotation"] is not None:
        return {"type": "rotate", "card": min(spare or hand, key=_giveaway_rank)}
    usable = {}
    for card in hand:
        if KIND[card] == WILD and card not in data["fresh"]:
            usable.setdefault(FACE[card], card)
    may_equate = best is not None and data["wrong"] < state.options["wrong_limit"]
    if may_equate and not spare:
        return {"type": "equation", "cards": in_best}  # the whole hand: a win
    if "propagation" in usable:  # every opponent takes a card, one leaves my hand
        return {"type": "wild", "card": usable["propagation"]}
    if "neutralization" in usable:
        others = [c for c in spare if c != usable["neutralization"]]
        if others:  # return a card my best equation does not need: two cards leave my hand
            return {
                "type": "wild",
                "card": usable["neutralization"],
                "target": min(others, key=_return_rank),
            }
    if best is None and "radicalization" in usable:  # no equation: try another centre card
        return {"type": "wild", "card": usable["radicalization"]}
    if "rotation" in usable and len(spare) > 1:  # pass on a card my equation does not need
        return {"type": "wild", "card": usable["rotation"]}
    if data["drawn"] < DRAWS_PER_TURN:
        source = _scarcer_source(data, hand)
        if source is not None:
            return {"type": "draw", "from": source}
    if may_equate:
        return {"type": "equation", "cards": in_best}
    if "radicalization" in usable:  # the equation is out of reach: one card fewer anyway
        return {"type": "wild", "card": usable["radicalization"]}
    return {"type": "end_turn"}


def _scarcer_source(data, hand) -> str | None:
    """The deck to draw from for a balanced hand: an equation of n numbers needs about n - 1
    operation cards, so draw an operation card when they are fewer than the numbers less one."""
    numbers = sum(KIND[c] == NUMBER for c in hand)
    operations = sum(KIND[c] == OPERATION for c in hand)
    order = ("operations", "numbers") if operations < numbers - 1 else ("numbers", "operations")
    for source in order:
        if data[source]:
            return source
    return None


def _giveaway_rank(card: int) -> tuple:
    """Order of the cards a strong bot passes on in Rotation: hard operations first, wilds last
    (a wild helps whoever holds it)."""
    face = FACE[card]
    if KIND[card] == OPERATION:
        return (0, "÷x-+".index(face))
    if KIND[card] == NUMBER:
        return (1, -face)
    return (2, card)


def _return_rank(card: int) -> tuple:
    """Order of the cards a strong bot returns with Neutralization: wilds it cannot play this turn
    first, then hard operations, then big numbers (numbers it keeps may still fill its pile)."""
    return _giveaway_rank(card) if KIND[card] != WILD else (-1, card)
