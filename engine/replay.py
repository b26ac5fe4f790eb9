"""`python -m engine replay FILE.yaml`: a written-down game, replayed with no QQ at all.

The file format and the transcript are the contract in docs/scenarios.md; `--check` compares each
file's `expect:` block with its transcript (engine/expect.py).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from .expect import compare
from .commands import Act, Ballots, Card, CloseDay, Command, Moon, OpenDay
from .game import Game
from .lineup import LineupError, check


class ScenarioError(ValueError):
    """The file itself is unusable (exit status 2)."""


def parse(text: str) -> dict:
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ScenarioError(f"不是有效的 YAML：{exc}") from exc
    if not isinstance(doc, dict):
        raise ScenarioError("场景文件应是一个 YAML 映射（ruleset、players、steps）")
    return doc


def load(doc: dict, beside: Path | None = None) -> tuple[Game, list[Any]]:
    """The game a scenario plays and its steps. `rule_file:` instead of `ruleset:` names a rule-post file (a path
    from the scenario's folder, `beside`): a post not among rulesets/, such as one a director is about to add."""
    if "rule_file" in doc:
        ruleset = _rule_file(str(doc["rule_file"]), beside or Path.cwd())
    else:
        from rulesets import get

        ruleset = get(str(doc.get("ruleset", "")))
        if ruleset is None:
            raise ScenarioError(f"未知的规则：{doc.get('ruleset')!r}")
    raw = doc.get("players")
    if not isinstance(raw, list) or not all(isinstance(p, dict) and "name" in p and "role" in p for p in raw):
        raise ScenarioError("players 应是 {name, role} 的列表")
    players = [(str(p["name"]), str(p["role"])) for p in raw]
    try:
        check(ruleset, players)
    except LineupError as exc:
        raise ScenarioError(str(exc)) from exc
    steps = doc.get("steps") or []
    if not isinstance(steps, list):
        raise ScenarioError("steps 应是一个列表")
    seed = doc.get("seed", 0)
    if not isinstance(seed, int):
        raise ScenarioError("seed 应是整数")
    options = {key: doc[key] for key in ("moons",) if key in doc}
    try:
        return Game(ruleset, players, seed=seed, options=options), steps
    except ValueError as exc:
        raise ScenarioError(str(exc)) from exc


def _rule_file(name: str, beside: Path):
    from .rulecheck import load as load_rules
    from .rulefile import RuleFileError

    try:
        return load_rules(beside / name)
    except RuleFileError as exc:
        raise ScenarioError(f"规则帖文件 {name} 未通过检查：\n{exc}") from exc


def command(step: Any) -> Command:
    """One scenario step as an engine command; a step the format does not know raises ValueError."""
    if step == "night":
        return CloseDay(lapse=True)
    if step == "day":
        return OpenDay(lapse=True)
    if isinstance(step, dict):
        if "act" in step:
            if "by" not in step:
                raise ValueError("act 步骤缺少 by")
            return Act(by=str(step["by"]), skill=str(step["act"]), target=step.get("target"), text=step.get("text"))
        for kind, key in (("election", "election"), ("exile", "vote")):
            if key in step:
                if not isinstance(step[key], dict):
                    raise ValueError(f"{key} 应是 投票人: 投票对象 的映射")
                return Ballots(kind=kind, ballots=tuple((str(v), str(t)) for v, t in step[key].items()))
        if "card" in step:
            return Card(color=str(step["card"]), to=str(step.get("to")))
        if "moon" in step:
            start = step.get("from")
            return Moon(event=str(step["moon"]), start=None if start is None else str(start))
    raise ValueError(f"无法识别的步骤：{step!r}")


def replay(doc: dict, beside: Path | None = None) -> dict:
    game, steps = load(doc, beside)
    errors = []
    for index, step in enumerate(steps):
        try:
            cmd = command(step)
        except ValueError as exc:
            errors.append({"step": index, "error": str(exc)})
            continue
        outcome = game.apply(cmd)
        if not outcome.ok:
            errors.append({"step": index, "error": outcome.error})
        errors.extend({"step": index, "error": w} for w in outcome.warnings)
    return transcript(game, errors)


def transcript(game: Game, errors: list[dict]) -> dict:
    s = game.state
    return {
        "ruleset": s.ruleset,
        "players": [
            {"name": p.name, "seat": p.seat, "role": p.role, "faction": p.faction, "alive": p.alive} for p in s.players
        ],
        "deaths": s.deaths,
        "announcements": s.announcements,
        "feedback": s.feedback,
        "tallies": s.tallies,
        "sheriff": s.sheriff,
        "lost": s.lost,
        "winner": s.winner,
        "moons": s.moons,
        "errors": errors,
    }


def read(path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return parse(f.read())
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(f"无法读取场景文件：{exc}") from exc


def main(path: str) -> int:
    """The transcript of one file on stdout; an unusable file: one message on stderr, exit 2."""
    try:
        result = replay(read(path), Path(path).parent)
    except ScenarioError as exc:
        print(f"场景文件不可用：{exc}", file=sys.stderr)
        return 2
    sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    return 0


def check_file(path: str) -> list[str]:
    """What is wrong with one file against its own `expect:` block (an unusable file is one problem)."""
    try:
        doc = read(path)
        return compare(replay(doc, Path(path).parent), doc.get("expect"))
    except ScenarioError as exc:
        return [f"场景文件不可用：{exc}"]


def check_files(paths: list[str]) -> int:
    """One line per file (通过 / 不符 with each difference) and the closing count; exit 0 only if all hold."""
    passed = failed = 0
    for path in paths:
        problems = check_file(path)
        if problems:
            failed += 1
            print(f"不符 {path}")
            for problem in problems:
                print(f"     {problem}")
        else:
            passed += 1
            print(f"通过 {path}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
