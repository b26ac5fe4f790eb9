"""What many identities of today's 狼人杀 share when they choose one player a night: the refusals a post names
("不能连续两晚选择同一名角色", "不能选择自己") and who a check really looks at when the 魔术师 swapped two numbers.
No entry of its own: the identities of this library call it."""
from __future__ import annotations

from ..errors import Rejected
from ..skills import once_tonight

SWAP = "魔术交换"  # carry key: (night, a, b), the two players the 魔术师 swapped tonight


def choose(g, actor, skill: str, target, *, not_self: bool = False, not_twice: bool = False, told: str = ""):
    """A night action on one living player, final once sent; refused (and nothing changed) where the post
    forbids choosing oneself or the player of last night."""
    once_tonight(g, skill, actor.name)
    t = g.living_target(target, skill)
    if not_self and t.name == actor.name:
        raise Rejected(f"<{skill}>不能选择自己")
    last = actor.marks.get(f"{skill}:上一晚")
    if not_twice and last == (g.night.number - 1, t.name):
        raise Rejected(f"不能连续两晚<{skill}>同一名角色（昨晚已{skill} {g.label(t)}）")
    actor.marks[f"{skill}:上一晚"] = (g.night.number, t.name)
    g.night.actions[skill] = (actor.name, t.name)
    g.mark_done(actor.name, skill)
    g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。{told}")
    return t


def looked_at(g, p):
    """The player a check of `p` tonight really reads: his swap partner where the 魔术师 swapped them."""
    swap = g.state.carry.get(SWAP)
    if swap and g.phase == "night" and swap[0] == g.night.number and p.name in swap[1:]:
        return g.state.player(swap[2] if p.name == swap[1] else swap[1])
    return p


def neighbours(g, p, wanted: int = 1) -> list:
    """The nearest living players on each side of `p` in seat order (电梯楼 order wraps round)."""
    players = g.state.players
    i = players.index(p)
    out = []
    for step in (-1, 1):
        found, j = 0, i
        while found < wanted:
            j = (j + step) % len(players)
            if j == i:
                break
            if players[j].alive and players[j] not in out:
                out.append(players[j])
                found += 1
    return out


def other_player(g, actor, skill: str, target, *, limited: bool = False):
    """A living player other than `actor` for `skill` (a <限定> one refused once used)."""
    if limited and skill in actor.used:
        raise Rejected(f"<{skill}>是限定技，已经发动过")
    t = g.living_target(target, skill)
    if t.name == actor.name:
        raise Rejected(f"<{skill}>须选择一名其他角色")
    return t


def two_players(g, actor, skill: str, target) -> tuple:
    """Two different living players named by one night action (交换, 吹笛), once a night."""
    once_tonight(g, skill, actor.name)
    if not isinstance(target, (list, tuple)) or len(target) != 2:
        raise Rejected(f"<{skill}>需要两个目标：请发送“{skill} 座位号 座位号”")
    a, b = (g.living_target(t, skill) for t in target)
    if a.name == b.name:
        raise Rejected(f"<{skill}>须选择两名不同的角色")
    return a, b


def day_skill_allowed(g, skill: str) -> None:
    """A day skill that ends in a death (决斗, 白狼自爆), like <自爆>: never on the election day, never once the
    day's vote is counted."""
    day = g.state.day
    if "exile" not in day.votes:
        raise Rejected(f"竞选日不能<{skill}>")
    if "exile" in day.counted:
        raise Rejected(f"今天的投票已经结算，不能再<{skill}>")
