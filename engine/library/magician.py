"""The magician (魔术师) of today's 狼人杀: each night he swaps two players' numbers; every skill of that night aimed
at one lands on the other.

Usual post: "交换：每晚可以选择两名角色交换号码牌，当晚所有对其中一人发动的技能改为对另一人生效。每名角色全局只能被
交换一次。魔术师最先行动。" The swap is settled first (`交换` heads the settlement order): every night action's target
is exchanged before any harm is settled. A check is redirected once the swap is sent (a seer checking before it
reads the player he named): the faction check through `checked_as`, the identity checks of this library through
engine/library/choosing.py's `looked_at`.
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, NightSkill, Param, entry
from .choosing import SWAP, two_players

SWAPPED = "已被交换"


@entry("魔术师", IDENTITY, "夜晚<交换>两名角色的号码，当晚对其中一人的技能改为对另一人生效；每人全局只能被交换一次",
       ("交换",),
       skill=Param("交换", "技能在本帖中的名称"),
       aliases=Param(["换"], "简写"),
       once_each=Param(True, "每名角色全局只能被交换一次"),
       ask=Param("你可以<交换>两名角色（发送“交换 座位号 座位号”）", "每晚告知他的话"))
class Magician(NightSkill):
    leads_night = True
    targets = 2

    def use(self, g, actor, target) -> None:
        skill = self.p["skill"]
        a, b = two_players(g, actor, skill, target)
        for p in (a, b):
            if self.p["once_each"] and SWAPPED in p.marks:
                raise Rejected(f"{g.label(p)} 已经被交换过，每名角色全局只能被交换一次")
        a.marks[SWAPPED] = b.marks[SWAPPED] = g.night.number
        g.night.actions[skill] = (actor.name, (a.name, b.name))
        g.state.carry[SWAP] = (g.night.number, a.name, b.name)
        g.mark_done(actor.name, skill)
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(a)} 与 {g.label(b)}。")

    def checked_as(self, g, p, faction):
        swap = g.state.carry.get(SWAP)
        if not swap or swap[0] != g.night.number or p.name not in swap[1:] or g.phase != "night":
            return faction
        other = g.state.player(swap[2] if p.name == swap[1] else swap[1])
        seen = other.faction
        for part in self.rules.hooks["checked_as"]:
            if part is not self:
                seen = part.checked_as(g, other, seen)
        return seen

    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        # once a night (a step may run again for a feedback that senses harms): every target exchanged
        s, a = g.state, g.night.actions
        swap = s.carry.get(SWAP)
        if not swap or swap[0] != g.night.number or s.carry.get("交换已结算") == g.night.number:
            return out
        s.carry["交换已结算"] = g.night.number
        x, y = swap[1:]
        for skill, (by, target) in list(a.items()):
            if skill != self.p["skill"] and target in (x, y):
                a[skill] = (by, y if target == x else x)
        return [((y if n == x else x if n == y else n), c) for n, c in out]
