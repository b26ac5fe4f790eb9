"""Engine speed: random M131 games per second on one core.

The games are those of the random-game test (tests/test_random_games.py): the same phase drivers and
the same mix of accepted and refused commands (about half are refused), without the test's invariant
checks, which cost far more than the engine. The figure is the engine's: games per second of time
spent in `Game.apply`; the drivers' own random choices are shown apart.

    .venv/bin/python benchmarks/engine_games.py [--games N] [--rounds R]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[1] / "tests")]

import test_random_games as m131  # noqa: E402
from engine import Game, deal  # noqa: E402
from random_play import Chooser  # noqa: E402

TARGET = 500.0  # games per second


class Lean(m131.Run):
    """A random game as the test plays it, every command applied and timed, nothing checked."""

    def __init__(self, ch: Chooser, seed: int):
        self.rules, self.ch, self.seed = m131.RULES, ch, seed
        self.roster = deal(self.rules, m131.NAMES, seed)
        self.names = [n for n, _ in self.roster]
        self.role = dict(self.roster)
        self.g = Game(self.rules, self.roster, seed=seed)
        self.keys: list[str] = []
        self.phases = 0
        self.night_acts = {}
        self.where = ("setup", 0, 0)
        self.commands = 0
        self.refused = 0
        self.engine = 0.0  # seconds in Game.apply

    def do(self, cmd):
        where = (self.s.phase, self.s.night_no, self.s.day_no)
        start = time.perf_counter()
        out = self.g.apply(cmd)
        self.engine += time.perf_counter() - start
        self.commands += 1
        if out.ok:
            self.keys += [e.key for e in out.events if type(e).__name__ == "DeadlineStart"]
        else:
            self.refused += 1
        if (self.s.phase, self.s.night_no, self.s.day_no) != where:
            self.phases += 1
        return out

    def check(self, cond, tag, what):
        pass


def play(seed: int) -> Lean:
    ch = Chooser(random.Random(seed))
    run = Lean(ch, seed=ch.int(0, 10_000))
    while run.s.phase != "over" and run.phases < m131.MAX_PHASES:
        where = (run.s.phase, run.s.night_no, run.s.day_no)
        {"setup": m131.setup, "night": m131.night, "day": m131.day}[run.s.phase](run)
        if (run.s.phase, run.s.night_no, run.s.day_no) == where:
            break
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=5, help="the best round counts (the machine may be busy)")
    args = parser.parse_args()
    best = None
    for _ in range(args.rounds):
        start = time.process_time()
        runs = [play(i) for i in range(args.games)]
        whole = time.process_time() - start
        engine = sum(r.engine for r in runs)
        if best is None or engine < best[0]:
            best = (engine, whole, runs)
    engine, whole, runs = best
    commands = sum(r.commands for r in runs)
    refused = sum(r.refused for r in runs)
    rate = args.games / engine
    print(f"engine: {args.games} random M131 games, {commands} commands ({refused / commands:.0%} refused), best of {args.rounds} rounds")
    print(f"engine: {engine / commands * 1e6:.1f} µs per command in Game.apply; with the drivers' choices {whole / args.games * 1e3:.2f} ms per game")
    print(f"engine: {rate:.0f} games/s; ratio to the target of {TARGET:.0f}: {rate / TARGET:.2f} (≥ 1 meets it)")


if __name__ == "__main__":
    main()
