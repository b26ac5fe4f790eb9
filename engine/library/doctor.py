"""The doctor (154 江湖郎中): <针灸> one player a night, whom no harm of that night can take out; a needle on one
nobody harmed is an empty needle, and the second empty needle on the same player takes him out.

针灸: "游戏日夜晚，江湖郎中可以针灸一名角色，使对其当晚的所有<吸精>无效。若该角色没有成为吸精目标，累计一次空针。
一名角色累计两次空针时立即出局。"
"""
from __future__ import annotations

from .. import skills
from . import IDENTITY, NightSkill, Param, entry


@entry("江湖郎中", IDENTITY, "夜晚<针灸>一名角色，使其当晚受到的伤害无效；同一角色累计两次空针出局", ("针灸",),
       skill=Param("针灸", "技能在本帖中的名称"),
       aliases=Param(["针"], "简写"),
       harms=Param(None, "针灸使之无效的伤害：这些夜晚行动（结算步骤）", required=True, kind=list),
       empty=Param("空针", "空针在本帖中的名称（结算步骤的名称）"),
       empty_to_die=Param(2, "累计几次空针出局"),
       ask=Param("你可以<针灸>一名角色（发送“针灸 座位号”）", "每晚告知他的话"))
class Doctor(NightSkill):
    def use(self, g, actor, target) -> None:
        skills.night_target(g, actor, self.p["skill"], target)

    def spares(self, g, name, cause) -> bool:
        a = g.night.actions
        return cause in self.p["harms"] and self.p["skill"] in a and a[self.p["skill"]][1] == name

    def steps(self):
        return {self.p["empty"]: self.settle}

    def settle(self, g, out):
        a = g.night.actions
        if self.p["skill"] not in a:
            return out
        needled = a[self.p["skill"]][1]
        if needled not in self.rules.harm_targets(g, self.p["harms"]):
            p = g.state.player(needled)
            empty = self.p["empty"]
            p.marks[empty] = p.marks.get(empty, 0) + 1
            if p.marks[empty] == self.p["empty_to_die"]:
                out.append((needled, self.p["skill"]))
        return out
