"""`python -m engine simulate RULESET --games N --seed S`: how often each faction of a post wins.

N games of the post (engine/simulation.py), on every core (one process each), each dealt and played
from its own seed drawn from S: the same S gives the same games and the same table, whatever the
number of processes. The table: each faction's share of wins with its 95 % interval (Wilson's), the
game's length in days, each identity's survival, and how the games ended.
"""
from __future__ import annotations

import argparse
import math
import os
import random
import re
import statistics
import sys
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from .players import KINDS
from .simulation import UNFINISHED, play

Z95 = 1.959964


class SimulationError(ValueError):
    """A request the simulation cannot run (message in Chinese)."""


# --- what to play -------------------------------------------------------------------------------------------
def ruleset(spec: str):
    """The post `spec` names: a shipped post's id, or the path of a rule-post file (a director's new post, simulated
    before it is added; checked as `python -m engine check` checks it)."""
    from rulesets import RULESETS

    rules = RULESETS.get(spec)
    if rules is not None:
        return rules
    path = _post_file(spec)
    if path is None:
        raise SimulationError(f"没有规则「{spec}」：可以模拟的有 " + "、".join(RULESETS) + "，或一个规则帖文件的路径（如 rulesets/s12.yaml）")
    from .rulecheck import load
    from .rulefile import RuleFileError

    try:
        return load(path)
    except RuleFileError as exc:
        raise SimulationError(f"{spec} 有 {len(exc.problems)} 处问题（python -m engine check 同样会指出）：\n"
                              + "\n".join(f"  {p}" for p in exc.problems)) from exc


def _post_file(spec: str) -> Path | None:
    path = Path(spec)
    return path if path.suffix in (".yaml", ".yml") or path.is_file() else None


def settings(rules, pairs: list[str]) -> dict:
    """`--set KEY=VALUE` as the post's options: a value is `none` or a list of words separated by commas."""
    options = {}
    known = getattr(rules, "settings", {})
    listed = "；".join(f"{k}：{why}" for k, why in known.items()) if known else "（无）"
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise SimulationError(f"设置「{pair}」的格式不对：请写成 KEY=VALUE。{rules.id} 可以设置的参数：{listed}")
        key, value = key.strip(), value.strip()
        if key not in known:
            raise SimulationError(f"{rules.id} 没有设置「{key}」。可以设置的参数：{listed}")
        options[key] = value if value == "none" else [v for v in re.split(r"[,，]\s*", value) if v]
    try:
        rules.configure(options)
    except ValueError as exc:
        raise SimulationError(f"设置不可用：{exc}") from exc
    return options


def players(rules, spec: str) -> list[dict[str, str]]:
    """`--players`: `human`, `uniform`, `both` (one run of each), or FACTION=KIND,... (the rest human; a
    faction formed during play, as 146's 黑情侣阵营, plays as the rest). Returns one {faction: kind} per
    run; the key "*" is every faction not named."""
    if spec in KINDS:
        return [{"*": spec}]
    if spec == "both":
        return [{"*": "human"}, {"*": "uniform"}]
    chosen = {"*": "human"}
    factions = list(dict.fromkeys(r.faction for r in rules.roles))
    for part in (p for p in re.split(r"[,，]", spec) if p):
        faction, eq, kind = part.partition("=")
        if not eq or kind not in KINDS:
            raise SimulationError(f"玩家类型「{part}」不对：请写 human、uniform、both，或 阵营=human/uniform（如 狼人阵营=uniform）")
        if faction not in factions:
            raise SimulationError(f"{rules.id} 没有「{faction}」：阵营有 " + "、".join(factions))
        chosen[faction] = kind
    return [chosen]


def game_seed(seed: int, index: int) -> int:
    return random.Random(f"simulate:{seed}:{index}").randrange(2**31)


def described(kinds: dict[str, str]) -> str:
    rest = KINDS[kinds["*"]]
    named = [f"{f}{KINDS[k]}" for f, k in kinds.items() if f != "*"]
    return "、".join(named + [("其余" if named else "全部") + rest])


# --- playing, on every core ------------------------------------------------------------------------------------
def _chunk(job: tuple) -> list[dict]:
    spec, seed, indices, kinds, options, dump = job
    from rulesets import RULESETS

    rules = ruleset(spec)
    file = None if spec in RULESETS else _post_file(spec)
    out = []
    for i in indices:
        game = play(rules, game_seed(seed, i), {f: k for f, k in kinds.items() if f != "*"}, kinds["*"], options)
        if dump:
            write_scenario(Path(dump) / f"{rules.id}-{seed}-{i + 1:05d}.yaml", game,
                           f"{rules.id} 模拟第 {i + 1} 局（种子 {seed}），玩家：{described(kinds)}", file)
        out.append(game.summary())
    return out


def write_scenario(path: Path, game, heading: str, post_file: Path | None = None) -> None:
    """One simulated game as a scenario file; a post of a file names it (`rule_file:`, from the scenario's folder)."""
    import yaml

    doc = game.scenario()
    if post_file is not None:
        doc = {"rule_file": os.path.relpath(post_file.resolve(), path.parent.resolve()), **{k: v for k, v in doc.items() if k != "ruleset"}}
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False, default_flow_style=None, width=200)
    path.write_text(f"# {heading}\n# python -m engine replay {path.name}\n{text}", encoding="utf-8")


def run(spec: str, games: int, seed: int, kinds: dict[str, str], options: dict, dump: str | None = None, jobs: int | None = None) -> list[dict]:
    """The summaries of the N games of the post `spec` (an id or a file, as `ruleset` reads it), in order."""
    jobs = max(1, min(jobs or os.cpu_count() or 1, games))
    if dump:
        Path(dump).mkdir(parents=True, exist_ok=True)
    size = max(1, min(50, -(-games // (jobs * 4))))
    parts = [(spec, seed, range(a, min(a + size, games)), kinds, options, dump) for a in range(0, games, size)]
    if jobs == 1:
        return [s for part in parts for s in _chunk(part)]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return [s for chunk in pool.map(_chunk, parts) for s in chunk]


# --- the table -----------------------------------------------------------------------------------------------------
def wilson(wins: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + Z95**2 / (2 * n)) / (1 + Z95**2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / (1 + Z95**2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def shares(rules, summaries: list[dict]) -> list[tuple[str, int, float, float, float]]:
    """(faction, wins, share, low, high) for every faction of the games, in the post's order; 未结束 last."""
    n = len(summaries)
    wins = Counter(s["winner"] or UNFINISHED for s in summaries)
    factions = list(dict.fromkeys([r.faction for r in rules.roles] + [f for s in summaries for f in s["factions"]]))
    if wins[UNFINISHED]:
        factions.append(UNFINISHED)
    return [(f, wins[f], wins[f] / n, *wilson(wins[f], n)) for f in factions]


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def table(rules, summaries: list[dict], kinds: dict[str, str], seed: int, options: dict) -> str:
    n = len(summaries)
    lines = [f"{rules.title} 模拟 {n} 局（种子 {seed}；玩家：{described(kinds)}"
             + "".join(f"；{k}={v if isinstance(v, str) else ','.join(v)}" for k, v in options.items()) + "）",
             "胜率（95% 区间）："]
    lines += [f"  {f} {pct(share)}（{pct(low)}–{pct(high)}，{wins} 局）" for f, wins, share, low, high in shares(rules, summaries)]
    days = sorted(s["days"] for s in summaries)
    q = statistics.quantiles(days, n=4, method="inclusive") if n > 1 else [days[0]] * 3
    lines.append(f"局长（天）：中位数 {statistics.median(days):g}，四分位 {q[0]:g}–{q[2]:g}，最短 {days[0]}，最长 {days[-1]}")
    alive, dealt = Counter(), Counter()
    for s in summaries:
        for role, lived in s["roles"]:
            dealt[role] += 1
            alive[role] += lived
    order = [r.name for r in rules.roles]
    lines.append("存活率：" + "、".join(f"{r} {pct(alive[r] / dealt[r])}" for r in order if dealt[r]))
    endings = Counter(s["ending"] for s in summaries)
    lines.append("结束方式：" + "、".join(f"{e} {pct(k / n)}" for e, k in endings.most_common()))
    return "\n".join(lines)


# --- the command line --------------------------------------------------------------------------------------------
def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"「{text[:20]}」不是整数") from None


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m engine simulate", description="模拟一个规则帖的许多局，统计各阵营胜率")
    p.add_argument("ruleset", help="规则：M131、146、154、S12、S16，或一个规则帖文件的路径")
    p.add_argument("--games", type=_whole, default=1000, help="局数（默认 1000）")
    p.add_argument("--seed", type=_whole, default=0, help="随机种子：同一种子得到同样的结果")
    p.add_argument("--players", default="human", help="human（拟人，默认）、uniform（均匀随机）、both（两种各一遍），或 阵营=类型,...")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="改变规则帖的一个参数（146：moons=none）")
    p.add_argument("--dump", metavar="DIR", help="把每一局写成场景文件（含 expect:），可用 python -m engine replay 重放")
    p.add_argument("--chart", metavar="FILE.png", help="把胜率画成图（需要 matplotlib：pip install 'banshabot[sim]'）")
    p.add_argument("--jobs", type=_whole, help="进程数（默认：全部核心）")
    return p


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        rules = ruleset(args.ruleset)
        if args.games < 1:
            raise SimulationError("局数至少为 1")
        options = settings(rules, args.set)
        runs = players(rules, args.players)
    except SimulationError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    results = []
    for kinds in runs:
        dump = args.dump and (args.dump if len(runs) == 1 else os.path.join(args.dump, kinds["*"]))
        summaries = run(args.ruleset, args.games, args.seed, kinds, options, dump, args.jobs)
        results.append((kinds, summaries))
        print(table(rules, summaries, kinds, args.seed, options))
        if len(runs) > 1:
            print()
    if args.chart:
        from .chart import MissingPlotting, draw

        try:
            draw(args.chart, rules.title, [(described(k), shares(rules, s)) for k, s in results], args.games)
        except MissingPlotting as exc:
            print(str(exc), file=sys.stderr)
    return 0
