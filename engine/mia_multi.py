"""¡Mía! table modes: Express, Party and Canada 47 (docs/rules/mia.md).

Rulebook: seeds/000_6161999e8896a317.txt; binding rulings: RULINGS.md section 1. ``engine.mia``
dispatches to this module for these variants, so it is a module of plain functions.

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
    UNKNOWN_MOVE,
    Fact,
    IllegalMove,
    Option,
    Outcome,
    State,
    Variant,
    first_player_option,
    outcome_from_scores,
    require,
    require_int,
    swap_in,
    variants,
)
from engine.mia_cards import (
    claim_attempt,
    flip,
    number_cards,
    number_face,
    operation_cards,
    operation_face,
    result_of,
)

# --- constants -----------------------------------------------------------------------------------

HAND_SIZE = 5  # rulebook: "Shuffle the number cards and deal 5 to each player."
REFILL_TO = 2  # RULINGS 1: fewer than 2 cards at the start of a round -> draw up to 2
CLAIM_DRAW = 2  # rulebook: "Then, they draw 2 new cards from the deck."
WILD_VALUES = range(1, 10)  # RULINGS 1: Wild = any 1-9, declared when claiming

# Card tables, read once at import: kinds, values, points and options by card id.
NUMBER_KIND: tuple[str, ...] = tuple(c["kind"] for c in number_cards())
NUMBER_VALUE: tuple[int | None, ...] = tuple(c.get("value") for c in number_cards())
NUMBER_COUNT = len(NUMBER_KIND)
OPERATION_KIND: tuple[str, ...] = tuple(c["kind"] for c in operation_cards())
OPERATION_POINTS: tuple[int, ...] = tuple(c.get("points", 0) for c in operation_cards())
OPERATION_OPTIONS: tuple[tuple[tuple[str, int], ...], ...] = tuple(
    tuple((o["op"], o["target"]) for o in c.get("options", ())) for c in operation_cards()
)
OPERATION_COUNT = len(OPERATION_KIND)

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
    _start_round(state, rng, now_ms, [])


# --- focused deals (docs/rules/mia.md, "Focused deals") ------------------------------------------

# The cards a focused deal steers: the first operation cards revealed, and the number cards that
# make their pairs in each hand and on top of the number deck (drawn by whoever claims).
FOCUS_REVEALS = 8
FOCUS_HAND_PAIRS = 2
FOCUS_DECK_PAIRS = 6


def focus_option(fact: Fact) -> tuple[str, int] | None:
    """The option (sign, target) a claim of ``fact`` solves, or None: not a claim of ¡Mía!."""
    operation, a, b = fact
    if not (1 <= a <= 9 and 1 <= b <= 9) or operation not in ("add", "sub"):
        return None
    if operation == "sub" and a <= b:
        return None
    return ("+", a + b) if operation == "add" else ("-", a - b)


def shows(fact: Fact, cards) -> bool:
    """Whether some operation card of ``cards`` offers the option ``fact`` solves."""
    option = focus_option(fact)
    return option is not None and any(option in OPERATION_OPTIONS[card] for card in cards)


def steer_numbers(order: list[int], pairs: list[tuple[int, Fact]], rng, keep: set[int]) -> None:
    """Puts at each (position, fact) of ``pairs`` the two number cards of the fact (at position
    and position + 1 of ``order``, the deal order); a fact whose cards have run out is left to
    chance."""
    for position, (_operation, a, b) in pairs:
        for offset, value in enumerate((a, b)):
            swap_in(order, position + offset, lambda c, v=value: NUMBER_VALUE[c] == v, rng, keep)


def steer_operations(order: list[int], facts: tuple[Fact, ...], reveals: int, rng) -> None:
    """Puts at the first ``reveals`` places of ``order`` (revealed first) operation cards that
    offer the facts' options, in turn."""
    keep: set[int] = set()
    for position in range(min(reveals, len(order))):
        option = focus_option(facts[position % len(facts)])
        swap_in(order, position, lambda c, o=option: o in OPERATION_OPTIONS[c], rng, keep)


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


def calm(state: State) -> bool:
    """Whether this is a calm table (docs/rules/mia.md, "A calm table")."""
    return bool(state.options.get("calm"))


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


def apply(state: State, rng, seat: int, move: dict, now_ms: int, events: list[dict]) -> None:
    kind = move["type"]
    play = MOVES.get(kind)
    if play is None:
        # engine.mia shares one move list with the solo square; its moves are not ours.
        raise IllegalMove(UNKNOWN_MOVE, f"{state.variant} has no move {kind!r}")
    if "round" in move and require_int(move, "round") != state.data["round"]:
        # A move made for a card that has since been solved or covered must not count against the
        # next card (the claim race): it is never judged against the new card. A
        # claim that lost the race for the card just won is still the child's answer to it.
        require(
            late_claim(state, seat, move),
            STALE_ROUND,
            "that operation card is no longer the one on top",
        )
        _late_claim(state, seat, move, now_ms, events)
        return
    play(state, rng, seat, move, now_ms, events)


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


def _late_claim(state: State, seat: int, move: dict, now_ms: int, events: list[dict]) -> None:
    """A claim that lost the race: judged against the card it was made for, with the hand the
    seat held when the card was won, and recorded as the child's answer to that card; nothing
    else at the table changes (the card is won, so the claim scores nothing and costs nothing).
    One a seat per card, and only within the card's own time, so a late claim cannot be made
    at leisure to collect right answers."""
    last = state.data["last_won"]
    require(now_ms <= last["until"], STALE_ROUND, "that operation card's time is over")
    _cards, option, a, b = _claimed_cards(move, last["hands"][seat])
    op, target = _option_claimed(last["card"], option, last["mirrored"])
    last["heard"].append(seat)
    _answered(state, seat)
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


def _claimed_cards(move: dict, hand: list[int]) -> tuple[list[int], int, int, int]:
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


def _option_claimed(card: int, option: int, mirrored: bool) -> tuple[str, int]:
    op, target = OPERATION_OPTIONS[card][option]
    # RULINGS 1, Mirror: '+' and '-' swapped on the next card solved.
    return (flip(op) if mirrored else op), target


def _claim(state: State, rng, seat: int, move: dict, now_ms: int, events: list[dict]) -> None:
    data = state.data
    hand = data["hands"][seat]
    cards, option, a, b = _claimed_cards(move, hand)
    _answered(state, seat)

    top = data["pile"][-1]
    mirrored = len(data["mirrors"]) % 2 == 1
    op, target = _option_claimed(top, option, mirrored)
    window = data["window"]
    # Attempt time runs from when the claimer could act on the card (issue 22): from the opening
    # of its own Extra time window, or from the reveal less the time another seat's window shut
    # it out (docs/rules/mia.md, "Timing from when the child could act").
    if window and window["seat"] == seat:
        started = window["opened_at"]
    else:
        started = data["revealed_at"] + _waited(state, seat)
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
        _calm_answer(state, rng, seat, answer, now_ms, events)
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
        # RULINGS 1, wrong claim: the two cards are set aside until the end of the next round, the
        # seat is out for this card, the others go on claiming at once.
        data["aside"][seat].append({"cards": sorted(cards), "back": data["round"] + 1})
        data["locked"][seat] = True
        shown = f"{max(a, b)} - {min(a, b)}" if op == "-" else f"{a} + {b}"
        events.append(
            {**claim, "type": "wrong_claim", "reason": f"{shown} = {result}, not {target}"}
        )
        if window is not None and window["seat"] == seat:
            # RULINGS 1: "a wrong claim ends the window".
            _close_window(state, now_ms)
            events.append({"type": "extra_time_over", "seat": seat, "reason": "wrong_claim"})
        _flip_if_everyone_done(state, rng, now_ms, events)
        return

    # The others' claims for this card may still be on their way: each may yet be heard, as an
    # answer that is not scored (docs/rules/mia.md, decision "A right answer that loses the
    # race"). Only the seats that could claim it when it was won, with the hands they held then.
    racing = active(state)
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
    # RULINGS 1, right claim: take the whole pile, discard the two cards, draw 2, reveal the next.
    taken = data["pile"]
    data["pile"] = []
    data["won"][seat].extend(taken)
    if state.variant == "canada47":
        # RULINGS 1: Canada 47 scores the target of the option solved (x2/x3 ignored).
        gained = target
    else:
        # rulebook, Scoring: each card is worth 1 point, special cards 2 and 3 (whole pile taken).
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
    # rulebook: "The player who completes the operation correctly will be in charge of lifting the
    # next operation card."
    data["revealer"] = seat
    if state.variant == "canada47" and data["scores"][seat] >= state.options["target"]:
        # RULINGS 1: "first to 47 (option: target) wins".
        _end(state, "target_reached", events)
        return
    _draw(state, rng, seat, CLAIM_DRAW, events)
    if data["over"] is None:
        _next_round(state, rng, now_ms, events)


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


def _answered(state: State, seat: int) -> None:
    passing = state.data.get("passing")
    if passing is not None:  # a game stored before passes were counted has none
        passing[seat] = 0


def _passed_on(state: State, seat: int) -> None:
    data = state.data
    data.setdefault("passing", [0] * state.players)[seat] += 1


def passes_in_a_row(state: State) -> list[int]:
    return list(state.data.get("passing") or [0] * state.players)


def _pass(state: State, rng, seat: int, move: dict, now_ms: int, events: list[dict]) -> None:
    data = state.data
    # RULINGS 1: "Nobody can solve: each player may pass".
    data["passed"][seat] = True
    _passed_on(state, seat)
    if calm(state):
        # A calm table: nobody learns before the card closes whether a seat passed or claimed,
        # only that it is done with the card (docs/rules/mia.md, "A calm table").
        events.append({"type": "answered", "seat": seat, "round": data["round"]})
        _close_if_everyone_answered(state, rng, now_ms, events)
        return
    events.append({"type": "passed", "seat": seat, "round": data["round"]})
    window = data["window"]
    if window is not None and window["seat"] == seat:
        _close_window(state, now_ms)
        events.append({"type": "extra_time_over", "seat": seat, "reason": "passed"})
    _flip_if_everyone_done(state, rng, now_ms, events)


def _waited(state: State, seat: int) -> int:
    waited = state.data.get("waited")  # a game stored before it was counted has none
    return waited[seat] if waited else 0


def _close_window(state: State, now_ms: int) -> None:
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


# --- the calm table (docs/rules/mia.md, "A calm table") -----------------------------------------


def _calm_answer(
    state: State, rng, seat: int, answer: dict, now_ms: int, events: list[dict]
) -> None:
    """A claim at a calm table: the two cards are laid face down in front of the seat with its
    answer until the card closes; the table only learns that the seat answered."""
    data = state.data
    hand = data["hands"][seat]
    for card in answer["cards"]:
        hand.remove(card)
    data["answers"][seat] = answer
    events.append({"type": "answered", "seat": seat, "round": data["round"]})
    _close_if_everyone_answered(state, rng, now_ms, events)


def _close_if_everyone_answered(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    answers = data["answers"]
    if all(data["passed"][s] or answers[s] is not None for s in range(state.players)):
        _calm_close(state, rng, now_ms, events)


def _calm_close(state: State, rng, now_ms: int, events: list[dict]) -> None:
    """Every seat answered or passed: the answers are turned up. Every right answer scores (the
    pile's points, or in Canada 47 the target of the option it solved) and its two cards are
    discarded; a wrong answer's cards are set aside as in the race (RULINGS 1). The right seats
    draw 2 each, then the next card is revealed; when nobody was right the revealer piles a new
    card on top (RULINGS 1, "Nobody can solve")."""
    data = state.data
    players = state.players
    closing = data["round"]
    answers = data["answers"]
    pile = data["pile"]
    right = [s for s in range(players) if answers[s] is not None and answers[s]["correct"]]
    pile_points = sum(OPERATION_POINTS[c] for c in pile)
    points = [0] * players
    for seat, answer in enumerate(answers):
        if answer is None:
            continue
        if answer["correct"]:
            data["number_discard"].extend(answer["cards"])
            # RULINGS 1: Canada 47 scores the target of the option solved; the other modes the
            # points on the cards (the whole pile).
            points[seat] = answer["target"] if state.variant == "canada47" else pile_points
            data["scores"][seat] += points[seat]
            data["credited"][seat] += len(pile)
        else:
            # RULINGS 1, wrong claim: set aside until the end of the next round.
            data["aside"][seat].append({"cards": sorted(answer["cards"]), "back": closing + 1})
    data["answers"] = [None] * players
    solutions = [
        {
            "seat": seat,
            "option": answers[seat]["option"],
            "values": answers[seat]["values"],
            "op": answers[seat]["op"],
            "target": answers[seat]["target"],
            "result": answers[seat]["result"],
        }
        for seat in right
    ]
    data["last_closed"] = {"round": closing, "right": right, "points": points}
    events.append(
        {
            "type": "card_closed",
            "round": closing,
            "right": right,
            "solutions": solutions,
            "points": points,
            "cards_taken": len(pile) if right else 0,
            "scores": list(data["scores"]),
        }
    )
    if not right:
        if _calm_express_over(state, events):
            return
        _nobody_solved(state, rng, now_ms, events, "all_passed")
        return
    # The card is solved: its pile is shared out as points (it is no one's to take), and the
    # Mirrors waiting for it are used (RULINGS 1: "Discard it once used").
    data["operation_discard"].extend(pile)
    data["pile"] = []
    data["operation_discard"].extend(data["mirrors"])
    data["mirrors"] = []
    revealer = data["revealer"]
    # No one was first, so the next card is revealed in turn, by the next seat clockwise.
    data["revealer"] = (revealer + 1) % players
    if state.variant == "canada47" and any(
        score >= state.options["target"] for score in data["scores"]
    ):
        # RULINGS 1: "first to 47 (option: target) wins"; reached together, ties share.
        _end(state, "target_reached", events)
        return
    for offset in range(players):
        seat = (revealer + offset) % players
        if seat in right:
            # RULINGS 1, right claim: "draws 2".
            _draw(state, rng, seat, CLAIM_DRAW, events)
            if data["over"] is not None:
                return
    if _calm_express_over(state, events):
        return
    _next_round(state, rng, now_ms, events)


def _calm_express_over(state: State, events: list[dict]) -> bool:
    """Express ends when the number deck runs out (RULINGS 1); at a calm table an Extra time
    draw may empty it while others are still answering, and the game then ends as the card
    closes, never before."""
    if state.variant == "express" and not state.data["numbers"] and state.data["over"] is None:
        _end(state, "number_deck_empty", events)
    return state.data["over"] is not None


def _extra_time(state: State, rng, seat: int, move: dict, now_ms: int, events: list[dict]) -> None:
    data = state.data
    card = require_int(move, "card")
    hand = data["hands"][seat]
    require(card in hand, CARD_NOT_IN_HAND, f"card {card} is not in your hand")
    require(NUMBER_KIND[card] == "extra_time", NOT_EXTRA_TIME, "that card is not Extra time")
    require(data["window"] is None, WINDOW_OPEN, "your Extra time window is already open")
    # RULINGS 1, Extra time: an exclusive window; the card is discarded and one is drawn at once.
    hand.remove(card)
    data["number_discard"].append(card)
    if calm(state):
        # A calm table has no race to hold off and no clock to stop: the card opens no window,
        # it is traded for a fresh number card (docs/rules/mia.md, "A calm table").
        events.append(
            {"type": "extra_time", "seat": seat, "card": number_face(card), "until": None}
        )
        _draw(state, rng, seat, 1, events, end=False)
        return
    until = now_ms + state.options["extra_time_seconds"] * 1000
    data["window"] = {"seat": seat, "opened_at": now_ms, "until": until}
    # The pass timeout never cuts a window short: "During this time no other player can solve it."
    data["flip_at"] = max(data["flip_at"], until)
    events.append({"type": "extra_time", "seat": seat, "card": number_face(card), "until": until})
    _draw(state, rng, seat, 1, events)


# The moves of the table game, by type; engine.mia accepts these and the solo square's.
MOVES = {"claim": _claim, "pass": _pass, "extra_time": _extra_time}
MOVE_TYPES: tuple[str, ...] = tuple(MOVES)
# The keys each move may carry besides its type (engine.core.plays): "round" names the operation
# card the move was made for, on any move.
MOVE_FIELDS: dict[str, tuple[str, ...]] = {
    "claim": ("cards", "option", "wild", "round"),
    "pass": ("round",),
    "extra_time": ("card", "round"),
}


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
    _close_window(state, window["until"])
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
                _passed_on(state, seat)
                events.append({"type": "timed_out", "seat": seat, "round": data["round"]})
        # RULINGS 1: "after 20 s (option), the same revealer flips a new operation card".
        _nobody_solved(state, rng, now_ms, events, "time_up")


# --- rounds --------------------------------------------------------------------------------------


def _flip_if_everyone_done(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    if all(p or w for p, w in zip(data["passed"], data["locked"], strict=True)):
        # RULINGS 1: "when every player has passed ... the same revealer flips a new operation
        # card"; a seat that claimed wrongly cannot claim this card, so it counts as done.
        _nobody_solved(state, rng, now_ms, events, "all_passed")


def _nobody_solved(state: State, rng, now_ms: int, events: list[dict], reason: str) -> None:
    data = state.data
    events.append(
        {
            "type": "nobody_solved",
            "reason": reason,
            "round": data["round"],
            "pile_count": len(data["pile"]),
        }
    )
    # rulebook: "the player who revealed the operation card will flip a new one and place it on
    # top of the previous one" — the revealer does not change.
    _next_round(state, rng, now_ms, events)


def _next_round(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    ending = data["round"]
    # RULINGS 1: the set-aside cards come back "when that round ends" (the round after the mistake).
    for seat, batches in enumerate(data["aside"]):
        if not batches:
            continue
        back = [b for b in batches if b["back"] <= ending]
        if back:
            data["aside"][seat] = [b for b in batches if b["back"] > ending]
            returned = [card for b in back for card in b["cards"]]
            data["hands"][seat].extend(returned)
            data["hands"][seat].sort()
            # The cards were thrown face up, so everybody already saw them: no secret revealed.
            events.append(
                {
                    "type": "cards_returned",
                    "seat": seat,
                    "cards": [number_face(c) for c in returned],
                }
            )
    _start_round(state, rng, now_ms, events)


def _start_round(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    revealer = data["revealer"]
    while True:
        if not data["operations"]:
            # RULINGS 1: Party "ends when the operation deck runs out"; Express and Canada 47 have
            # nothing left to play either (docs/rules/mia.md, decisions).
            _end(state, "operation_deck_empty", events)
            return
        card = data["operations"].pop()
        kind = OPERATION_KIND[card]
        if kind == "operation":
            break
        events.append({"type": "revealed", "seat": revealer, "card": operation_face(card)})
        if kind == "recycling":
            _recycle(state, rng, events)
            data["operation_discard"].append(card)
        elif kind == "twister":
            _twist(state, events)
            data["operation_discard"].append(card)
        else:
            # RULINGS 1, Mirror: waits for the next solved card, carried over action cards. Two
            # pending Mirrors reverse the symbols twice, i.e. not at all (docs/rules/mia.md).
            data["mirrors"].append(card)
            events.append({"type": "mirror", "mirrored": len(data["mirrors"]) % 2 == 1})

    players = state.players
    data["pile"].append(card)
    data["round"] += 1
    data["revealed_at"] = now_ms
    # A calm table has no flip timer (docs/rules/mia.md, "A calm table").
    data["flip_at"] = None if calm(state) else now_ms + state.options["pass_timeout_seconds"] * 1000
    data["passed"] = [False] * players
    data["locked"] = [False] * players
    data["window"] = None
    data["waited"] = [0] * players
    if calm(state):
        data["answers"] = [None] * players
    mirrored = len(data["mirrors"]) % 2 == 1
    events.append(
        {
            "type": "revealed",
            "seat": revealer,
            "card": operation_face(card, mirrored),
            "mirrored": mirrored,
            "round": data["round"],
            "pile_count": len(data["pile"]),
            "flip_at": data["flip_at"],
        }
    )
    # RULINGS 1: "A player with fewer than 2 cards in hand at the start of a round draws up to 2."
    for offset in range(players):
        seat = (revealer + offset) % players
        short = REFILL_TO - len(data["hands"][seat])
        if short > 0:
            _draw(state, rng, seat, short, events)
            if data["over"] is not None:
                return


def _recycle(state: State, rng, events: list[dict]) -> None:
    """RULINGS 1, Recycling: all at once, using the hands as they were, each player takes 2 random
    cards from the player on their right (the previous seat)."""
    hands = state.data["hands"]
    players = state.players
    given = []
    for seat in range(players):
        hand = hands[seat]
        given.append(rng.sample(hand, min(2, len(hand))))
    for seat in range(players):
        for card in given[seat]:
            hands[seat].remove(card)
    for seat in range(players):
        # seat + 1 has this seat on its right, so it takes this seat's cards.
        receiver = (seat + 1) % players
        hands[receiver].extend(given[seat])
    for hand in hands:
        hand.sort()
    # Only the counts: which cards moved is each receiver's own secret.
    events.append({"type": "recycling", "given": [len(g) for g in given]})


def _twist(state: State, events: list[dict]) -> None:
    """RULINGS 1, Twister: each player passes the whole hand to the player on their right (the
    previous seat); set-aside cards are not hands and stay put."""
    hands = state.data["hands"]
    state.data["hands"] = hands[1:] + hands[:1]  # seat s now holds what seat s + 1 held
    events.append({"type": "twister", "hand_counts": [len(h) for h in state.data["hands"]]})


def _draw(
    state: State, rng, seat: int, count: int, events: list[dict], *, end: bool = True
) -> None:
    data = state.data
    stack = data["numbers"]
    hand = data["hands"][seat]
    drawn = 0
    for _ in range(count):
        if not stack:
            if state.variant == "express" or not data["number_discard"]:
                break
            # RULINGS 1: Party and Canada 47 reshuffle the number discards into a new deck.
            stack.extend(data["number_discard"])
            data["number_discard"] = []
            rng.shuffle(stack)
            events.append({"type": "numbers_reshuffled", "count": len(stack)})
        hand.append(stack.pop())
        drawn += 1
    if drawn:
        hand.sort()
        # How many, never which: the faces are the drawer's secret.
        events.append({"type": "drew", "seat": seat, "count": drawn})
    if end and state.variant == "express" and not stack and data["over"] is None:
        # RULINGS 1: "Express (2-4 players) ends when the number deck runs out".
        _end(state, "number_deck_empty", events)


def _end(state: State, reason: str, events: list[dict]) -> None:
    data = state.data
    data["over"] = reason
    data["window"] = None
    result = outcome_from_scores(data["scores"])
    events.append(
        {"type": "game_over", "reason": reason, "scores": result.scores, "winners": result.winners}
    )


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
