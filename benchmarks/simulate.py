"""Balance simulation speed: 2,000 simulated games of 146 on every core, as `python -m engine simulate` plays them.

The figure is wall-clock games a second, the processes started included; the target is the whole run
in under 2 minutes on the 2-core machine. The machine is shared, so the processor time the worker
processes used is shown too, with the wall time it makes on idle cores. The players are the
human-like ones (the default).

    .venv/bin/python benchmarks/simulate.py [--games N] [--ruleset 146] [--players human|uniform]
"""
from __future__ import annotations

import argparse
import os
import resource
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
    start, cpu = time.perf_counter(), time.process_time()
    summaries = balance.run(args.ruleset, args.games, 0, kinds, {}, jobs=args.jobs)
    took = time.perf_counter() - start
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    work = children.ru_utime + children.ru_stime + time.process_time() - cpu
    print(balance.table(get(args.ruleset), summaries, kinds, 0, {}))
    scaled = took * 2000 / args.games
    print(f"simulate: {args.games} games of {args.ruleset} ({args.players}) on {args.jobs} processes in {took:.1f} s: "
          f"{args.games / took:.1f} games/s; 2,000 games would take {scaled:.0f} s (target < {TARGET:.0f} s)")
    print(f"simulate: {work:.1f} s of processor time ({work / args.games * 1e3:.1f} ms a game): "
          f"{work / args.jobs * 2000 / args.games:.0f} s for 2,000 games on {args.jobs} idle cores")


if __name__ == "__main__":
    main()
