"""SUM (rulebook seeds/001_9ff072ae66cb9f1b.txt, RULINGS 2; docs/rules/sum.md).

Players take turns making an equation from the cards in their hand that equals the number card in
the centre. A right equation moves its number cards to the player's completed pile; the first
player to empty their hand wins at once, otherwise the largest completed pile wins when the number
deck cannot give a new centre card.

Cards are ids 0..194 (RULINGS 2: 119 number cards, 76 operation cards). The state keeps ids only;
the face of an id is a constant table below, so the state stays small and fast to clone.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from engine.core import (
    MALFORMED,
    Fact,
    Focus,
    Game,
    IllegalMove,
    Option,
    Outcome,
    Variant,
    attempt_event,
    fact_value,
    first_player_option,
    outcome_from_scores,
    plays,
    require,
    swap_in,
    variants,
)

# --- the cards (RULINGS 2) -----------------------------------------------------------------------

# RULINGS 2: "119 number cards (1 and 2 fourteen times, 3-9 thirteen times each)".
NUMBER_COPIES = {1: 14, 2: 14, **dict.fromkeys(range(3, 10), 13)}
# RULINGS 2: "+ - x ÷ seventeen each and two of each wild card".
OPERATIONS = ("+", "-", "x", "÷")
OPERATION_COPIES = 17
WILDS = ("propagation", "neutralization", "radicalization", "rotation")
WILD_COPIES = 2

NUMBER, OPERATION, WILD = "number", "operation", "wild"


def _build_faces() -> tuple[tuple, tuple]:
    faces: list[int | str] = []
    kinds: list[str] = []
    for value, copies in NUMBER_COPIES.items():
        faces += [value] * copies
        kinds += [NUMBER] * copies
    for op in OPERATIONS:
        faces += [op] * OPERATION_COPIES
        kinds += [OPERATION] * OPERATION_COPIES
    for wild in WILDS:
        faces += [wild] * WILD_COPIES
        kinds += [WILD] * WILD_COPIES
    return tuple(faces), tuple(kinds)


FACE, KIND = _build_faces()  # FACE[id]: 1..9, "+", "-", "x", "÷" or a wild's name
CARD_COUNT = len(FACE)
NUMBER_IDS = tuple(i for i in range(CARD_COUNT) if KIND[i] == NUMBER)
OPERATION_IDS = tuple(i for i in range(CARD_COUNT) if KIND[i] != NUMBER)  # wilds included
assert len(NUMBER_IDS) == 119 and len(OPERATION_IDS) == 76  # RULINGS 2

# The equation search works on counts, not ids: RANK[id] is the card's slot in a 13-long count
# vector (values 1..9 then + - x ÷); wilds have no slot because they never enter an equation.
SLOTS = 13
OP_SLOT = {op: 9 + i for i, op in enumerate(OPERATIONS)}
MINUS_SLOT = OP_SLOT["-"]
RANK = tuple(
    FACE[i] - 1 if KIND[i] == NUMBER else OP_SLOT[FACE[i]] if KIND[i] == OPERATION else -1
    for i in range(CARD_COUNT)
)
_CARD_VIEW = tuple(
    {"id": i, "kind": NUMBER, "value": FACE[i]}
    if KIND[i] == NUMBER
    else {"id": i, "kind": OPERATION, "op": FACE[i]}
    if KIND[i] == OPERATION
    else {"id": i, "kind": WILD, "wild": FACE[i]}
    for i in range(CARD_COUNT)
)

HAND_NUMBERS = 4  # rulebook: "Everyone starts with 7 cards, 4 from the Numbers deck
HAND_OPERATIONS = 3  # and 3 from the Operations deck."
DRAWS_PER_TURN = 2  # rulebook: "They can draw up to 2 cards per turn"
SOURCES = {"numbers": "numbers", "operations": "operations"}  # move "from" -> state pile key

# IllegalMove codes of this game (documented in docs/rules/sum.md).
NOT_AN_EXPRESSION = "not_an_expression"
DUPLICATE_CARD = "duplicate_card"
CARD_NOT_IN_HAND = "card_not_in_hand"
WILD_IN_EQUATION = "wild_in_equation"
WRONG_LIMIT_REACHED = "wrong_limit_reached"
DRAW_LIMIT_REACHED = "draw_limit_reached"
EMPTY_DECK = "empty_deck"
MUST_DRAW = "must_draw"
NOT_A_WILD = "not_a_wild"
WILD_DRAWN_THIS_TURN = "wild_drawn_this_turn"
NEEDS_ANOTHER_CARD = "needs_another_card"
BAD_TARGET = "bad_target"
ROTATION_PENDING = "rotation_pending"
NO_ROTATION = "no_rotation"


# --- expressions ---------------------------------------------------------------------------------


class NotAnExpression(ValueError):
    """The cards, in this order, do not read as an expression (a structural error)."""


def parse(faces: list) -> tuple[list[int], list[str], list[str], list[int]]:
    """Read card faces as ``operand (op operand)*``; returns operand values, binary operators,
    the operands' written forms and the faces used as pairs. A pair is written as the one number
    it stands for (seeds/001: "Two number 2 cards can be used as a 4"): brackets would read as a
    card the game does not have.

    RULINGS 2: "a '-' card in front of a number makes it negative, two equal number cards side by
    side may act as one number worth their sum"; "at least one operation card".
    """
    operands: list[int] = []
    written: list[str] = []
    operators: list[str] = []
    pairs: list[int] = []
    i, n = 0, len(faces)
    if n == 0:
        raise NotAnExpression("an equation needs cards")
    while True:
        negative = False
        if faces[i] == "-" and i + 1 < n and isinstance(faces[i + 1], int):
            negative = True  # a '-' in front of a number, not between two operands
            i += 1
        if not isinstance(faces[i], int):
            raise NotAnExpression("two operation cards in a row, or an operation card first")
        value = faces[i]
        text = str(value)
        i += 1
        if i < n and isinstance(faces[i], int):
            if faces[i] != value:
                raise NotAnExpression("two different number cards side by side")
            pairs.append(value)  # a pair acts as one number worth their sum
            value += value
            text = str(value)
            i += 1
            if i < n and isinstance(faces[i], int):
                raise NotAnExpression("three number cards side by side")
        operands.append(-value if negative else value)
        written.append(f"-{text}" if negative else text)
        if i == n:
            break
        operators.append(faces[i])
        i += 1
        if i == n:
            raise NotAnExpression("an equation cannot end with an operation card")
    if not operators and not written[0].startswith("-"):
        raise NotAnExpression("an equation uses at least one operation card")
    return operands, operators, written, pairs


def evaluate(operands: list[int], operators: list[str]) -> int | None:
    """Standard precedence (x ÷ before + -, left to right), no brackets; None when a division is
    not exact (RULINGS 2: "every division exact")."""
    total = 0
    term = operands[0]
    for op, value in zip(operators, operands[1:], strict=True):
        if op == "x":
            term *= value
        elif op == "÷":
            if term % value:  # divisors are never 0: cards are 1-9, pairs 2-18
                return None
            term //= value
        else:
            total += term
            term = value if op == "+" else -value
    return total + term


def expression_text(written: list[str], operators: list[str]) -> str:
    parts = [written[0]]
    for op, text in zip(operators, written[1:], strict=True):
        parts += [op, text]
    return "".join(parts)


def operator_label(operators: list[str]) -> str:
    """The attempt's operator: the one operation used, "mixed" for several; a lone negated number
    counts as "-"."""
    kinds = set(operators)
    if len(kinds) == 1:
        return operators[0]
    return "mixed" if kinds else "-"


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


# --- the game ------------------------------------------------------------------------------------


STANDARD = Variant(
    "standard",
    "SUM",
    2,  # the rulebook names no player count; the publisher sells SUM as "a 2-6 player game"
    6,
    {
        "wrong_limit": Option(
            "wrong_limit",
            3,
            "int",
            "Wrong equations a player may try in one turn.",  # RULINGS 2 (option)
            minimum=1,
            maximum=10,
        ),
        "first_player": first_player_option(),
    },
)


# --- focused deals (docs/rules/sum.md, "Focused deals") -------------------------------------------

FOCUS_SIGN = {"add": "+", "sub": "-", "mul": "x"}


def _shows(variant: str, fact: Fact) -> bool:
    """A fact SUM can open with: two number cards (1-9) and one operation whose value is a number
    card, the centre (RULINGS 2)."""
    _operation, a, b = fact
    return 1 <= a <= 9 and 1 <= b <= 9 and 1 <= fact_value(fact) <= 9


def _steer(numbers: list[int], operations: list[int], players: int, rng, facts) -> None:
    """Orders the shuffled decks so that a focus fact is the natural first equation: the centre
    card is its value, and every hand holds its two numbers and its operation, with the numbers
    and operation of the next fact beside them; every operation card in hand and the next ones
    to draw are the focus facts' operations (no - or ÷ beside times tables). Both decks stay
    the same cards (RULINGS 2)."""
    first = rng.below(len(facts))
    opening = facts[first], facts[(first + 1) % len(facts)]
    # The deal orders: each seat's 4 numbers then the centre card; each seat's 3 operations.
    number_order, operation_order = numbers[::-1], operations[::-1]
    number_keep: set[int] = set()
    operation_keep: set[int] = set()
    swap_in(
        number_order,
        players * HAND_NUMBERS,
        lambda c: FACE[c] == fact_value(opening[0]),
        rng,
        number_keep,
    )
    for seat in range(players):
        for j, (_operation, a, b) in enumerate(opening):
            for offset, value in enumerate((a, b)):
                position = seat * HAND_NUMBERS + 2 * j + offset
                swap_in(number_order, position, lambda c, v=value: FACE[c] == v, rng, number_keep)
        for j in range(HAND_OPERATIONS):
            sign = FOCUS_SIGN[opening[j % 2][0]]
            position = seat * HAND_OPERATIONS + j
            swap_in(operation_order, position, lambda c, o=sign: FACE[c] == o, rng, operation_keep)
    signs = {FOCUS_SIGN[fact[0]] for fact in facts}
    dealt = players * HAND_OPERATIONS
    operation_order[dealt:] = sorted(operation_order[dealt:], key=lambda c: FACE[c] not in signs)
    numbers[:] = number_order[::-1]
    operations[:] = operation_order[::-1]


class Sum(Game):
    slug = "sum"
    score_key = "pile_counts"
    answer_form = "claimed"
    arena_table = ("standard", 2)
    title = "SUM"
    variants = variants(STANDARD)
    focus = Focus(
        operations=frozenset(FOCUS_SIGN),
        variants=("standard",),
        how="The first centre card is a focus fact's value, and every hand holds that fact's two "
        "numbers and operation, with the next fact's beside them.",
        shows=_shows,
    )

    # -- setup

    def _setup_focused(self, state, rng, now_ms, facts):
        self._setup(state, rng, now_ms, facts)

    def _setup(self, state, rng, now_ms, focus=()):
        n = state.players
        numbers = list(NUMBER_IDS)
        operations = list(OPERATION_IDS)
        rng.shuffle(numbers)
        rng.shuffle(operations)
        if focus:
            _steer(numbers, operations, n, rng, focus)
        hands = []
        for _ in range(n):
            # RULINGS 2: "Deal 4 number and 3 operation cards each"; the top of a pile is its end.
            hand = [numbers.pop() for _ in range(HAND_NUMBERS)]
            hand += [operations.pop() for _ in range(HAND_OPERATIONS)]
            hands.append(hand)
        first = 0 if state.options["first_player"] == "seat0" else rng.below(n)
        state.data = {
            "numbers": numbers,  # number draw pile, top last (hidden: never in a view)
            "operations": operations,  # operation draw pile with the wilds, top last (hidden)
            "hands": hands,
            "piles": [[] for _ in range(n)],  # completed equations' number cards
            "centre": numbers.pop(),  # RULINGS 2: "one number card face up in the centre"
            "spent": [],  # earlier centre cards (the rulebook does not say where they go)
            "turn": first,
            "drawn": 0,  # cards drawn this turn
            "wrong": 0,  # wrong equations this turn
            "fresh": [],  # wild cards drawn this turn (not playable until a later turn)
            "since": now_ms,  # when the current decision began (attempts' elapsed_ms)
            "rotation": None,  # while Rotation runs: each seat's secret choice (None: not yet)
            "ran_out": False,  # the number deck has been empty at some point
            "dry_turns": 0,  # turns ended in a row without a right equation since it ran out
            "winners": None,
            "end": None,
        }

    # -- whose move

    def active(self, state):
        data = state.data
        if data["winners"] is not None:
            return frozenset()
        rotation = data["rotation"]
        if rotation is not None:
            # RULINGS 2, Rotation: "every player chooses one card ... all at once".
            return frozenset(
                seat
                for seat, choice in enumerate(rotation)
                if choice is None and data["hands"][seat]
            )
        return frozenset((data["turn"],))

    def legal_moves(self, state, seat):
        if seat not in self.active(state):
            return []
        data = state.data
        hand = data["hands"][seat]
        if data["rotation"] is not None:
            return [{"type": "rotate", "card": card} for card in sorted(hand)]
        moves: list[dict] = []
        if data["drawn"] < DRAWS_PER_TURN:
            moves += [{"type": "draw", "from": name} for name in SOURCES if data[name]]
        if self._may_end_turn(data):
            moves.append({"type": "end_turn"})
        for card in sorted(hand):
            if KIND[card] != WILD or card in data["fresh"]:
                continue
            wild = FACE[card]
            if wild == "neutralization":
                moves += [
                    {"type": "wild", "card": card, "target": other}
                    for other in sorted(hand)
                    if other != card
                ]
            elif wild != "rotation" or len(hand) > 1:
                moves.append({"type": "wild", "card": card})
        if data["wrong"] < state.options["wrong_limit"]:
            # Equations are too many to list: a sample of one right and one wrong equation.
            target = FACE[data["centre"]]
            right = fewest_cards_equation(hand_counts(hand), target)
            if right is not None:
                moves.append({"type": "equation", "cards": tokens_to_cards(right, hand)})
            wrong = wrong_equation(hand, target)
            if wrong is not None:
                moves.append({"type": "equation", "cards": wrong})
        return moves

    @staticmethod
    def _may_end_turn(data) -> bool:
        # RULINGS 2: "After drawing 2 without a right equation the player ends the turn"; rulebook:
        # "they must still pick up 2 cards, if they have not yet done so, before their turn ends".
        return data["drawn"] >= DRAWS_PER_TURN or not (data["numbers"] or data["operations"])

    # -- moves

    def _apply(self, state, rng, seat, move, now_ms, events):
        data = state.data
        if move["type"] != "rotate":
            require(data["rotation"] is None, ROTATION_PENDING, "every player must first choose")
        super()._apply(state, rng, seat, move, now_ms, events)
        if data["winners"] is None and not data["hands"][seat]:
            # RULINGS 2: "the first player to empty their hand wins at once".
            self._finish(state, "hand_empty", [seat], events)
        if not data["numbers"]:
            data["ran_out"] = True

    @plays("draw", fields=("from",))
    def _draw(self, state, rng, seat, move, now_ms, events):
        data = state.data
        source = move.get("from")
        require(source in SOURCES, MALFORMED, "'from' must be 'numbers' or 'operations'")
        # RULINGS 2: "draw up to 2 cards, one at a time, from either deck".
        require(data["drawn"] < DRAWS_PER_TURN, DRAW_LIMIT_REACHED, "you have drawn 2 cards")
        pile = data[SOURCES[source]]
        require(bool(pile), EMPTY_DECK, f"the {source} deck is empty")
        card = pile.pop()
        data["hands"][seat].append(card)
        data["drawn"] += 1
        if KIND[card] == WILD:
            data["fresh"].append(card)  # rulebook: "can not be used on the turn it is drawn"
        data["since"] = now_ms
        events.append(
            {
                "type": "draw",
                "seat": seat,
                "from": source,
                "hand_count": len(data["hands"][seat]),
                "draws_left": DRAWS_PER_TURN - data["drawn"],
            }
        )

    @plays("equation", fields=("cards",))
    def _equation(self, state, rng, seat, move, now_ms, events):
        data = state.data
        cards = move.get("cards")
        require(
            isinstance(cards, list)
            and all(isinstance(c, int) and not isinstance(c, bool) for c in cards),
            MALFORMED,
            "'cards' must be a list of card ids",
        )
        limit = state.options["wrong_limit"]
        # RULINGS 2: "at most 3 wrong equations a turn (option)".
        require(data["wrong"] < limit, WRONG_LIMIT_REACHED, f"{limit} wrong equations this turn")
        require(len(set(cards)) == len(cards), DUPLICATE_CARD, "a card appears twice")
        hand = data["hands"][seat]
        require(all(c in hand for c in cards), CARD_NOT_IN_HAND, "you do not hold that card")
        # Rulebook: wild cards "can not be used as part of an equation".
        require(all(KIND[c] != WILD for c in cards), WILD_IN_EQUATION, "wilds are not in equations")
        try:
            operands, operators, written, pairs = parse([FACE[c] for c in cards])
        except NotAnExpression as error:
            raise IllegalMove(NOT_AN_EXPRESSION, str(error)) from None
        target = FACE[data["centre"]]
        value = evaluate(operands, operators)
        expression = expression_text(written, operators)
        paired = {"pairs": pairs} if pairs else {}  # named only when a pair was used
        correct = value == target  # rulebook: the equation must "equal the number in the center"
        events.append(
            attempt_event(
                seat=seat,
                operands=operands,
                operator=operator_label(operators),
                answer=target,
                target=target,
                expected=value,
                correct=correct,
                elapsed_ms=now_ms - data["since"],
                expression=expression,
                **paired,
            )
        )
        if not correct:
            # RULINGS 2: "Wrong: recorded, the cards stay in hand, the player may try again".
            data["wrong"] += 1
            data["since"] = now_ms
            events.append(
                {
                    "type": "equation_wrong",
                    "seat": seat,
                    "expression": expression,
                    **paired,
                    "value": value,
                    "target": target,
                    "reason": "division_not_exact" if value is None else "wrong_value",
                    "wrong_left": limit - data["wrong"],
                }
            )
            return
        # RULINGS 2: "Right: the number cards go to the player's completed pile, the operation
        # cards are shuffled back into their deck".
        used = set(cards)
        data["hands"][seat] = [c for c in hand if c not in used]
        pile = data["piles"][seat]
        pile += [c for c in cards if KIND[c] == NUMBER]
        data["operations"] += [c for c in cards if KIND[c] == OPERATION]
        rng.shuffle(data["operations"])
        data["dry_turns"] = 0
        events.append(
            {
                "type": "equation_right",
                "seat": seat,
                "expression": expression,
                **paired,
                "value": value,
                "numbers_kept": sum(KIND[c] == NUMBER for c in cards),
                "pile_count": len(pile),
                "hand_count": len(data["hands"][seat]),
            }
        )
        if not data["hands"][seat]:
            return  # _apply declares the win: "the first player to empty their hand wins at once"
        # RULINGS 2: "a new centre card is revealed, the turn ends"; "when a new centre card is
        # needed and the number deck is empty, the largest completed pile wins".
        data["spent"].append(data["centre"])
        if not data["numbers"]:
            data["centre"] = None
            self._finish_by_piles(state, "number_deck_empty", events)
            return
        self._reveal_centre(data, events)
        self._pass_turn(state, seat, now_ms, "right_equation", events)

    @plays("wild", fields=("card", "target"))
    def _wild(self, state, rng, seat, move, now_ms, events):
        data = state.data
        card = move.get("card")
        hand = data["hands"][seat]
        require(
            isinstance(card, int) and not isinstance(card, bool), MALFORMED, "'card' must be an id"
        )
        require(card in hand, CARD_NOT_IN_HAND, "you do not hold that card")
        require(KIND[card] == WILD, NOT_A_WILD, "that card is not a wild card")
        # Rulebook: "A Wild Card can not be used on the turn it is drawn."
        require(card not in data["fresh"], WILD_DRAWN_THIS_TURN, "drawn this turn: play it later")
        wild = FACE[card]
        target = None
        if wild in ("neutralization", "rotation"):
            # Rulebook: "at least one additional card in their hand to play ... Neutralization
            # and Rotation".
            require(len(hand) > 1, NEEDS_ANOTHER_CARD, f"{wild} needs another card in your hand")
        if wild == "neutralization":
            target = move.get("target")
            require(
                isinstance(target, int) and not isinstance(target, bool),
                MALFORMED,
                "'target' must be a card id",
            )
            require(target != card and target in hand, BAD_TARGET, "target another card you hold")
        # Rulebook: wild cards "must be shuffled back into the deck once used".
        hand.remove(card)
        data["operations"].append(card)
        rng.shuffle(data["operations"])
        data["since"] = now_ms
        events.append({"type": "wild_played", "seat": seat, "wild": wild})
        if wild == "propagation":
            # RULINGS 2: "every other player draws 1 number card" (from the left, while any last).
            drew = []
            for step in range(1, state.players):
                other = (seat + step) % state.players
                if data["numbers"]:
                    data["hands"][other].append(data["numbers"].pop())
                    drew.append(other)
            events.append({"type": "propagation", "seats": drew})
        elif wild == "neutralization":
            # RULINGS 2: "return one other card of your hand to its deck" (shuffled in, face down).
            hand.remove(target)
            home = "numbers" if KIND[target] == NUMBER else "operations"
            data[home].append(target)
            rng.shuffle(data[home])
            events.append({"type": "neutralization", "seat": seat, "to": home})
        elif wild == "radicalization":
            # RULINGS 2: "the centre card goes to the bottom of the number deck and a new one is
            # revealed".
            old = data["centre"]
            data["numbers"].insert(0, old)
            events.append({"type": "radicalization", "seat": seat, "old_centre": FACE[old]})
            self._reveal_centre(data, events)
        else:
            # RULINGS 2, Rotation: "every player chooses one card and passes it to the player on
            # their left, all at once" -- secret choices, revealed to nobody but the receiver.
            data["rotation"] = [None] * state.players
            events.append({"type": "rotation_started", "seat": seat})

    @plays("rotate", fields=("card",))
    def _rotate(self, state, rng, seat, move, now_ms, events):
        data = state.data
        rotation = data["rotation"]
        require(rotation is not None, NO_ROTATION, "no Rotation card is being played")
        card = move.get("card")
        require(
            isinstance(card, int) and not isinstance(card, bool), MALFORMED, "'card' must be an id"
        )
        require(card in data["hands"][seat], CARD_NOT_IN_HAND, "you do not hold that card")
        rotation[seat] = card
        events.append({"type": "rotation_chosen", "seat": seat})
        if self.active(state):
            return
        n = state.players
        hands = data["hands"]
        for giver, choice in enumerate(rotation):
            if choice is not None:
                hands[giver].remove(choice)
        for giver, choice in enumerate(rotation):
            if choice is not None:
                hands[(giver + 1) % n].append(choice)  # RULINGS common: left = next seat
        data["rotation"] = None
        data["since"] = now_ms
        events.append({"type": "rotation_done", "hand_counts": [len(h) for h in hands]})

    @plays("end_turn")
    def _end_turn(self, state, rng, seat, move, now_ms, events):
        data = state.data
        require(self._may_end_turn(data), MUST_DRAW, "draw 2 cards before ending your turn")
        if data["ran_out"]:
            # Decision (docs/rules/sum.md, "Stalemate"): once the number deck has run out, a full
            # round of turns without a right equation ends the game and the piles are counted
            # (rulebook: piles "are counted after all the cards in the Numbers deck have been
            # taken").
            data["dry_turns"] += 1
            if data["dry_turns"] >= state.players:
                self._finish_by_piles(state, "stalemate", events)
                return
        self._pass_turn(state, seat, now_ms, "ended", events)

    # -- helpers

    @staticmethod
    def _reveal_centre(data, events):
        data["centre"] = data["numbers"].pop()
        events.append({"type": "centre_revealed", "value": FACE[data["centre"]]})

    @staticmethod
    def _pass_turn(state, seat, now_ms, reason, events):
        data = state.data
        data["turn"] = (seat + 1) % state.players  # RULINGS 2: "play passes left"
        data["drawn"] = 0
        data["wrong"] = 0
        data["fresh"] = []
        data["since"] = now_ms
        events.append({"type": "turn_end", "seat": seat, "reason": reason})
        events.append({"type": "turn_start", "seat": data["turn"]})

    def _finish_by_piles(self, state, reason, events):
        # RULINGS 2: "the largest completed pile wins; ties share".
        scores = [len(p) for p in state.data["piles"]]
        self._finish(state, reason, outcome_from_scores(scores).winners, events)

    @staticmethod
    def _finish(state, reason, winners, events):
        data = state.data
        data["winners"] = winners
        data["end"] = reason
        data["rotation"] = None
        events.append(
            {
                "type": "game_end",
                "reason": reason,
                "winners": winners,
                "scores": [len(p) for p in data["piles"]],
            }
        )

    def _tick(self, state, rng, now_ms, events):
        pass  # SUM has no timers: deadline() is always None, so the base never calls this

    # -- seeing

    def _view(self, state, seat):
        data = state.data
        rotation = data["rotation"]
        centre = data["centre"]
        view = {
            "turn": data["turn"],
            "centre": None if centre is None else FACE[centre],
            "centre_card": centre,
            "hand_counts": [len(h) for h in data["hands"]],
            "pile_counts": [len(p) for p in data["piles"]],
            "number_deck_count": len(data["numbers"]),
            "operation_deck_count": len(data["operations"]),
            "spent_centre_count": len(data["spent"]),
            "drawn": data["drawn"],
            "draws_left": DRAWS_PER_TURN - data["drawn"],
            "wrong_equations": data["wrong"],
            "wrong_left": state.options["wrong_limit"] - data["wrong"],
            "can_end_turn": self._may_end_turn(data),
            "numbers_ran_out": data["ran_out"],
            "dry_turns": data["dry_turns"],
            "rotation": None
            if rotation is None
            else {"chosen": [choice is not None for choice in rotation]},
            "end": data["end"],
        }
        if seat is not None:
            hand = data["hands"][seat]
            fresh = data["fresh"] if seat == data["turn"] else ()
            cards = []
            for card in sorted(hand):
                shown = dict(_CARD_VIEW[card])
                if KIND[card] == WILD:
                    shown["drawn_this_turn"] = card in fresh
                cards.append(shown)
            view["hand"] = cards
            if rotation is not None:
                view["rotation"]["my_choice"] = rotation[seat]
        return view

    def outcome(self, state):
        winners = state.data["winners"]
        if winners is None:
            return None
        return Outcome([len(p) for p in state.data["piles"]], list(winners))

    # -- help and bots

    def hint(self, state, seat):
        data = state.data
        if (
            seat not in self.active(state)
            or data["rotation"] is not None
            or data["wrong"] >= state.options["wrong_limit"]
        ):
            return None
        hand = data["hands"][seat]
        tokens = fewest_cards_equation(hand_counts(hand), FACE[data["centre"]])
        if tokens is None:
            return None
        return {"type": "equation", "cards": tokens_to_cards(tokens, hand)}

    def bot_move(self, state, seat, level, rng):
        if seat not in self.active(state):
            return None
        if level == "random":
            moves = self.legal_moves(state, seat)
            return rng.choice(moves) if moves else None
        if level == "easy":
            return self._easy_move(state, seat)
        return self._strong_move(state, seat)

    def bot_alternatives(self, state, seat, level, rng):
        """Bots in focused practice (docs/rules/sum.md): instead of an equation that answers a fact
        left to the child, the strong bot's other right equation (the most cards), else a draw,
        else the end of the turn after the draws (seeds/001); the centre card stays for the next
        seat."""
        data = state.data
        if seat not in self.active(state) or data["rotation"] is not None:
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
        if self._may_end_turn(data):
            moves.append({"type": "end_turn"})
        return moves

    def _easy_move(self, state, seat):
        """Plain play: the right equation with the fewest cards as soon as there is one;
        otherwise draw from the deck whose kind the hand has fewer of, then play any usable wild,
        then end the turn."""
        data = state.data
        hand = data["hands"][seat]
        if data["rotation"] is not None:
            return {"type": "rotate", "card": min(hand)}
        right = self.hint(state, seat)
        if right is not None:
            return right
        if data["drawn"] < DRAWS_PER_TURN:
            source = _scarcer_source(data, hand)
            if source is not None:
                return {"type": "draw", "from": source}
        for move in self.legal_moves(state, seat):
            if move["type"] == "wild":
                return move
        return {"type": "end_turn"}

    def _strong_move(self, state, seat):
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


GAME = Sum()
