"""Who plays what: checking a fixed line-up against the post, or dealing one from the seed."""
from __future__ import annotations

import random
from collections import Counter

from .ruleset import Ruleset


class LineupError(ValueError):
    """A roster the ruleset cannot start (message in Chinese)."""


def check(ruleset: Ruleset, players: list[tuple[str, str]]) -> None:
    names = [n for n, _ in players]
    twice = [n for n, k in Counter(names).items() if k > 1]
    if twice:
        raise LineupError(f"角色名重复：{'、'.join(twice)}")
    for name, role in players:
        if not name or name.isdigit():
            raise LineupError(f"角色名「{name}」不可用：不能为空，也不能是纯数字（数字表示座位号）")
        if ruleset.role(role) is None:
            raise LineupError(f"{ruleset.id} 没有身份「{role}」")
    have = Counter(role for _, role in players)
    want = {r.name: r.count for r in ruleset.roles}
    wrong = [f"{role} 应为{n}人，实为{have.get(role, 0)}人" for role, n in want.items() if have.get(role, 0) != n]
    if wrong:
        raise LineupError(f"身份配置与 {ruleset.id} 规则不符：" + "；".join(wrong))


def deal(ruleset: Ruleset, names: list[str], seed: int) -> list[tuple[str, str]]:
    """A random assignment of the post's line-up to `names` (seat order), reproducible from `seed`."""
    if len(names) != ruleset.size:
        raise LineupError(f"{ruleset.id} 需要 {ruleset.size} 名玩家，现在有 {len(names)} 名")
    roles = [r.name for r in ruleset.roles for _ in range(r.count)]
    random.Random(seed).shuffle(roles)
    players = list(zip(names, roles))
    check(ruleset, players)
    return players
