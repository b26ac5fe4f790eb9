"""Who plays what: checking a fixed line-up against the post, or dealing one from the seed.

A hidden identity (`Role.hidden_as`) is one of the players its post counts under another identity:
154's 宁采臣 is one of the "8赶考书生" and is told he is a 赶考书生. A roster names him by his true
identity, and he fills one of his cover's places.
"""
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
    wrong = []
    for r in ruleset.roles:
        hidden = [h for h in ruleset.roles if h.hidden_as == r.name]
        got = have.get(r.name, 0) + sum(have.get(h.name, 0) for h in hidden)
        inner = "".join(f"（其中{h.count}人为{h.name}）" for h in hidden)
        if r.hidden_as is None and got != r.count:
            wrong.append(f"{r.name} 应为{r.count}人{inner}，实为{got}人")
        elif r.hidden_as is not None and have.get(r.name, 0) != r.count:
            wrong.append(f"{r.name}（{r.hidden_as}之一）应为{r.count}人，实为{have.get(r.name, 0)}人")
    if wrong:
        raise LineupError(f"身份配置与 {ruleset.id} 规则不符：" + "；".join(wrong))


def deal(ruleset: Ruleset, names: list[str], seed: int) -> list[tuple[str, str]]:
    """A random assignment of the post's line-up to `names` (seat order), reproducible from `seed`."""
    if len(names) != ruleset.size:
        raise LineupError(f"{ruleset.id} 需要 {ruleset.size} 名玩家，现在有 {len(names)} 名")
    # a stream of its own: the game's generator starts from the same seed, and sharing its first
    # draws would let a forced choice (认亲) reveal who was dealt what
    rng = random.Random(f"deal:{seed}")
    roles = [r.name for r in ruleset.roles if r.hidden_as is None for _ in range(r.count)]
    rng.shuffle(roles)
    for hidden in (r for r in ruleset.roles if r.hidden_as is not None):
        seats = [i for i, role in enumerate(roles) if role == hidden.hidden_as]
        for i in rng.sample(seats, hidden.count):
            roles[i] = hidden.name
    players = list(zip(names, roles))
    check(ruleset, players)
    return players


def seed_decides(ruleset: Ruleset, players: list[tuple[str, str]], seed: int) -> str:
    """What the seed decided in a game of these (name, identity) pairs: the deal too, unless the director
    gave the identities (`分配 固定`), as the 树洞 and the players' last message say."""
    try:
        dealt = deal(ruleset, [n for n, _ in players], seed) == list(players)
    except LineupError:
        dealt = False
    return "身份分配和每一次随机结果都由它决定" if dealt else "每一次随机结果都由它决定（身份由导演指定）"
