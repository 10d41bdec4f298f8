"""¡Mía!'s solo square as homework puzzles: the puzzle maker (RULINGS 1 "Solo NxN";
docs/rules/mia_solo.md, "Puzzles"). It rates a deal by how a player who cannot see the deck fares
(``rate_deal``) and picks deals of a wished difficulty (``generate_puzzle``, ``generate_puzzles``),
playing them through the game it is given (``engine.mia.GAME``), whose solo rules are
``engine.mia_solo``.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from itertools import combinations

from engine import core
from engine.mia_cards import operation_cards
from engine.mia_solo import (
    SIZES,
    SWAP_SIZE,
    THREE_STARS_MAX_SWAPS,
    _right_solves,
    _solving_pairs,
    mask_of,
    number_values,
    open_cells,
    stars_for,
)
from engine.mia_solver import search


@dataclass(frozen=True)
class Puzzle:
    """A deal (``seed`` of ``variant``) that perfect play clears.

    swaps       the fewest swaps a clearing line needs (proved by the solver)
    difficulty  1 (forgiving) to 5 (treacherous), from how a player who cannot see the deck fares:
                ``plain_win_rate`` of lines that play a random right solve, or swap when stuck
    plain_swaps the mean swaps those lines used (lost lines count as MAX_PLAIN_PENALTY)
    choices     the mean number of right solves on offer along the solver's line
    dead_ends   positions the solver proved lost before it found its line
    """

    seed: int
    variant: str
    difficulty: int
    swaps: int
    plain_win_rate: float
    plain_swaps: float
    choices: float
    dead_ends: int
    solution: tuple = field(default=(), compare=False, hash=False, repr=False)
    # The facts the deal was steered toward: ``game.new(..., seed=seed, focus=focus)`` deals it.
    focus: tuple = ()


PLAIN_LINES = 64  # sampled plain lines per deal: a stable rating, still far below 1 s per puzzle
MAX_PLAIN_PENALTY = 6  # a lost plain line weighs as much as six swaps
# Difficulty thresholds on the plain score (mean swaps, a lost line counting MAX_PLAIN_PENALTY), per
# size: the quintiles of 1,000 deals (seeds 0-999); docs/rules/mia_solo.md shows how to recompute.
DIFFICULTY_CUTS = {
    5: (0.48, 0.67, 0.9, 1.26),
    4: (0.36, 0.58, 0.8, 1.2),
    3: (0.23, 0.41, 0.62, 1.0),
}


_PAIRS = {n: tuple(combinations(range(n), 2)) for n in range(SWAP_SIZE * 4)}


def _plain_score(state, lines: int, rng: random.Random) -> tuple[float, float]:
    """Play ``lines`` lines of "a random right solve, else swap two random cards" on the values
    (no events, no copies of the state), returning the win rate and the mean swap score."""
    data = state.data
    size = data["size"]
    values = number_values()
    solving = _solving_pairs()
    cards = data["grid"]
    start_mask = mask_of(cards)
    start_hand = [values[c] for c in data["hand"]]
    deck = [values[c] for c in data["deck"]]
    wins = 0
    total = 0.0
    for _ in range(lines):
        mask, hand, position, swaps = start_mask, list(start_hand), 0, 0
        while mask:
            # Each pair of the hand once, then the cells: the same list, in the same order, as
            # looking at every pair again for every cell.
            pairs = [
                ((hand[i], hand[j]) if hand[i] <= hand[j] else (hand[j], hand[i]), i, j)
                for i, j in _PAIRS[len(hand)]
            ]
            right = [
                (cell, i, j)
                for cell in open_cells(size, mask)
                for solves in (solving[cards[cell]],)
                for key, i, j in pairs
                if key in solves
            ]
            if right:
                cell, i, j = rng.choice(right)
                mask &= ~(1 << cell)
            elif len(deck) - position >= SWAP_SIZE:
                i, j = rng.sample(range(len(hand)), 2)
                swaps += 1
            else:
                break
            hand = [v for k, v in enumerate(hand) if k not in (i, j)]
            if mask:
                hand += deck[position : position + 2]
                position = min(len(deck), position + 2)
        if mask:
            total += MAX_PLAIN_PENALTY
        else:
            wins += 1
            total += min(swaps, MAX_PLAIN_PENALTY)
    return wins / lines, total / lines


def _choices_along(game: core.Game, state, moves: list[dict]) -> float:
    """Mean number of distinct right solves (cell and value pair) offered along a line."""
    values = number_values()
    counts = []
    for move in moves:
        right = {
            (m["row"], m["col"], tuple(sorted(values[c] for c in m["cards"])))
            for m in _right_solves(state.data)
        }
        counts.append(len(right))
        state = game.apply(state, 0, move, 0).state
    return sum(counts) / len(counts) if counts else 0.0


def rate_deal(
    game: core.Game, variant: str, seed: int, *, node_limit: int = 50_000, focus: tuple = ()
) -> Puzzle | None:
    """The Puzzle of the deal ``seed`` of ``variant`` (steered toward ``focus``) as ``game``
    (¡Mía!) deals it, or None when the solver cannot prove a fewest-swaps line within
    ``node_limit`` positions per budget (no deal of 3,000 tried needed more than a thousand)."""
    state = game.new(variant=variant, players=1, seed=seed, focus=focus)
    found = search(state, node_limit=node_limit)
    if found.moves is None or not found.exact:
        return None
    return _rated(game, variant, seed, state, found, focus)


def _rated(game, variant, seed, state, found, focus) -> Puzzle:
    # The sampler is seeded by the deal's seed, so a deal's rating never changes.
    win_rate, score = _plain_score(state, PLAIN_LINES, random.Random(seed))
    difficulty = 1 + sum(score > cut for cut in DIFFICULTY_CUTS[SIZES[variant]])
    return Puzzle(
        seed=seed,
        variant=variant,
        difficulty=difficulty,
        swaps=found.swaps,
        plain_win_rate=round(win_rate, 3),
        plain_swaps=round(score, 3),
        choices=round(_choices_along(game, state, found.moves), 2),
        dead_ends=found.dead_ends,
        solution=tuple(found.moves),
        focus=tuple(focus),
    )


def solution_facts(state, moves) -> list[core.Fact]:
    """The facts a line's solves claim, as the attempts name them (a difference larger first)."""
    values = number_values()
    grid, size = state.data["grid"], state.data["size"]
    facts: list[core.Fact] = []
    for move in moves:
        if move["type"] != "solve":
            continue
        a, b = (values[card] for card in move["cards"])
        sign = operation_cards()[grid[move["row"] * size + move["col"]]]["options"]
        if sign[move["option"]]["op"] == "+":
            facts.append(("add", a, b))
        else:
            facts.append(("sub", max(a, b), min(a, b)))
    return facts


def focus_share(facts: list[core.Fact], focus) -> float:
    """The share of ``facts`` that are focus facts (0 for none)."""
    if not facts:
        return 0.0
    return sum(any(core.same_fact(f, wanted) for wanted in focus) for f in facts) / len(facts)


def _candidate_seeds(seed: int):
    """An endless, reproducible stream of deal seeds drawn from ``seed`` (31-bit, URL friendly)."""
    word = core.seed_word(seed)
    while True:
        word = (word + 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
        yield core.seed_word(word) >> 33


def _variant_of(size: int) -> str:
    for name, n in SIZES.items():
        if n == size:
            return name
    raise core.SetupError("unknown_variant", f"no solo square of size {size!r}; use 5, 4 or 3")


def generate_puzzles(game: core.Game, size: int, count: int, seed: int) -> list[Puzzle]:
    """``count`` puzzles of an N by N square (N = 5, 4 or 3) whose deals perfect play clears, each
    rated; the same arguments always give the same puzzles."""
    variant = _variant_of(size)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise core.SetupError("bad_count", "count must be a whole number, 0 or more")
    puzzles: list[Puzzle] = []
    for candidate in _candidate_seeds(seed):
        if len(puzzles) == count:
            return puzzles
        puzzle = rate_deal(game, variant, candidate)
        if puzzle is not None:
            puzzles.append(puzzle)
    raise AssertionError("unreachable: the candidate stream is endless")


# A focused puzzle: the focused deals searched for the one whose solution claims the most focus
# facts. Only that one is rated: a rating costs tens of searches, and a focused puzzle must come
# within a child's wait (docs/rules/mia_solo.md, "Focused puzzles").
FOCUS_CANDIDATES = 8


def generate_focused_puzzle(
    game: core.Game, size: int, difficulty: int, seed: int, focus
) -> Puzzle:
    """A puzzle steered toward ``focus`` whose solution claims the focus facts where the cards
    allow: of ``FOCUS_CANDIDATES`` focused deals that perfect play clears, the one whose solver's
    line claims the largest share of focus facts (the fewest swaps, then the nearest to the
    wished ``difficulty`` in swaps, breaking ties). The facts come first: its difficulty is
    rated, and may be another than the one asked (focused deals are mostly gentle)."""
    variant = _variant_of(size)
    facts = game.focus.facts(variant, focus)
    best = None
    for attempt, candidate in enumerate(_candidate_seeds(seed)):
        if attempt >= FOCUS_CANDIDATES and best is not None:
            break
        if attempt >= 20 * FOCUS_CANDIDATES:
            raise core.SetupError("no_puzzle", "no clearable deal found; try another seed")
        state = game.new(variant=variant, players=1, seed=candidate, focus=facts)
        found = search(state, node_limit=50_000)
        if found.moves is None or not found.exact:
            continue
        share = focus_share(solution_facts(state, found.moves), facts)
        # Harder puzzles need more swaps: a tie goes to the swaps nearest the wished difficulty.
        rank = (-share, abs(found.swaps - (difficulty - 1) // 2), attempt)
        if best is None or rank < best[0]:
            best = (rank, candidate, state, found)
    _rank, candidate, state, found = best
    return _rated(game, variant, candidate, state, found, facts)


def generate_puzzle(
    game: core.Game, size: int, difficulty: int, seed: int, *, tries: int = 200, focus=None
) -> Puzzle:
    """One puzzle of the wished difficulty (1-5); the closest one met within ``tries`` deals when
    none matches exactly. With ``focus`` (facts), a puzzle steered toward them
    (``generate_focused_puzzle``); none, or an empty list, is the puzzle without focus."""
    if isinstance(difficulty, bool) or not isinstance(difficulty, int) or not 1 <= difficulty <= 5:
        raise core.SetupError("bad_difficulty", "difficulty must be a whole number from 1 to 5")
    if focus:
        return generate_focused_puzzle(game, size, difficulty, seed, focus)
    variant = _variant_of(size)
    best = None
    for attempt, candidate in enumerate(_candidate_seeds(seed)):
        if attempt >= tries:
            break
        puzzle = rate_deal(game, variant, candidate)
        if puzzle is None:
            continue
        if puzzle.difficulty == difficulty:
            return puzzle
        if best is None or abs(puzzle.difficulty - difficulty) < abs(best.difficulty - difficulty):
            best = puzzle
    if best is None:
        raise core.SetupError("no_puzzle", "no clearable deal found; try another seed")
    return best


def puzzles_of(game: core.Game) -> core.Puzzles:
    """The solo square as ``game``'s homework puzzles (engine.core.Puzzles): a teacher picks the
    square's width. ``engine.mia.Mia`` declares them with itself, so that this module needs no
    import of it."""
    return core.Puzzles(
        sizes={3: "solo3", 4: "solo4", 5: "solo5"},
        generate=functools.partial(generate_puzzle, game),
        max_stars=stars_for(THREE_STARS_MAX_SWAPS),
    )
