"""The nightmare (梦魇) of today's 狼人杀: a wolf who, first of the night, frightens one player: that player cannot
use any skill that night.

Usual post: "恐惧：每晚最先行动，选择一名其他角色，该角色当晚不能发动技能；不能连续两晚恐惧同一名角色。" His 恐惧 leads
the night order; what the frightened had already sent tonight stands (he is told at once, and his slots close).
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose


@entry("梦魇", IDENTITY, "夜晚最先<恐惧>一名其他角色，其当晚不能发动技能；不能连续两晚恐惧同一人", ("恐惧",),
       skill=Param("恐惧", "技能在本帖中的名称"),
       aliases=Param(["惧"], "简写"),
       ask=Param("你可以<恐惧>一名其他角色（发送“恐惧 座位号”）：他今晚不能发动技能", "每晚告知他的话"))
class Nightmare(NightSkill):
    leads_night = True

    def use(self, g, actor, target) -> None:
        t = choose(g, actor, self.p["skill"], target, not_self=True, not_twice=True)
        g.night.suspended[t.name] = {"*"}
        for who, slot in self.rules.awaiting(g):
            if who == t.name:
                self.rules.pass_night(g, who, slot)
        g.tell(f"player:{t.name}", f"你被<{self.p['skill']}>：今晚不能发动技能。")
