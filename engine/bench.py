"""Engine benchmark: ``python -m engine.bench [--games N] [--bot-games N] [--only SLUG]``.

Prints, per game: the median microseconds of one ``apply`` plus the acting seat's ``view`` over
random play, random games per second, Mathable's ``legal_moves`` time mid-game, the solo puzzle
generation time, and bot win rates (strong against random). Figures, not assertions: this machine
is noisy, so compare medians measured in one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine.simulate import arena, play, random_legal

# The variant and player count each figure is taken at (a typical classroom table).
TABLES = {
    "mia": [("express", 3), ("party", 4), ("canada47", 3), ("solo5", 1)],
    "sum": [("standard", 3)],
    "add_up": [("standard", 3), ("no_jokers", 2)],
    "mathable_junior": [("front", 3), ("back", 3)],
    "add_or_multiply": [("standard", 3)],
}
ARENA_TABLES = {
    "mia": ("canada47", 2),
    "sum": ("standard", 2),
    "add_up": ("standard", 2),
    "mathable_junior": ("front", 2),
    "add_or_multiply": ("standard", 3),
}


def apply_view_micros(game, variant, players, games):
    """Plays random games, then times apply + the acting seat's view of each move again."""
    samples = []
    for seed in range(games):
        state = game.new(variant=variant, players=players, seed=seed)
        done = play(game, state, [random_legal] * players, random.Random(seed), keep_states=True)
        for before, (seat, move, now) in zip(done.states, done.steps, strict=False):
            if move is None:
                continue
            start = time.perf_counter()
            step = game.apply(before, seat, move, now)
            game.view(step.state, seat)
            samples.append((time.perf_counter() - start) * 1e6)
    return samples


def games_per_second(game, variant, players, games):
    start = time.perf_counter()
    for seed in range(games):
        state = game.new(variant=variant, players=players, seed=1000 + seed)
        play(game, state, [random_legal] * players, random.Random(seed))
    return games / (time.perf_counter() - start)


def mathable_legal_moves_ms(variant, games):
    game = engine.get_game("mathable_junior")
    samples = []
    for seed in range(games):
        state = game.new(variant=variant, players=3, seed=seed)
        done = play(game, state, [random_legal] * 3, random.Random(seed), keep_states=True)
        middle = done.states[len(done.states) // 2]
        for seat in game.active(middle):
            start = time.perf_counter()
            game.legal_moves(middle, seat)
            samples.append((time.perf_counter() - start) * 1e3)
    return samples


def solo_generation_ms(size, count):
    from engine import mia_solo

    samples = []
    for seed in range(count):
        start = time.perf_counter()
        mia_solo.generate_puzzles(size, 1, seed)
        samples.append((time.perf_counter() - start) * 1e3)
    return samples


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per table")
    parser.add_argument("--bot-games", type=int, default=200, help="games per bot arena")
    parser.add_argument("--only", choices=sorted(TABLES), help="one game only")
    args = parser.parse_args(argv)

    slugs = [args.only] if args.only else list(TABLES)
    print("engine benchmark (medians; this machine is noisy, compare within one run)")
    for slug in slugs:
        game = engine.get_game(slug)
        print(f"\n{slug}")
        for variant, players in TABLES[slug]:
            samples = apply_view_micros(game, variant, players, args.games)
            rate = games_per_second(game, variant, players, args.games)
            median = statistics.median(samples)
            print(
                f"  {variant:<10} {players}p  apply+view median {median:7.1f} us"
                f"  p95 {sorted(samples)[int(len(samples) * 0.95)]:7.1f} us"
                f"  ({len(samples)} moves)  random games/s {rate:7.1f}"
            )
        if slug == "mathable_junior":
            for variant in ("front", "back"):
                ms = mathable_legal_moves_ms(variant, args.games)
                print(
                    f"  legal_moves mid-game ({variant}): median {statistics.median(ms):.3f} ms,"
                    f" max {max(ms):.3f} ms"
                )
        if slug == "mia":
            for size in (5, 4, 3):
                ms = solo_generation_ms(size, max(5, args.games // 2))
                print(
                    f"  solo{size} puzzle generation: median {statistics.median(ms):.0f} ms,"
                    f" max {max(ms):.0f} ms"
                )
        if args.bot_games:
            variant, players = ARENA_TABLES[slug]
            others = players - 1
            # arena() sums the wins of every seat of a level; per seat is the fair comparison.
            random_rates = arena(game, variant, ["strong"] + ["random"] * others, args.bot_games)
            easy_rates = arena(game, variant, ["strong"] + ["easy"] * others, args.bot_games)
            per_random_seat = random_rates["random"] / others
            per_easy_seat = easy_rates["easy"] / others
            print(
                f"  bots ({variant}, {players}p, {args.bot_games} games, win share per seat):"
                f" strong {random_rates['strong']:.0%} vs random {per_random_seat:.0%};"
                f" strong {easy_rates['strong']:.0%} vs easy {per_easy_seat:.0%}"
            )


if __name__ == "__main__":
    main()
