"""<自爆> by day (M131's 狼人 and 感染白痴): "除竞选日外的游戏日白天，发动者出局，然后当天不再进行投票，已发表的投票
无效。该技能的发动将会公示。" Note 4: "自爆不会立刻天黑。不能在警上自爆。" """
from __future__ import annotations

from ..errors import Rejected
from . import SKILL, Param, Part, entry


@entry("自爆", SKILL, "除竞选日外的白天，发动者出局，当天不再投票，已发表的投票无效", ("自爆",),
       aliases=Param(["爆"], "简写"))
class Explode(Part):
    def skills(self):
        return [self.skill(self.explode, self.name, "day", self.p["aliases"], takes_target=False, holders=self.holders)]

    def explode(self, g, actor, target) -> None:
        day = g.state.day
        if "exile" not in day.votes:
            raise Rejected(f"竞选日不能{self.name}")
        if "exile" in day.counted:
            raise Rejected(f"今天的投票已经结算，不能再{self.name}")
        day.called_off = True
        g.kill(actor, self.name)
        g.tell("public", f"{g.label(actor)} {self.name}出局，今天不再进行投票，已发表的投票无效。天不会立刻黑。")
        g.publish_deaths([actor.name], self.name)

    def day_options(self, g, name) -> list[str]:
        # a holder's for as long as today's vote is not counted
        p, day = g.state.player(name), g.state.day
        if (g.phase == "day" and p.alive and p.role in self.holders and "exile" in day.votes
                and "exile" not in day.counted and not day.called_off):
            return [f"<{self.name}>：发送“{self.name}”（你出局，今天不再投票，已发表的投票无效）"]
        return []
