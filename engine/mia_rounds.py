"""¡Mía! table modes: how a card closes and the next one comes (docs/rules/mia.md).

The rounds of the race (a card nobody solved, the next reveal with its action cards, the draws,
the end) and the calm table's close, where every answer is turned up at once. ``engine.mia_multi``
plays the moves that lead here; the state is the one its docstring describes.
"""

from __future__ import annotations

from engine.core import State, outcome_from_scores
from engine.mia_cards import OPERATION_KIND, OPERATION_POINTS, number_face, operation_face

REFILL_TO = 2  # RULINGS 1: fewer than 2 cards at the start of a round -> draw up to 2
CLAIM_DRAW = 2  # rulebook: "Then, they draw 2 new cards from the deck."


def calm(state: State) -> bool:
    """Whether this is a calm table (docs/rules/mia.md, "A calm table")."""
    return bool(state.options.get("calm"))


# --- the calm table (docs/rules/mia.md, "A calm table") -----------------------------------------


def calm_answer(
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
    close_if_everyone_answered(state, rng, now_ms, events)


def close_if_everyone_answered(state: State, rng, now_ms: int, events: list[dict]) -> None:
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
        nobody_solved(state, rng, now_ms, events, "all_passed")
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
        end_game(state, "target_reached", events)
        return
    for offset in range(players):
        seat = (revealer + offset) % players
        if seat in right:
            # RULINGS 1, right claim: "draws 2".
            draw(state, rng, seat, CLAIM_DRAW, events)
            if data["over"] is not None:
                return
    if _calm_express_over(state, events):
        return
    next_round(state, rng, now_ms, events)


def _calm_express_over(state: State, events: list[dict]) -> bool:
    """Express ends when the number deck runs out (RULINGS 1); at a calm table an Extra time
    draw may empty it while others are still answering, and the game then ends as the card
    closes, never before."""
    if state.variant == "express" and not state.data["numbers"] and state.data["over"] is None:
        end_game(state, "number_deck_empty", events)
    return state.data["over"] is not None


# --- rounds --------------------------------------------------------------------------------------


def flip_if_everyone_done(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    if all(p or w for p, w in zip(data["passed"], data["locked"], strict=True)):
        # RULINGS 1: "when every player has passed ... the same revealer flips a new operation
        # card"; a seat that claimed wrongly cannot claim this card, so it counts as done.
        nobody_solved(state, rng, now_ms, events, "all_passed")


def nobody_solved(state: State, rng, now_ms: int, events: list[dict], reason: str) -> None:
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
    next_round(state, rng, now_ms, events)


def next_round(state: State, rng, now_ms: int, events: list[dict]) -> None:
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
    start_round(state, rng, now_ms, events)


def start_round(state: State, rng, now_ms: int, events: list[dict]) -> None:
    data = state.data
    revealer = data["revealer"]
    while True:
        if not data["operations"]:
            # RULINGS 1: Party "ends when the operation deck runs out"; Express and Canada 47 have
            # nothing left to play either (docs/rules/mia.md, decisions).
            end_game(state, "operation_deck_empty", events)
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
            draw(state, rng, seat, short, events)
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


def draw(state: State, rng, seat: int, count: int, events: list[dict], *, end: bool = True) -> None:
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
        end_game(state, "number_deck_empty", events)


def end_game(state: State, reason: str, events: list[dict]) -> None:
    data = state.data
    data["over"] = reason
    data["window"] = None
    result = outcome_from_scores(data["scores"])
    events.append(
        {"type": "game_over", "reason": reason, "scores": result.scores, "winners": result.winners}
    )
