"""Engine benchmark: ``python -m engine.bench [--games N] [--bot-games N] [--only SLUG]``.

Prints, per registered game at the tables it declares (``Game.bench_tables``): the median
microseconds of one ``apply`` plus the acting seat's ``view`` over random play, random games per
second, figures of a game's own hot spot (Mathable's ``legal_moves`` mid-game, the solo puzzle
generation time), the time of a deal or puzzle focused on a child's facts (one child, and a class
of 30 with 30 different focuses), and bot win rates (strong against random). Figures, not
assertions: this machine is noisy, so compare medians measured in one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from engine.simulate import arena, bot_chooser, play, random_legal


def bench_tables(game) -> list[tuple[str, int]]:
    """The tables a game is timed at: its declared ``bench_tables``, else each variant at three
    players or as near as the variant allows."""
    if game.bench_tables:
        return list(game.bench_tables)
    return [
        (name, min(max(3, spec.min_players), spec.max_players))
        for name, spec in game.variants.items()
    ]


def arena_table(game) -> tuple[str, int] | None:
    """Where the game's bots play each other: its declared ``arena_table``, else its first bench
    table of two players or more (None: a game only played alone has no arena)."""
    if game.arena_table is not None:
        return game.arena_table
    return next(((v, players) for v, players in bench_tables(game) if players >= 2), None)


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
    from engine import mia_puzzles
    from engine.mia import GAME

    samples = []
    for seed in range(count):
        start = time.perf_counter()
        mia_puzzles.generate_puzzles(GAME, size, 1, seed)
        samples.append((time.perf_counter() - start) * 1e3)
    return samples


def mathable_figures(games):
    for variant in ("front", "back"):
        ms = mathable_legal_moves_ms(variant, games)
        print(
            f"  legal_moves mid-game ({variant}): median {statistics.median(ms):.3f} ms,"
            f" max {max(ms):.3f} ms"
        )


def solo_figures(games):
    for size in (5, 4, 3):
        ms = solo_generation_ms(size, max(5, games // 2))
        print(
            f"  solo{size} puzzle generation: median {statistics.median(ms):.0f} ms,"
            f" max {max(ms):.0f} ms"
        )


def calm_figures(games):
    """¡Mía!'s calm table (option calm): every bot level plays it to the end, no timer firing."""
    options = {"calm": True}
    game = engine.get_game("mia")
    start = time.perf_counter()
    ticks = 0
    for seed in range(games):
        state = game.new(variant="party", players=4, seed=seed, options=options)
        levels = ["random", "easy", "strong", "easy"]
        choosers = [bot_chooser(level) for level in levels]
        ticks += len(play(game, state, choosers, random.Random(seed)).ticks)
    rate = games / (time.perf_counter() - start)
    rates = arena(game, "party", ["strong", "easy", "easy"], max(4, games), options=options)
    print(
        f"  calm party 4p bot games/s {rate:7.1f} ({ticks} timer ticks);"
        f" strong {rates['strong']:.0%} vs easy {rates['easy'] / 2:.0%} per seat"
    )


def mia_figures(games):
    solo_figures(games)
    calm_figures(games)


CLASS_SIZE = 30  # a class: focused deals or puzzles for 30 children, each with their own facts
FOCUS_FACTS = 24  # a child's focus: their working set for three games, merged


def class_focuses(game, variant, count, seed=0) -> list[list[tuple]]:
    """``count`` different focuses of ``FOCUS_FACTS`` facts each that ``variant`` shows, drawn from
    the addition and subtraction facts to 10 + 10 and the times table (as the teaching layer's)."""
    facts = [
        (operation, a, b)
        for operation in sorted(game.focus.operations)
        for a in range(11)
        for b in range(11)
        if game.focus.shows(variant, (operation, a, b))
    ]
    rng = random.Random(seed)
    return [rng.sample(facts, min(FOCUS_FACTS, len(facts))) for _ in range(count)]


def focused_deal_figures(game, games):
    """Per focus variant: the median ms of one focused deal, and of a class's 30 deals."""
    for variant in game.focus.variants:
        if game.puzzles is not None and game.puzzles.size_of(variant) is not None:
            continue  # a puzzle's deal is timed with the puzzle
        spec = game.variants[variant]
        players = min(max(3, spec.min_players), spec.max_players)
        one, whole = [], []
        for round_ in range(max(3, games // 4)):
            focuses = class_focuses(game, variant, CLASS_SIZE, seed=round_)
            start = time.perf_counter()
            for child, focus in enumerate(focuses):
                began = time.perf_counter()
                game.new(variant=variant, players=players, seed=child, focus=focus)
                one.append((time.perf_counter() - began) * 1e3)
            whole.append((time.perf_counter() - start) * 1e3)
        print(
            f"  focused deal {variant:<10} {players}p: median {statistics.median(one):.2f} ms,"
            f" a class of {CLASS_SIZE} median {statistics.median(whole):.1f} ms"
        )


def focused_puzzle_figures(game, games):
    """Per puzzle size: the median ms of one focused puzzle, and the ms of a class's 30."""
    for size, variant in game.puzzles.sizes.items():
        focuses = class_focuses(game, variant, CLASS_SIZE)
        one = []
        start = time.perf_counter()
        for child, focus in enumerate(focuses):
            began = time.perf_counter()
            game.puzzles.generate(size, 3, child, focus=focus)
            one.append((time.perf_counter() - began) * 1e3)
        whole = (time.perf_counter() - start) * 1e3
        print(
            f"  focused puzzle {variant}: median {statistics.median(one):.1f} ms,"
            f" max {max(one):.1f} ms, a class of {CLASS_SIZE} {whole:.0f} ms"
        )


def focus_figures(game, games):
    focused_deal_figures(game, games)
    if game.puzzles is not None and set(game.puzzles.sizes.values()) <= set(game.focus.variants):
        focused_puzzle_figures(game, games)


# Figures of one game's known hot spot, beside the figures every game gets; a game needs none.
EXTRA_FIGURES = {"mathable_junior": mathable_figures, "mia": mia_figures}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per table")
    parser.add_argument("--bot-games", type=int, default=200, help="games per bot arena")
    slugs = [game.slug for game in engine.list_games()]
    parser.add_argument("--only", choices=slugs, help="one game only")
    args = parser.parse_args(argv)

    if args.only:
        slugs = [args.only]
    print("engine benchmark (medians; this machine is noisy, compare within one run)")
    for slug in slugs:
        game = engine.get_game(slug)
        print(f"\n{slug}")
        for variant, players in bench_tables(game):
            samples = apply_view_micros(game, variant, players, args.games)
            rate = games_per_second(game, variant, players, args.games)
            median = statistics.median(samples)
            print(
                f"  {variant:<10} {players}p  apply+view median {median:7.1f} us"
                f"  p95 {sorted(samples)[int(len(samples) * 0.95)]:7.1f} us"
                f"  ({len(samples)} moves)  random games/s {rate:7.1f}"
            )
        if slug in EXTRA_FIGURES:
            EXTRA_FIGURES[slug](args.games)
        if game.focus is not None and not game.focus.by_bots:  # a deal steered by bots is plain
            focus_figures(game, args.games)
        arena_at = arena_table(game)
        if args.bot_games and arena_at is not None:
            variant, players = arena_at
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
