"""ADD UP (rulebook seeds/002_0e04e66544676c85.txt, RULINGS 3; docs/rules/add_up.md).

Two rows of face-up cards lie on the table. On your turn you play one card onto the top or the
bottom row; when the two row sums are then equal you capture every card on the table. Jokers take
the value their player declares. The arithmetic a child practises is the difference between the
two row sums: which card makes the smaller row as big as the other?

State data (plain JSON):
    deck             card ids, the top of the deck is the END of the list (drawn with pop())
    hands            per seat, the ids it holds, kept sorted
    top, bottom      the rows: [card id, value] pairs in the order played (jokers keep the value
                     their player declared)
    captured         per seat, the ids it has won
    turn             the seat to play, None once the game is over
    turn_started_ms  when the seat to play began its decision (for attempt timing)

Card ids: 0-35 are the number cards 1-9 four times each (value id // 4 + 1), 36-41 the white
jokers (0 to 5), 42-47 the yellow jokers (10 to 99). The ``no_jokers`` variant uses ids 0-35.
"""

from __future__ import annotations

import bisect

from engine.core import (
    MALFORMED,
    Fact,
    Focus,
    Game,
    Option,
    Outcome,
    Variant,
    attempt_event,
    first_player_option,
    outcome_from_scores,
    plays,
    require,
    swap_in,
    variants,
)

HAND_SIZE = 3
ROWS = ("top", "bottom")

NUMBER = "number"
WHITE_JOKER = "white_joker"
YELLOW_JOKER = "yellow_joker"

NUMBER_CARD_COUNT = 36
FULL_DECK_SIZE = 48
# RULINGS 3: "6 white jokers (0-5), 6 yellow jokers (10 or more, at most 99)".
WHITE_RANGE = (0, 5)
YELLOW_RANGE = (10, 99)

# IllegalMove codes of this game (the shared ones live in engine.core).
CARD_NOT_IN_HAND = "card_not_in_hand"
BAD_ROW = "bad_row"
MISSING_JOKER_VALUE = "missing_joker_value"
JOKER_VALUE_OUT_OF_RANGE = "joker_value_out_of_range"
NOT_A_JOKER = "not_a_joker"


def _kind_of(card: int) -> str:
    if card < NUMBER_CARD_COUNT:
        return NUMBER
    return WHITE_JOKER if card < NUMBER_CARD_COUNT + 6 else YELLOW_JOKER


# Per-id constants, computed once at import: apply and view only index these tuples.
CARD_KIND: tuple[str, ...] = tuple(_kind_of(c) for c in range(FULL_DECK_SIZE))
VALUE_RANGE: tuple[tuple[int, int], ...] = tuple(
    (c // 4 + 1, c // 4 + 1)
    if CARD_KIND[c] == NUMBER
    else (WHITE_RANGE if CARD_KIND[c] == WHITE_JOKER else YELLOW_RANGE)
    for c in range(FULL_DECK_SIZE)
)
IS_JOKER: tuple[bool, ...] = tuple(kind != NUMBER for kind in CARD_KIND)

DECK_SIZE = {"standard": FULL_DECK_SIZE, "no_jokers": NUMBER_CARD_COUNT}


def card_kind(card: int) -> str:
    return CARD_KIND[card]


def value_range(card: int) -> tuple[int, int]:
    """The values a card may take: (face, face) for a number card, the joker's range otherwise."""
    return VALUE_RANGE[card]


def can_balance(card: int, difference: int) -> bool:
    """Whether ``card`` played on the smaller row (either row when equal) makes the sums equal."""
    low, high = VALUE_RANGE[card]
    return low <= difference <= high


# --- variants and options ------------------------------------------------------------------------

_OPTIONS = {
    # RULINGS 3: "After a capture the same player plays again (option: play passes on)".
    "capture_plays_again": Option(
        "capture_plays_again",
        True,
        "bool",
        "After a capture the same player plays again (off: play passes on).",
    ),
    "first_player": first_player_option(),
}

# Rulebook: "Players: 2-6"; RULINGS 3: the "36 cards" option is the deck without jokers.
VARIANTS = variants(
    Variant("standard", "Add Up (48 cards with jokers)", 2, 6, _OPTIONS),
    Variant("no_jokers", "Add Up (36 number cards)", 2, 6, _OPTIONS),
)


# --- small helpers on the state ------------------------------------------------------------------


def _row_sum(row: list[list[int]]) -> int:
    return sum(value for _, value in row)


def _sums(data) -> tuple[int, int]:
    return _row_sum(data["top"]), _row_sum(data["bottom"])


def _smaller_row(top_sum: int, bottom_sum: int) -> str:
    """The row a balancing card goes on; the top row when the sums are already equal."""
    return "bottom" if bottom_sum < top_sum else "top"


def _table_card(card: int, value: int) -> dict:
    return {"id": card, "kind": CARD_KIND[card], "value": value}


def _hand_card(card: int) -> dict:
    low, high = VALUE_RANGE[card]
    return {
        "id": card,
        "kind": CARD_KIND[card],
        "value": low if low == high else None,
        "min": low,
        "max": high,
    }


def _draw_opening_card(deck: list[int], events: list) -> int | None:
    """The next opening card from the deck, or None when the deck holds none that may open.

    RULINGS 3: "a joker drawn as an opening card goes to the bottom of the deck and another is
    drawn". Decision (docs/rules/add_up.md): when only jokers are left no opening card is laid,
    so the jokers stay in the deck for the players to draw and this cannot loop forever."""
    if all(IS_JOKER[c] for c in deck):
        return None
    while True:
        card = deck.pop()
        if not IS_JOKER[card]:
            return card
        deck.insert(0, card)
        # The joker was turned face up, so naming its kind reveals nothing hidden.
        events.append({"type": "opening_joker_to_bottom", "kind": CARD_KIND[card]})


def _lay_opening_cards(data, events: list) -> None:
    """Rulebook: "two new 'opening' cards are placed one above the other from the deck".
    RULINGS 3: when the deck is empty, no more opening cards. Decision: with a single usable card
    left, it opens the top row alone."""
    deck = data["deck"]
    for row in ROWS:
        card = _draw_opening_card(deck, events)
        if card is None:
            return
        value = VALUE_RANGE[card][0]
        data[row].append([card, value])
        events.append({"type": "opening_card", "row": row, "card": _table_card(card, value)})


def _draw_up(data, seat: int) -> int:
    """RULINGS 3: "Draw back to 3 at once" (nothing to draw once the deck is empty)."""
    hand = data["hands"][seat]
    deck = data["deck"]
    drawn = 0
    while len(hand) < HAND_SIZE and deck:
        bisect.insort(hand, deck.pop())
        drawn += 1
    return drawn


def _next_seat_with_cards(data, after: int) -> int | None:
    """Play order is increasing seat number (RULINGS, common); seats with empty hands are skipped
    once the deck is empty (RULINGS 3: "hands are played out")."""
    hands = data["hands"]
    players = len(hands)
    for step in range(1, players + 1):
        seat = (after + step) % players
        if hands[seat]:
            return seat
    return None


def _unseen_cards(state, seat: int) -> list[int]:
    """Cards ``seat`` cannot see: the variant's deck less its own hand, the table and the captured
    piles (every captured card was face up on the table). This equals the deck plus the other
    hands, but is computed from what the seat knows so that a bot never peeks."""
    data = state.data
    known = set(data["hands"][seat])
    known.update(card for card, _ in data["top"])
    known.update(card for card, _ in data["bottom"])
    for pile in data["captured"]:
        known.update(pile)
    return [c for c in range(DECK_SIZE[state.variant]) if c not in known]


# --- the game ------------------------------------------------------------------------------------


# --- focused deals (docs/rules/add_up.md, "Focused deals") ----------------------------------------


def _shows(variant: str, fact: Fact) -> bool:
    """A difference ADD UP can open with: two number cards (1-9) as the opening rows, the larger
    on top, and a number card that balances them. The attempt is the rows' difference."""
    _operation, a, b = fact
    return 1 <= b < a <= 9


# Captures a focused deal lines up: their opening rows, and the cards drawn back between them.
FOCUS_CAPTURES = 6


def _steer(deck: list[int], players: int, rng, facts) -> None:
    """Orders the shuffled deck so that focus facts are the natural balancing moves: the opening
    rows are a focus fact's two numbers and every hand holds the card of their difference and of
    the next fact's; then, as a table that balances at once draws them (RULINGS 3: two new opening
    cards after a capture, then the draw back to 3), each capture's new rows are the next fact's
    and the card drawn back the difference of the one after. The deck stays the same cards."""
    order = deck[::-1]  # the deal order: the hands one card at a time, then the openings
    keep: set[int] = set()

    def put(position: int, value: int) -> None:
        swap_in(order, position, lambda c: VALUE_RANGE[c] == (value, value), rng, keep)

    first = rng.below(len(facts))
    chain = [facts[(first + j) % len(facts)] for j in range(FOCUS_CAPTURES)]
    differences = [a - b for _operation, a, b in chain]
    for seat in range(players):
        put(seat, differences[0])  # a seat's first card, then its second
        put(players + seat, differences[1])
    position = players * HAND_SIZE
    for index, (_operation, a, b) in enumerate(chain):
        put(position, a)
        put(position + 1, b)
        position += 2
        if 0 < index < len(chain) - 1:
            put(position, differences[index + 1])
            position += 1
    deck[:] = order[::-1]


class AddUp(Game):
    slug = "add_up"
    score_key = "captured_counts"
    answer_form = "balanced"
    times_recall = False
    bench_tables = (("standard", 3), ("no_jokers", 2))
    arena_table = ("standard", 2)
    title = "Add Up"
    variants = VARIANTS
    focus = Focus(
        operations=frozenset(("sub",)),
        variants=tuple(VARIANTS),
        how="The opening rows are a focus difference's two numbers and the hands hold the cards "
        "that balance them; each capture's new rows are the next fact's.",
        shows=_shows,
    )

    # -- setup
    def _setup_focused(self, state, rng, now_ms, facts):
        self._setup(state, rng, now_ms, facts)

    def _setup(self, state, rng, now_ms, focus=()):
        deck = list(range(DECK_SIZE[state.variant]))
        rng.shuffle(deck)
        players = state.players
        if focus:
            _steer(deck, players, rng, focus)
        hands: list[list[int]] = [[] for _ in range(players)]
        # Rulebook: "Shuffle the cards and deal 3 to each player", one card at a time.
        for _ in range(HAND_SIZE):
            for hand in hands:
                hand.append(deck.pop())
        for hand in hands:
            hand.sort()
        data = {
            "deck": deck,
            "hands": hands,
            "top": [],
            "bottom": [],
            "captured": [[] for _ in range(players)],
            # RULINGS, common: "the youngest player starts" becomes a seat drawn from the seed.
            "turn": rng.below(players) if state.options["first_player"] == "random" else 0,
            "turn_started_ms": now_ms,
        }
        # Rulebook: "Then place two 'opening' cards face up on the table".
        _lay_opening_cards(data, [])
        state.data = data

    # -- play
    def active(self, state):
        turn = state.data["turn"]
        return frozenset() if turn is None else frozenset((turn,))

    def legal_moves(self, state, seat):
        data = state.data
        if data["turn"] != seat:
            return []
        moves = []
        for card in data["hands"][seat]:
            low, high = VALUE_RANGE[card]
            for row in ROWS:
                if not IS_JOKER[card]:
                    moves.append({"type": "play", "card": card, "row": row})
                    continue
                for value in range(low, high + 1):
                    moves.append({"type": "play", "card": card, "row": row, "value": value})
        return moves

    def _parse_play(self, data, seat, move) -> tuple[int, str, int]:
        card = move.get("card")
        row = move.get("row")
        require(
            isinstance(card, int) and not isinstance(card, bool), MALFORMED, "'card' must be an id"
        )
        require(row in ROWS, BAD_ROW, "'row' must be 'top' or 'bottom'")
        # Rulebook: "Each player ... plays a card": only one the seat holds.
        require(card in data["hands"][seat], CARD_NOT_IN_HAND, "you do not hold that card")
        value = move.get("value")
        low, high = VALUE_RANGE[card]
        if value is not None:
            require(
                isinstance(value, int) and not isinstance(value, bool),
                MALFORMED,
                "'value' must be a whole number",
            )
        if not IS_JOKER[card]:
            require(value is None or value == low, NOT_A_JOKER, "a number card keeps its value")
            return card, row, low
        # Rulebook: "The player who has the joker card decides its value when playing it."
        require(value is not None, MISSING_JOKER_VALUE, "declare the joker's value")
        require(
            low <= value <= high,
            JOKER_VALUE_OUT_OF_RANGE,
            f"this joker counts as a number from {low} to {high}",
        )
        return card, row, value

    @plays("play", fields=("card", "row", "value"))
    def _play(self, state, rng, seat, move, now_ms, events):
        data = state.data
        card, row, value = self._parse_play(data, seat, move)
        hand = data["hands"][seat]
        top_sum, bottom_sum = _sums(data)
        difference = abs(top_sum - bottom_sum)

        # RULINGS 3: "each play where the hand held a balancing card is an attempt: right if the
        # player balanced". The task is the difference of the rows (bigger - smaller); the answer
        # is the value added to the smaller row, negative when the card went on the bigger row,
        # so that correct == (answer == expected) always holds.
        attempt = None
        if any(can_balance(c, difference) for c in hand):
            on_smaller_row = top_sum == bottom_sum or row == _smaller_row(top_sum, bottom_sum)
            attempt = attempt_event(
                seat=seat,
                operands=[max(top_sum, bottom_sum), min(top_sum, bottom_sum)],
                operator="-",
                answer=value if on_smaller_row else -value,
                expected=difference,
                correct=False,  # settled below, once the card is on the table
                elapsed_ms=now_ms - data["turn_started_ms"],
                row=row,
            )
            events.append(attempt)

        # Rulebook: "plays a card either on the top or the bottom row".
        hand.remove(card)
        data[row].append([card, value])
        if row == "top":
            top_sum += value
        else:
            bottom_sum += value
        # Rulebook: "If the sum of the cards on the top row is the same as that on the bottom, the
        # player who put the final card down, wins all the cards on the table".
        balanced = top_sum == bottom_sum
        if attempt is not None:
            attempt["correct"] = balanced
        events.append(
            {
                "type": "card_played",
                "seat": seat,
                "card": _table_card(card, value),
                "row": row,
                "top_sum": top_sum,
                "bottom_sum": bottom_sum,
                "balanced": balanced,
            }
        )
        deck_had_cards = bool(data["deck"])
        if balanced:
            won = [c for c, _ in data["top"]] + [c for c, _ in data["bottom"]]
            data["captured"][seat].extend(won)
            data["top"] = []
            data["bottom"] = []
            events.append(
                {
                    "type": "capture",
                    "seat": seat,
                    "cards": len(won),
                    "captured": len(data["captured"][seat]),
                }
            )
            # RULINGS 3: "the player captures all table cards and two new opening cards are laid".
            _lay_opening_cards(data, events)
        # RULINGS 3: "Draw back to 3 at once". The event says how many, never which cards.
        drawn = _draw_up(data, seat)
        if drawn:
            events.append(
                {"type": "drew", "seat": seat, "count": drawn, "deck_count": len(data["deck"])}
            )
        if deck_had_cards and not data["deck"]:
            events.append({"type": "deck_empty"})

        # RULINGS 3: "After a capture the same player plays again (option: play passes on)".
        if balanced and state.options["capture_plays_again"] and hand:
            next_seat = seat
        else:
            next_seat = _next_seat_with_cards(data, seat)
        data["turn"] = next_seat
        data["turn_started_ms"] = now_ms
        if next_seat is None:
            # RULINGS 3: "the game ends when all hands are empty. Table cards left score for
            # nobody. Most captured cards wins; ties share."
            outcome = self.outcome(state)
            events.append(
                {
                    "type": "game_over",
                    "scores": outcome.scores,
                    "winners": outcome.winners,
                    "table_left": len(data["top"]) + len(data["bottom"]),
                }
            )
        else:
            events.append({"type": "turn", "seat": next_seat, "again": next_seat == seat})

    # -- seeing
    def _view(self, state, seat):
        data = state.data
        top_sum, bottom_sum = _sums(data)
        return {
            "turn": data["turn"],
            "turn_started_ms": data["turn_started_ms"],
            "top": [_table_card(card, value) for card, value in data["top"]],
            "bottom": [_table_card(card, value) for card, value in data["bottom"]],
            # The sums are public (every value on the table is face up); a UI that wants the child
            # to add them up may leave them out.
            "top_sum": top_sum,
            "bottom_sum": bottom_sum,
            "hand": None if seat is None else [_hand_card(c) for c in data["hands"][seat]],
            "hand_counts": [len(hand) for hand in data["hands"]],
            "captured_counts": [len(pile) for pile in data["captured"]],
            "deck_count": len(data["deck"]),
        }

    def outcome(self, state) -> Outcome | None:
        data = state.data
        if data["turn"] is not None:
            return None
        # RULINGS 3: "Most captured cards wins; ties share."
        return outcome_from_scores([len(pile) for pile in data["captured"]])

    # -- helping and bots
    def _balancing_moves(self, state, seat) -> list[dict]:
        """Every move that makes the rows equal, number cards before jokers (a joker is worth
        keeping: it can balance many differences later)."""
        data = state.data
        top_sum, bottom_sum = _sums(data)
        difference = abs(top_sum - bottom_sum)
        rows = ROWS if top_sum == bottom_sum else (_smaller_row(top_sum, bottom_sum),)
        moves = []
        for card in data["hands"][seat]:
            if not can_balance(card, difference):
                continue
            for row in rows:
                move = {"type": "play", "card": card, "row": row}
                if IS_JOKER[card]:
                    move["value"] = difference
                moves.append(move)
        moves.sort(key=lambda m: IS_JOKER[m["card"]])
        return moves

    def hint(self, state, seat):
        if seat not in self.active(state):
            return None
        moves = self._balancing_moves(state, seat)
        return moves[0] if moves else None

    def bot_move(self, state, seat, level, rng):
        if seat not in self.active(state):
            return None
        if level == "random":
            return rng.choice(self.legal_moves(state, seat))
        balancing = self._balancing_moves(state, seat)
        if level == "easy":
            if balancing:
                return balancing[0]
            return self._smallest_card_move(state, seat)
        if balancing:
            # Every balancing move captures the whole table plus the card, so keep the jokers.
            return balancing[0]
        return self._safest_move(state, seat)

    def _smallest_card_move(self, state, seat) -> dict:
        """Easy bot: the smallest card (a joker at its least value) onto the smaller row."""
        data = state.data
        card = min(data["hands"][seat], key=lambda c: (VALUE_RANGE[c][0], c))
        move = {"type": "play", "card": card, "row": _smaller_row(*_sums(data))}
        if IS_JOKER[card]:
            move["value"] = VALUE_RANGE[card][0]
        return move

    def _safest_move(self, state, seat) -> dict:
        """Strong bot, nothing to capture: leave the difference that the fewest unseen cards can
        balance, so the next player is least likely to take the table; spend a joker only when it
        is clearly safer, and keep the bigger number cards for later."""
        data = state.data
        top_sum, bottom_sum = _sums(data)
        unseen = _unseen_cards(state, seat)
        balancers_by_difference: dict[int, int] = {}

        def risk(difference: int) -> int:
            count = balancers_by_difference.get(difference)
            if count is None:
                count = sum(1 for c in unseen if can_balance(c, difference))
                balancers_by_difference[difference] = count
            return count

        best_key = None
        best_move = None
        seen_faces = set()
        for card in data["hands"][seat]:
            low, high = VALUE_RANGE[card]
            face = (CARD_KIND[card], low)
            if face in seen_faces:  # two cards alike give the same positions
                continue
            seen_faces.add(face)
            for row in ROWS:
                for value in range(low, high + 1):
                    if row == "top":
                        difference = abs(top_sum + value - bottom_sum)
                    else:
                        difference = abs(top_sum - bottom_sum - value)
                    key = (risk(difference), IS_JOKER[card], value)
                    if best_key is None or key < best_key:
                        best_key = key
                        best_move = {"type": "play", "card": card, "row": row}
                        if IS_JOKER[card]:
                            best_move["value"] = value
        return best_move


GAME = AddUp()
