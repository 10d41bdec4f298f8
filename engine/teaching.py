"""What a game gives the teaching layer: the attempts it records, the deals it can bias toward a
child's facts (focus) and the solo puzzles it offers as homework (docs/adding-a-game.md)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.state import Event, Rng, SetupError

# --- focus: deals biased toward a child's facts ---------------------------------------------------

# A fact as the teaching layer names it: (operation, a, b), "add" a + b, "sub" a - b, "mul" a x b.
Fact = tuple[str, int, int]
FACT_OPERATIONS = ("add", "sub", "mul")
_FACT_SIGNS = {"add": "+", "sub": "-", "mul": "x"}
# At most this many facts steer one deal: a guard on a deal's cost, not a teaching choice. A
# child's working set over the games personal practice offers (a few facts for each game,
# merged, up to 33 for three games) stays under it, as the teaching layer's tests check: a cut
# would drop the set's last facts, its reviews and new facts.
MAX_FOCUS_FACTS = 64


def fact_value(fact: Fact) -> int:
    """The fact's answer: a + b, a - b or a x b."""
    operation, a, b = fact
    return a + b if operation == "add" else a - b if operation == "sub" else a * b


def same_fact(fact: Fact, other: Fact) -> bool:
    """Whether ``other`` is ``fact`` as a deal can offer it: a sum or a product is one pair of
    cards whichever way round the child reads it (the deal cannot choose which of 7 x 8 and 8 x 7
    the child says), a difference is ordered."""
    if fact[0] != other[0]:
        return False
    if fact[0] == "sub":
        return fact[1:] == other[1:]
    return sorted(fact[1:]) == sorted(other[1:])


def attempt_fact(event: Event) -> Fact | None:
    """The fact an attempt event asked (two operands, one of +, -, x), or None."""
    operands = event.get("operands")
    operation = {"+": "add", "-": "sub", "x": "mul"}.get(event.get("operator"))
    if operation is None or not isinstance(operands, list) or len(operands) != 2:
        return None
    return (operation, operands[0], operands[1])


@dataclass(frozen=True)
class Focus:
    """What a game's deal can bias toward a child's facts (docs/adding-a-game.md, "Focused
    deals"). A focused deal is still a deal of the rulebook: the same cards, tiles or targets,
    the same rules; only the order or the selection that chance would have given is steered, from
    the same seed, so the same (seed, focus) always deals the same.

    operations  the fact operations the deal can steer ("add", "sub", "mul")
    variants    the variants whose deal can be focused
    how         one sentence for people: what the deal steers
    shows       (variant, fact) -> whether that variant's deck can make the fact a natural move
                at all (¡Mía!'s cards hold no 0, SUM's centre is 1-9); other facts are left to
                chance
    by_bots     the focus is carried by the game's bots, not by its deal: the deal cannot be
                steered (in Add or Multiply? every player holds the same cards), but the numbers
                a child is asked about are the ones the other players choose, so bots playing
                with one child choose the child's facts ("Bots in focused practice" in the rules
                doc). ``game.new(..., focus=)`` checks the facts and deals as usual; the bots need
                ``engine.bots.choose(..., leave=facts, people=seats)`` to know the child's seat,
                and steer only when exactly one seat is a person's. A table of children alone
                cannot be focused.
    """

    operations: frozenset[str]
    variants: tuple[str, ...]
    how: str
    shows: Callable[[str, Fact], bool]
    by_bots: bool = False

    def facts(self, variant: str, focus: Iterable[Any]) -> tuple[Fact, ...]:
        """The focus checked (``SetupError`` "bad_focus") and cut to the facts this variant can
        show, first occurrence first."""
        if isinstance(focus, (str, bytes)) or not isinstance(focus, Iterable):
            raise SetupError("bad_focus", "the focus is a list of facts (operation, a, b)")
        kept: list[Fact] = []
        for item in focus:
            if (
                not isinstance(item, (tuple, list))
                or len(item) != 3
                or item[0] not in FACT_OPERATIONS
                or any(isinstance(n, bool) or not isinstance(n, int) for n in item[1:])
            ):
                raise SetupError("bad_focus", f"{item!r} is not a fact (operation, a, b)")
            fact = (item[0], item[1], item[2])
            if fact[0] not in self.operations:
                raise SetupError("bad_focus", f"this game cannot deal toward {fact[0]!r} facts")
            if fact not in kept and self.shows(variant, fact):
                kept.append(fact)
        if len(kept) > MAX_FOCUS_FACTS:
            kept = kept[:MAX_FOCUS_FACTS]
        return tuple(kept)

    def dealable(self, variant: str, facts: Iterable[Fact]) -> frozenset[Fact]:
        """Which of ``facts`` a focused deal of ``variant`` can steer toward: of an operation the
        deal steers, shown by the variant's deck (``shows``); none for a variant whose deal is
        not focused. The teaching layer asks for its working set among these, so it offers no
        fact the game would leave to chance."""
        if variant not in self.variants:
            return frozenset()
        return frozenset(
            (fact[0], fact[1], fact[2])
            for fact in facts
            if fact[0] in self.operations and self.shows(variant, (fact[0], fact[1], fact[2]))
        )


def swap_in(
    cards: list, position: int, wanted: Callable[[Any], bool], rng: Rng, keep: set[int]
) -> bool:
    """Puts at ``position`` of ``cards`` a card that ``wanted`` accepts, chosen by ``rng`` among
    the positions not in ``keep`` (already steered), by swapping the two: the list stays a
    permutation of the same cards. False (nothing moved) when no such card is left."""
    if wanted(cards[position]) and position not in keep:
        keep.add(position)
        return True
    found = [i for i, card in enumerate(cards) if i not in keep and i != position and wanted(card)]
    if not found:
        return False
    other = rng.choice(found)
    cards[position], cards[other] = cards[other], cards[position]
    keep.add(position)
    return True


@dataclass(frozen=True)
class PuzzleDeal:
    """One puzzle: the deal ``seed`` of its variant, and how hard it is (1 gentle to 5 tricky);
    ``focus``: the facts it was steered toward, if any."""

    seed: int
    difficulty: int
    focus: tuple = ()


@dataclass(frozen=True)
class Puzzles:
    """A game's solo puzzles, which the platform sets as homework (docs/adding-a-game.md).

    sizes      size -> the one-player variant that plays a puzzle of that size, in the order
               pages offer them (the size is the number a teacher picks: a square's width)
    generate   (size, difficulty 1-5, seed) -> a deal (anything with ``seed`` and ``difficulty``,
               such as PuzzleDeal) that ``game.new(variant=sizes[size], players=1, seed=deal.seed)``
               sets up; the same arguments always give the same deal, and a different seed
               usually another one. Its difficulty is the closest it found to the one asked.
               A game whose ``focus`` covers its puzzle variants also takes ``focus=`` facts:
               the deal is then steered toward them (its solution claims them where the cards
               allow) and carries them as ``deal.focus``, which ``game.new(..., focus=)`` needs
               to set it up again.
    max_stars  the best ``Outcome.scores[0]`` of a finished puzzle (its stars; 0 when lost)
    """

    sizes: Mapping[int, str]
    generate: Callable[..., Any]
    max_stars: int

    def variant(self, size: int) -> str:
        return self.sizes[size]

    def size_of(self, variant: str) -> int | None:
        return next((size for size, name in self.sizes.items() if name == variant), None)


# --- arithmetic attempts -------------------------------------------------------------------------

_OPERATION_NAMES = {"+": "add", "-": "sub", "x": "mul", "÷": "div", "mixed": "mixed"}


def skill_tag(operator: str, numbers: Iterable[int]) -> str:
    """Operation and number range, e.g. ``add.within10``: the range of the largest number of the
    problem (its operands, its true result and any target it sets), so a teacher sees
    "subtraction within 20" as one skill. Just the operation when the problem has no number."""
    numbers = [abs(n) for n in numbers]
    if not numbers:
        return _OPERATION_NAMES[operator]
    largest = max(numbers)
    if largest <= 10:
        band = "within10"
    elif largest <= 20:
        band = "within20"
    elif largest <= 100:
        band = "within100"
    else:
        band = "over100"
    return f"{_OPERATION_NAMES[operator]}.{band}"


def attempt_event(
    *,
    seat: int,
    operands: list[int],
    operator: str,
    answer: int | None,
    expected: int | None,
    correct: bool,
    elapsed_ms: int,
    target: int | None = None,
    **extra: Any,
) -> Event:
    """The attempt event (docs/architecture.md, "Contracts"). The problem's numbers are
    ``operands``, ``expected`` (their true result) and, in the games where a child makes a number on
    the table (¡Mía!, SUM), ``target``; the child's number is ``answer`` (typed, laid or claimed: in
    ¡Mía! and SUM the child claims that their cards make the target, so it is the target). The
    skill's range is the problem's, never the answer's: 3 + 4 typed as 12 is addition within 10.
    ``extra`` may add game-specific keys (for example ``expression``)."""
    problem = [*operands, *(v for v in (expected, target) if isinstance(v, int))]
    event: Event = {
        "type": "attempt",
        "seat": seat,
        "operands": list(operands),
        "operator": operator,
        "answer": answer,
        "expected": expected,
        "correct": bool(correct),
        "elapsed_ms": max(0, int(elapsed_ms)),
        "skill": skill_tag(operator, problem),
    }
    if target is not None:
        event["target"] = target
    event.update(extra)
    return event
