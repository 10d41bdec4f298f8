"""¡Mía! solo square: the solver, and the hints and bots that play by it (docs/rules/mia_solo.md).

The solver may read the whole deal (the deck order is fixed by the seed); the rules it plays by
are ``engine.mia_solo``'s.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.mia_solo import (
    DRAW_AFTER_SOLVE,
    SWAP_SIZE,
    _right_solves,
    _solving_pairs,
    legal_moves,
    number_values,
    open_cells,
)

# --- the solver ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchResult:
    """What ``search`` found. ``moves`` is None when no clearing line was found; ``exact`` says
    the search was complete (so ``swaps`` is the true minimum, or None means no line at all)."""

    moves: list[dict] | None
    swaps: int | None
    exact: bool
    nodes: int
    dead_ends: int


class _OutOfNodes(Exception):
    pass


def _without(hand: tuple[int, ...], i: int, j: int, drawn: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(hand[:i] + hand[i + 1 : j] + hand[j + 1 :] + drawn))


def _distinct_pairs(hand: tuple[int, ...]):
    """Index pairs (i < j) of a sorted hand, one per distinct pair of values."""
    seen = set()
    for i in range(len(hand)):
        for j in range(i + 1, len(hand)):
            pair = (hand[i], hand[j])
            if pair not in seen:
                seen.add(pair)
                yield i, j, pair


class _Search:
    """Iterative deepening on the number of swaps over positions (mask, hand values, swaps used).

    With perfect knowledge of the deck the position is all that matters: the deck has advanced by
    2 cards per solve and per swap, so (mask, hand, swaps) fixes it. ``failed`` remembers the
    largest swap budget a position was proved to fail with; it is shared by all depths."""

    def __init__(self, size, cards, hand, deck, node_limit, total_node_limit):
        self.size = size
        self.cards = cards  # cell -> operation card id (None when empty)
        self.deck = deck  # values, next first
        self.start_hand = hand
        self.node_limit = node_limit
        self.total_node_limit = total_node_limit
        self.nodes = 0  # positions expanded at the current budget
        self.total_nodes = 0
        self.dead_ends = 0
        self.failed: dict[tuple[int, tuple[int, ...], int], int] = {}
        self.full = sum(1 << c for c, card in enumerate(cards) if card is not None)

    def most_useful_swaps(self) -> int:
        """Each solve uses 2 cards and each swap throws 2 away, while the pool (hand + deck) only
        shrinks; so the swaps a clearing line can afford are (pool - 2 * cards left) / 2, and no
        budget beyond that (or beyond what the deck can give) is worth searching."""
        pool = len(self.start_hand) + len(self.deck)
        spare = pool - 2 * self.full.bit_count()
        return min(len(self.deck) // SWAP_SIZE, spare // SWAP_SIZE) if spare >= 0 else -1

    def run(self, max_swaps: int):
        """The first (fewest swaps) line found, with an exactness flag."""
        exact = True
        for budget in range(min(max_swaps, self.most_useful_swaps()) + 1):
            self.dead_ends = 0
            self.nodes = 0
            try:
                line = self._dfs(self.full, self.start_hand, 0, budget)
            except _OutOfNodes:
                # This budget was not searched through: a line found later may not be minimal.
                exact = False
                if self.total_node_limit is not None and self.total_nodes >= self.total_node_limit:
                    break
                continue
            if line is not None:
                return line, budget, exact
        return None, None, exact

    def _dfs(self, mask, hand, swaps, budget):
        if mask == 0:
            return []
        key = (mask, hand, swaps)
        if self.failed.get(key, -1) >= budget:
            return None
        self.nodes += 1
        self.total_nodes += 1
        if (self.node_limit is not None and self.nodes > self.node_limit) or (
            self.total_node_limit is not None and self.total_nodes > self.total_node_limit
        ):
            raise _OutOfNodes
        deck = self.deck
        cleared = (self.full & ~mask).bit_count()
        position = min(len(deck), DRAW_AFTER_SOLVE * (cleared + swaps))
        drawn = tuple(deck[position : position + DRAW_AFTER_SOLVE])
        solving = _solving_pairs()
        pairs = list(_distinct_pairs(hand))
        for cell in open_cells(self.size, mask):
            card_pairs = solving[self.cards[cell]]
            for i, j, pair in pairs:
                if pair in card_pairs:
                    rest = self._dfs(
                        mask & ~(1 << cell), _without(hand, i, j, drawn), swaps, budget
                    )
                    if rest is not None:
                        return [("solve", cell, pair, card_pairs[pair]), *rest]
        if budget > 0 and len(deck) - position >= SWAP_SIZE:
            for i, j, pair in pairs:
                rest = self._dfs(mask, _without(hand, i, j, drawn), swaps + 1, budget - 1)
                if rest is not None:
                    return [("swap", pair), *rest]
        self.failed[key] = budget
        self.dead_ends += 1
        return None


def _to_moves(data: dict, line) -> list[dict]:
    """Turn a line of (cell, value pair) steps into real moves with card ids, by replaying it."""
    size = data["size"]
    values = number_values()
    hand = list(data["hand"])
    deck = list(data["deck"])
    moves = []
    for step in line:
        pair = step[2] if step[0] == "solve" else step[1]
        first = next(c for c in hand if values[c] == pair[0])
        second = next(c for c in hand if values[c] == pair[1] and c != first)
        if hand.index(second) < hand.index(first):
            first, second = second, first  # in hand order, as legal_moves lists them
        if step[0] == "solve":
            cell = step[1]
            moves.append(
                {
                    "type": "solve",
                    "row": cell // size,
                    "col": cell % size,
                    "cards": [first, second],
                    "option": step[3],
                }
            )
        else:
            moves.append({"type": "swap", "cards": [first, second]})
        hand.remove(first)
        hand.remove(second)
        hand += deck[:2]
        del deck[:2]
    return moves


def search(
    state,
    *,
    max_swaps: int | None = None,
    node_limit: int | None = 200_000,
    total_node_limit: int | None = None,
) -> SearchResult:
    """Find a line that clears the square with the fewest swaps, reading the deck order.

    ``node_limit`` bounds the positions searched at each swap budget and ``total_node_limit`` all
    of them (None: no bound). When a budget runs out of nodes the search goes on with the next
    one and the result is marked inexact: a line it finds clears the square, but maybe not with
    the fewest swaps, and None then means "none found", not "none exists"."""
    data = state.data
    if data["result"] == "won":
        return SearchResult([], 0, True, 0, 0)
    if data["result"] == "lost":
        return SearchResult(None, None, True, 0, 0)
    values = number_values()
    deck = tuple(values[c] for c in data["deck"])
    hand = tuple(sorted(values[c] for c in data["hand"]))
    solver = _Search(data["size"], list(data["grid"]), hand, deck, node_limit, total_node_limit)
    line, swaps, exact = solver.run(len(deck) if max_swaps is None else max_swaps)
    moves = None if line is None else _to_moves(data, line)
    return SearchResult(moves, swaps, exact, solver.total_nodes, solver.dead_ends)


def solve(
    state, *, node_limit: int | None = 200_000, total_node_limit: int | None = 1_000_000
) -> list[dict] | None:
    """A move sequence that clears the square with the fewest swaps, or None when none was found.
    Every step of it is a right solve or a swap; replaying it with ``apply`` wins the game. The
    limits are far above what deals need (a few thousand positions at most, see the doc)."""
    return search(state, node_limit=node_limit, total_node_limit=total_node_limit).moves


# --- hints and bots ------------------------------------------------------------------------------

# A hint must come back at once: at most 20,000 positions (about 0.2 s here) even from a spoiled
# position; a winnable one is almost always found in fewer than 100.
_HINT_NODE_LIMIT = 5_000
_HINT_TOTAL_NODE_LIMIT = 20_000


def hint(state, seat) -> dict | None:
    """A right move on a winning line when the solver finds one; otherwise any right solve, or a
    swap when no solve is right (being stuck, the swap is the right move); None when over."""
    data = state.data
    if data["result"] is not None or seat != 0:
        return None
    found = search(
        state, node_limit=_HINT_NODE_LIMIT, total_node_limit=_HINT_TOTAL_NODE_LIMIT
    ).moves
    if found:
        return found[0]
    right = _right_solves(data)
    if right:
        return right[0]
    if len(data["deck"]) >= SWAP_SIZE and len(data["hand"]) >= 2:
        return {"type": "swap", "cards": data["hand"][:2]}
    return None


def bot_move(state, seat, level: str, rng) -> dict | None:
    """random: any legal move, uniformly (wrong solves included); easy: the first right solve
    found, else swap the first two cards; strong: the solver's next move (it reads the deck)."""
    data = state.data
    if data["result"] is not None or seat != 0:
        return None
    if level == "random":
        moves = legal_moves(state, seat)
        return rng.choice(moves) if moves else None
    if level == "easy":
        right = _right_solves(data)
        if right:
            return right[0]
        if len(data["deck"]) >= SWAP_SIZE:
            return {"type": "swap", "cards": data["hand"][:2]}
        return None
    if level == "strong":
        return hint(state, seat)
    raise ValueError(f"unknown bot level {level!r}")
