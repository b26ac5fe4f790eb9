"""The half-blood (M131 混血儿): <认亲> at the start makes him one of the faction of a player he chooses.

认亲<强制><限定>: "游戏开始时，混血儿必须选择一名角色进行支持。此技能发动后，混血儿成为与该角色相同的阵营。" "查验混血儿
时，始终反馈<村民阵营>." <强制>: one who has not chosen when the first phase opens gets a choice drawn from the
game's seed (the post names no time limit).
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, Param, Part, entry


@entry("混血儿", IDENTITY, "游戏开始时必须<认亲>一名角色，成为与其相同的阵营；被查验时反馈为指定阵营", ("认亲",),
       skill=Param("认亲", "技能在本帖中的名称"),
       aliases=Param(["认"], "简写"),
       checked_as=Param(None, "被查验时反馈的阵营（None：其实际阵营）", kind=str, names="阵营"))
class HalfBlood(Part):
    def skills(self):
        return [self.skill(self.recognise, self.p["skill"], "start", self.p["aliases"], holders=self.holders)]

    def recognise(self, g, actor, target) -> None:
        skill = self.p["skill"]
        if skill in actor.used:
            raise Rejected(f"<{skill}>是限定技，已经发动过")
        t = g.living_target(target, skill)
        if t.name == actor.name:
            raise Rejected(f"<{skill}>须选择一名其他角色")
        self.side_with(actor, t)
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。")

    def side_with(self, actor, t) -> None:
        actor.used.add(self.p["skill"])
        actor.faction = t.faction
        actor.marks[self.p["skill"]] = t.name

    def start_game(self, g) -> None:
        skill = self.p["skill"]
        for p in g.state.with_role(*self.holders):
            if skill not in p.used:
                choice = g.state.rng.choice([q for q in g.state.players if q.name != p.name and q.alive])
                self.side_with(p, choice)
                g.tell(f"player:{p.name}", f"你没有在游戏开始前{skill}。<{skill}>是强制技，已随机{skill} {g.label(choice)}，你成为与其相同的阵营。")
                g.tell("director", f"{g.label(p)} 未选择{skill}目标，已随机{skill} {g.label(choice)}")

    def checked_as(self, g, p, faction):
        return self.p["checked_as"] if p.role in self.holders and self.p["checked_as"] else faction
