"""¡Mía! table modes: Express, Party and Canada 47 (docs/rules/mia.md).

Rulebook: seeds/000_6161999e8896a317.txt; binding rulings: RULINGS.md section 1. ``engine.mia``
plays the moves (claim, pass, Extra time) and sets up, times and reads the table with the functions
of this module.

The game is real time: every seat that has not passed and has not claimed wrongly may claim the top
operation card at any moment, and the order in which the server applies the claims decides who was
first. Reveals are done by the engine (attributed to the revealer in an event), so the game never
waits for a human to flip a card. Timers (the pass timeout and an Extra time window) are deadlines
stored in the state and fired by ``tick``.

State (``state.data``), card ids as in ``engine.mia_cards``:
    hands            per seat, the sorted number-card ids held
    aside            per seat, batches ``{"cards": [a, b], "back": round}`` set aside after a wrong
                     claim; they come back to the hand when round ``back`` ends
    numbers          the number draw stack (top = last) — secret
    number_discard   discarded number cards (used claims, played Extra time)
    operations       the operation draw stack (top = last) — secret
    pile             the operation cards piled on the table, the claimable top card last
    mirrors          Mirror cards waiting for the next solved card
    operation_discard  used action cards (Recycling, Twister, Mirror)
    won              per seat, the operation cards taken
    scores           per seat, points (Canada 47: sum of the targets solved)
    revealer         the seat that flips the next card
    round            number of the current round (one round = one claimable top card)
    revealed_at      ms when the top card was revealed (start of every claim decision)
    flip_at          ms when the pass timeout flips a new card
    passed, locked   per seat: passed on the top card / claimed it wrongly (out for this card)
    window           None or the Extra time window ``{"seat", "opened_at", "until"}``
    last_won         None, or the card won last, for the claims that lost the race for it:
                     ``{"round", "card", "mirrored", "revealed_at", "until", "hands", "heard"}``
                     (the hands of the seats that could still claim it when it was won, None for
                     the others; the seats heard on it since)
    passing          per seat, the cards in a row it passed or let time run out on, since its
                     last claim (the teacher's monitor flags a child passing card after card)
    waited           per seat, the ms it could not act on the top card because another seat's
                     Extra time window shut it out: its answer's time leaves them out
    answers          calm table only: per seat, None or its answer on the top card, held face
                     down until the card closes ``{"cards", "option", "values", "op", "target",
                     "result", "correct"}``
    credited         calm table only: per seat, the operation cards it was credited with
    over             None while playing, else why the game ended

The calm table (option ``calm``, docs/rules/mia.md "A calm table") has no race and no clock: each
seat answers the top card in its own time, its answer is held until every seat has answered or
passed, then the card closes and every right answer scores.
"""

from __future__ import annotations

from itertools import combinations

from engine.core import (
    MALFORMED,
    Fact,
    Option,
    State,
    Variant,
    first_player_option,
    require,
    require_int,
    variants,
)
from engine.mia_cards import (
    FOCUS_DECK_PAIRS,
    FOCUS_HAND_PAIRS,
    FOCUS_REVEALS,
    NUMBER_COUNT,
    NUMBER_KIND,
    NUMBER_VALUE,
    OPERATION_COUNT,
    OPERATION_OPTIONS,
    WILD_VALUES,
    claim_attempt,
    flip,
    steer_numbers,
    steer_operations,
)
from engine.mia_rounds import (
    calm,
    nobody_solved,
    start_round,
)

# --- constants -----------------------------------------------------------------------------------

HAND_SIZE = 5  # rulebook: "Shuffle the number cards and deal 5 to each player."

# The IllegalMove codes of this module (the base Game adds malformed, unknown_move, not_active,
# game_over and bad_seat); every one is listed in docs/rules/mia.md.
DUPLICATE_CARD = "duplicate_card"
CARD_NOT_IN_HAND = "card_not_in_hand"
NOT_A_NUMBER_CARD = "not_a_number_card"
WILD_VALUE_REQUIRED = "wild_value_required"
WILD_VALUE_UNEXPECTED = "wild_value_unexpected"
NOT_EXTRA_TIME = "not_extra_time"
WINDOW_OPEN = "window_open"
STALE_ROUND = "stale_round"


def _common_options() -> dict[str, Option]:
    return {
        "pass_timeout_seconds": Option(
            "pass_timeout_seconds",
            20,
            "int",
            "Seconds before the revealer flips a new card when nobody solves (RULINGS 1).",
            minimum=5,
            maximum=240,
            timer=True,
        ),
        "extra_time_seconds": Option(
            "extra_time_seconds",
            5,
            "int",
            "Seconds of the exclusive window an Extra time card gives (RULINGS 1).",
            minimum=1,
            maximum=60,
            timer=True,
        ),
        "first_player": first_player_option(),
    }


def _calm_option() -> Option:
    # The calm table (docs/rules/mia.md, platform ruling "A calm table"): no race, no flip timer.
    return Option(
        "calm",
        False,
        "bool",
        "Calm table: no race and no clock; each player answers each card in their own time, "
        "every right answer scores (docs/rules/mia.md).",
    )


def _table_options() -> dict[str, Option]:
    return {**_common_options(), "calm": _calm_option()}


VARIANTS: dict[str, Variant] = variants(
    # rulebook, Game modes: "Express (2 to 4 players)", "Party (2 to 6 players)",
    # "Canada 47 (2 to 6 players)".
    Variant("express", "Express", 2, 4, _table_options()),
    Variant("party", "Party", 2, 6, _table_options()),
    Variant(
        "canada47",
        "Canada 47",
        2,
        6,
        {
            **_table_options(),
            "target": Option(
                "target",
                47,
                "int",
                "Points to reach to win Canada 47 (RULINGS 1).",
                minimum=10,
                maximum=200,
            ),
        },
    ),
)


# --- setup ---------------------------------------------------------------------------------------


def setup(state: State, rng, now_ms: int, focus: tuple[Fact, ...] = ()) -> None:
    players = state.players
    numbers = list(range(NUMBER_COUNT))
    rng.shuffle(numbers)
    operations = list(range(OPERATION_COUNT))
    rng.shuffle(operations)
    if focus:
        _steer(numbers, operations, players, rng, focus)
    # rulebook: "deal 5 to each player. Place the rest of them face down, forming a deck".
    hands = [sorted(numbers.pop() for _ in range(HAND_SIZE)) for _ in range(players)]
    # RULINGS common: the starting seat is drawn from the match seed (option: seat 0).
    first = 0 if state.options["first_player"] == "seat0" else rng.below(players)
    state.data = {
        "hands": hands,
        "aside": [[] for _ in range(players)],
        "numbers": numbers,
        "number_discard": [],
        "operations": operations,
        "pile": [],
        "mirrors": [],
        "operation_discard": [],
        "won": [[] for _ in range(players)],
        "scores": [0] * players,
        "revealer": first,
        "round": 0,
        "revealed_at": now_ms,
        "flip_at": now_ms,
        "passed": [False] * players,
        "locked": [False] * players,
        "window": None,
        "last_won": None,
        "passing": [0] * players,
        "waited": [0] * players,
        "answers": [None] * players,
        "credited": [0] * players,
        "over": None,
    }
    # rulebook: "The starting player quickly flips the top card of the operations deck". The setup
    # events are not returned by Game.new; the first view shows the revealed card.
    start_round(state, rng, now_ms, [])


def _steer(numbers: list[int], operations: list[int], players: int, rng, facts) -> None:
    """Orders the shuffled decks so that the focus facts are the natural claims: each hand holds
    the pairs of the first facts, the number deck's top the pairs of the next ones, and the first
    operation cards revealed offer their options. Both decks stay the same cards (RULINGS 1)."""
    order = numbers[::-1]  # the deal order: seat 0's five cards first, then seat 1's, then the deck
    keep: set[int] = set()
    pairs = [
        (seat * HAND_SIZE + 2 * j, facts[j % len(facts)])
        for seat in range(players)
        for j in range(min(FOCUS_HAND_PAIRS, len(facts)))
    ]
    after_hands = players * HAND_SIZE
    pairs += [
        (after_hands + 2 * j, facts[(FOCUS_HAND_PAIRS + j) % len(facts)])
        for j in range(FOCUS_DECK_PAIRS)
    ]
    steer_numbers(order, pairs, rng, keep)
    numbers[:] = order[::-1]
    revealed_first = operations[::-1]
    steer_operations(revealed_first, facts, FOCUS_REVEALS, rng)
    operations[:] = revealed_first[::-1]


# --- who may act ---------------------------------------------------------------------------------


def active(state: State) -> frozenset[int]:
    data = state.data
    if data["over"] is not None:
        return frozenset()
    window = data["window"]
    if window is not None:
        # RULINGS 1: Extra time gives "an exclusive 5 s in which only they may claim".
        return frozenset((window["seat"],))
    passed, locked = data["passed"], data["locked"]
    answers = data.get("answers") or [None] * state.players
    # RULINGS 1: a wrong claimer "cannot claim the same operation again"; a pass is final for the
    # top card (docs/rules/mia.md, decisions). At a calm table an answer, right or wrong, is final.
    return frozenset(
        s for s in range(state.players) if not passed[s] and not locked[s] and answers[s] is None
    )


def legal_moves(state: State, seat: int) -> list[dict]:
    if seat not in active(state):
        return []
    data = state.data
    current = data["round"]
    moves: list[dict] = [{"type": "pass", "round": current}]
    hand = data["hands"][seat]
    if data["window"] is None:
        moves.extend(
            {"type": "extra_time", "card": card, "round": current}
            for card in hand
            if NUMBER_KIND[card] == "extra_time"
        )
    # Every claim, wrong ones included: each pair of number/wild cards, each option, each value a
    # wild may be declared as.
    usable = [card for card in hand if NUMBER_KIND[card] != "extra_time"]
    for first, second in combinations(usable, 2):
        wild_first = NUMBER_KIND[first] == "wild"
        wild_second = NUMBER_KIND[second] == "wild"
        for option in (0, 1):
            base = {"type": "claim", "cards": [first, second], "option": option, "round": current}
            if wild_first and wild_second:
                moves.extend({**base, "wild": [v, w]} for v in WILD_VALUES for w in WILD_VALUES)
            elif wild_first or wild_second:
                moves.extend({**base, "wild": v} for v in WILD_VALUES)
            else:
                moves.append(base)
    return moves


# --- moves ---------------------------------------------------------------------------------------


def late_claim(state: State, seat: int, move: dict) -> bool:
    """Whether ``move`` is a claim on the card won just before the one on top, by a seat that
    could still claim that card when it was won and has not been heard on it since: the claim
    lost the race (docs/rules/mia.md). Such a seat is heard even while it may not act now."""
    last = state.data.get("last_won")
    return (
        last is not None
        and move.get("type") == "claim"
        and move.get("round") == last["round"]
        and isinstance(seat, int)
        and 0 <= seat < len(last["hands"])
        and last["hands"][seat] is not None
        and seat not in last["heard"]
    )


def play_late_claim(state: State, seat: int, move: dict, now_ms: int, events: list[dict]) -> None:
    """A claim that lost the race: judged against the card it was made for, with the hand the
    seat held when the card was won, and recorded as the child's answer to that card; nothing
    else at the table changes (the card is won, so the claim scores nothing and costs nothing).
    One a seat per card, and only within the card's own time, so a late claim cannot be made
    at leisure to collect right answers."""
    last = state.data["last_won"]
    require(now_ms <= last["until"], STALE_ROUND, "that operation card's time is over")
    _cards, option, a, b = claimed_cards(move, last["hands"][seat])
    op, target = option_claimed(last["card"], option, last["mirrored"])
    last["heard"].append(seat)
    answered(state, seat)
    events.append(
        claim_attempt(
            seat=seat,
            a=a,
            b=b,
            op=op,
            target=target,
            elapsed_ms=now_ms - last["revealed_at"] - (last.get("waited") or {}).get(str(seat), 0),
            scored=False,
        )
    )
    # Public: that the seat answered the card, never the cards (they stay in the hand, unseen).
    events.append({"type": "late_claim", "seat": seat, "round": last["round"]})


def claimed_cards(move: dict, hand: list[int]) -> tuple[list[int], int, int, int]:
    """The claim's two cards, its option and the two values they stand for, checked against
    ``hand`` (the hand the claim was made with)."""
    cards = move.get("cards")
    require(
        isinstance(cards, list)
        and len(cards) == 2
        and all(isinstance(c, int) and not isinstance(c, bool) for c in cards),
        MALFORMED,
        "'cards' must be a list of two card ids",
    )
    require(cards[0] != cards[1], DUPLICATE_CARD, "a claim uses two different cards")
    option = require_int(move, "option", 0, 1)
    for card in cards:
        require(card in hand, CARD_NOT_IN_HAND, f"card {card} is not in your hand")
        # RULINGS 1: "A claim is two number cards from the hand" (a Wild counts as a number).
        require(
            NUMBER_KIND[card] != "extra_time",
            NOT_A_NUMBER_CARD,
            "Extra time is played on its own, not in a claim",
        )
    a, b = _declared_values(cards, move)
    return cards, option, a, b


def option_claimed(card: int, option: int, mirrored: bool) -> tuple[str, int]:
    op, target = OPERATION_OPTIONS[card][option]
    # RULINGS 1, Mirror: '+' and '-' swapped on the next card solved.
    return (flip(op) if mirrored else op), target


def _declared_values(cards: list[int], move: dict) -> tuple[int, int]:
    """The values the claim uses; a Wild takes the value declared in ``wild`` (RULINGS 1)."""
    wild_slots = [i for i, card in enumerate(cards) if NUMBER_KIND[card] == "wild"]
    if not wild_slots:
        require("wild" not in move, WILD_VALUE_UNEXPECTED, "'wild' is only for a Wild card")
        return NUMBER_VALUE[cards[0]], NUMBER_VALUE[cards[1]]
    require("wild" in move, WILD_VALUE_REQUIRED, "say which number (1-9) your Wild card is")
    if len(wild_slots) == 1:
        declared = [require_int(move, "wild", 1, 9)]
    else:
        # Two Wilds: a list of two values, in the order of "cards" (docs/rules/mia.md).
        raw = move["wild"]
        require(
            isinstance(raw, list)
            and len(raw) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 9 for v in raw),
            MALFORMED,
            "with two Wild cards 'wild' is a list of two numbers from 1 to 9",
        )
        declared = list(raw)
    values = [NUMBER_VALUE[cards[0]], NUMBER_VALUE[cards[1]]]
    for slot, value in zip(wild_slots, declared, strict=True):
        values[slot] = value
    return values[0], values[1]


def answered(state: State, seat: int) -> None:
    passing = state.data.get("passing")
    if passing is not None:  # a game stored before passes were counted has none
        passing[seat] = 0


def passed_on(state: State, seat: int) -> None:
    data = state.data
    data.setdefault("passing", [0] * state.players)[seat] += 1


def passes_in_a_row(state: State) -> list[int]:
    return list(state.data.get("passing") or [0] * state.players)


def waited_ms(state: State, seat: int) -> int:
    waited = state.data.get("waited")  # a game stored before it was counted has none
    return waited[seat] if waited else 0


def close_window(state: State, now_ms: int) -> None:
    """Ends the open Extra time window: every other seat was shut out of the card while it was
    open, and that time is not part of its answer's time (issue 22: time a fact from when the
    child could act on it)."""
    data = state.data
    window = data["window"]
    data["window"] = None
    waited = data.setdefault("waited", [0] * state.players)
    shut = max(0, now_ms - window["opened_at"])
    for other in range(state.players):
        if other != window["seat"]:
            waited[other] += shut


# --- timers --------------------------------------------------------------------------------------


def deadline(state: State) -> int | None:
    data = state.data
    if data["over"] is not None or calm(state):
        return None
    window = data["window"]
    if window is None:
        return data["flip_at"]
    return min(window["until"], data["flip_at"])


def window_over(state: State, now_ms: int) -> bool:
    """Whether an Extra time window is open in the state but its time is up at ``now_ms``."""
    window = state.data["window"]
    return window is not None and window["until"] <= now_ms


def end_window_on_time(state: State, events: list[dict]) -> None:
    """Closes an Extra time window whose time is up, at its end: the others were shut out until
    then and no longer, however late the timer or the next move comes."""
    window = state.data["window"]
    # rulebook: "Once the time is up, any player can solve the operation."
    close_window(state, window["until"])
    events.append({"type": "extra_time_over", "seat": window["seat"], "reason": "time_up"})


def tick(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    if window_over(state, now_ms):
        end_window_on_time(state, events)
    if data["flip_at"] <= now_ms:
        # A seat that neither claimed nor passed let the card's time run out: not an answer, but
        # a card it sat out, as a pass is (docs/rules/mia.md, "Passes and time-outs").
        for seat in range(state.players):
            if not data["passed"][seat] and not data["locked"][seat]:
                passed_on(state, seat)
                events.append({"type": "timed_out", "seat": seat, "round": data["round"]})
        # RULINGS 1: "after 20 s (option), the same revealer flips a new operation card".
        nobody_solved(state, rng, now_ms, events, "time_up")
