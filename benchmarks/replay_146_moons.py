"""Replaying 146 with its new moons costs no more per step than without them.

Plays the same random games as tests/test_random_games_146.py (seeds 0..N-1) once with the post's
events and once with `moons: none`, keeps each game's accepted commands, then times replaying them on
a fresh game (what the bot does for every game at start-up, and `python -m engine replay`), and prints
the microseconds per command of each and their ratio (target: ≤ 1.0, within noise).

    .venv/bin/python benchmarks/replay_146_moons.py [GAMES]
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from engine import Game  # noqa: E402
from test_random_games_146 import RULES, play  # noqa: E402


def logs(games: int, options: dict | None) -> list[tuple[list, dict, int, list]]:
    out = []
    for seed in range(games):
        run = play(seed, options)
        out.append((run.roster, run.options, seed, [cmd for cmd, _, _ in run.accepted]))
    return out


def per_step(games: list, rounds: int = 3) -> float:
    best = float("inf")
    steps = sum(len(cmds) for *_, cmds in games)
    for _ in range(rounds):
        start = time.perf_counter()
        for roster, options, seed, cmds in games:
            g = Game(RULES, roster, seed=seed, options=options)
            for cmd in cmds:
                g.apply(cmd)
        best = min(best, time.perf_counter() - start)
    return best / steps * 1e6


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with_moons, without = logs(n, None), logs(n, {"moons": "none"})
    a, b = per_step(with_moons), per_step(without)
    print(f"146 replay, {n} random games each")
    print(f"  with the post's new moons: {a:8.1f} µs per command ({sum(len(c) for *_, c in with_moons)} commands)")
    print(f"  moons: none              : {b:8.1f} µs per command ({sum(len(c) for *_, c in without)} commands)")
    print(f"  ratio (target ≤ 1.0)     : {a / b:8.2f}")


if __name__ == "__main__":
    main()
