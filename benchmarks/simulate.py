"""Balance simulation speed: 2,000 simulated games of 146 on every core, as `python -m engine simulate` plays them.

The figure is wall-clock games a second, the processes started included; the target is the whole run
in under 2 minutes on the 2-core machine. The players are the human-like ones (the default).

    .venv/bin/python benchmarks/simulate.py [--games N] [--ruleset 146] [--players human|uniform]
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import balance  # noqa: E402
from rulesets import get  # noqa: E402

TARGET = 120.0  # seconds for 2,000 games of 146


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ruleset", default="146")
    parser.add_argument("--players", default="human", choices=("human", "uniform"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args()
    kinds = {"*": args.players}
    start = time.perf_counter()
    summaries = balance.run(args.ruleset, args.games, 0, kinds, {}, jobs=args.jobs)
    took = time.perf_counter() - start
    print(balance.table(get(args.ruleset), summaries, kinds, 0, {}))
    scaled = took * 2000 / args.games
    print(f"simulate: {args.games} games of {args.ruleset} ({args.players}) on {args.jobs} processes in {took:.1f} s: "
          f"{args.games / took:.1f} games/s; 2,000 games would take {scaled:.0f} s (target < {TARGET:.0f} s)")


if __name__ == "__main__":
    main()
