"""¡Mía!'s cards, shared by the table game (mia_multi) and the solo square (mia_solo).

A card is named by its index in ``data/mia_decks.json``: number card ``i`` is
``number_deck[i]``, operation card ``j`` is ``operation_deck[j]``. States hold these ids; views show
the faces a seat may see.
"""

from __future__ import annotations

from functools import cache

from engine.core import attempt_event
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
