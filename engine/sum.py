"""SUM (rulebook seeds/001_9ff072ae66cb9f1b.txt, RULINGS 2; docs/rules/sum.md).

Players take turns making an equation from the cards in their hand that equals the number card in
the centre. A right equation moves its number cards to the player's completed pile; the first
player to empty their hand wins at once, otherwise the largest completed pile wins when the number
deck cannot give a new centre card.

The Game here sets up, plays the moves (declared with ``@plays``) and shows the table. The cards
and the reading of a row of them as an equation are ``engine.sum_cards``; the equation search, the
hints and the bots are ``engine.sum_search``.
"""

from __future__ import annotations

from engine import sum_search
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
from engine.sum_cards import (
    CARD_VIEW,
    DRAWS_PER_TURN,
    FACE,
    HAND_NUMBERS,
    HAND_OPERATIONS,
    KIND,
    NUMBER,
    NUMBER_IDS,
    OPERATION,
    OPERATION_IDS,
    SOURCES,
    WILD,
    NotAnExpression,
    evaluate,
    expression_text,
    operator_label,
    parse,
)
from engine.sum_search import fewest_cards_equation, hand_counts, tokens_to_cards, wrong_equation

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
        _require_held(cards, hand)
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
        hand = data["hands"][seat]
        card = _card_held(move, hand)
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
        card = _card_held(move, data["hands"][seat])
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
                shown = dict(CARD_VIEW[card])
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
        if seat not in self.active(state):
            return None
        return sum_search.hint(state, seat)

    def bot_move(self, state, seat, level, rng):
        if seat not in self.active(state):
            return None
        if level == "random":
            moves = self.legal_moves(state, seat)
            return rng.choice(moves) if moves else None
        if level == "easy":
            return sum_search.easy_move(state, seat, self.legal_moves)
        return sum_search.strong_move(state, seat)

    def bot_alternatives(self, state, seat, level, rng):
        if seat not in self.active(state):
            return []
        return sum_search.alternatives(state, seat, level, self._may_end_turn(state.data))


def _card_held(move, hand) -> int:
    """The move's ``card``: an id of a card in ``hand``."""
    card = move.get("card")
    require(isinstance(card, int) and not isinstance(card, bool), MALFORMED, "'card' must be an id")
    _require_held([card], hand)
    return card


def _require_held(cards, hand) -> None:
    require(all(c in hand for c in cards), CARD_NOT_IN_HAND, "you do not hold that card")


GAME = Sum()
