"""¡Mía!'s cards, shared by the table game (mia_multi) and the solo square (mia_solo).

A card is named by its index in ``data/mia_decks.json``: number card ``i`` is
``number_deck[i]``, operation card ``j`` is ``operation_deck[j]``. States hold these ids; views show
the faces a seat may see.
"""

from __future__ import annotations

from functools import cache

from engine.core import Fact, attempt_event, swap_in
from engine.data import load


@cache
def number_cards() -> tuple[dict, ...]:
    return tuple(load("mia_decks")["number_deck"])


@cache
def operation_cards() -> tuple[dict, ...]:
    return tuple(load("mia_decks")["operation_deck"])


def number_face(card_id: int) -> dict:
    """What the holder sees: ``{"id", "kind", "value"?}``; kinds: number, wild, extra_time."""
    card = number_cards()[card_id]
    face = {"id": card_id, "kind": card["kind"]}
    if "value" in card:
        face["value"] = card["value"]
    return face


def operation_face(card_id: int, mirrored: bool = False) -> dict:
    """What everybody sees of a revealed operation card; kinds: operation, recycling, twister,
    mirror. ``mirrored`` swaps '+' and '-' on the options (RULINGS 1, Mirror)."""
    card = operation_cards()[card_id]
    face = {"id": card_id, "kind": card["kind"]}
    if card["kind"] == "operation":
        face["points"] = card["points"]
        face["options"] = [
            {"op": flip(o["op"]) if mirrored else o["op"], "target": o["target"]}
            for o in card["options"]
        ]
    return face


def flip(op: str) -> str:
    return "-" if op == "+" else "+"


def result_of(a: int, b: int, op: str) -> int:
    """RULINGS 1: right when a+b equals a '+' target or |a-b| equals a '-' target."""
    return a + b if op == "+" else abs(a - b)


def claim_attempt(
    *, seat: int, a: int, b: int, op: str, target: int, elapsed_ms: int, **extra
) -> dict:
    """The attempt of a claim: the student says a (op) b makes ``target``."""
    true_value = result_of(a, b, op)
    operands = [a, b] if op == "+" else [max(a, b), min(a, b)]
    return attempt_event(
        seat=seat,
        operands=operands,
        operator=op,
        answer=target,
        target=target,
        expected=true_value,
        correct=true_value == target,
        elapsed_ms=elapsed_ms,
        **extra,
    )


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
WILD_VALUES = range(1, 10)  # RULINGS 1: Wild = any 1-9, declared when claiming


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
