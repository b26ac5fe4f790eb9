"""Wolves whose day-time 自爆 does more (today's 狼人杀):

白狼王 "白天可以<自爆>并带走一名角色（限定）；被带走的角色立即出局。" — a skill of his own, sent with its target, beside
the plain <自爆> of the others (engine/library/explode.py): the same day rules (not on the election day, not after
the count; the day's vote is called off).
血月使徒 "血月使徒<自爆>后，下一个夜晚好人阵营的角色均不能发动技能。" — he holds the plain <自爆> (the file lists him
among its holders); what his going out by it does is his part's.
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry
from .choosing import day_skill_allowed, other_player


@entry("白狼王", IDENTITY, "白天<白狼自爆>（限定）：自己出局并带走一名其他角色，当天不再投票", ("白狼自爆",),
       skill=Param("白狼自爆", "技能在本帖中的名称"),
       aliases=Param(["带走"], "简写"),
       cause=Param("白狼王带走", "被带走者的出局原因"))
class WhiteWolfKing(Part):
    def skills(self):
        return [self.skill(self.explode, self.p["skill"], "day", self.p["aliases"], holders=self.holders)]

    def explode(self, g, actor, target) -> None:
        skill, day = self.p["skill"], g.state.day
        day_skill_allowed(g, skill)
        t = other_player(g, actor, skill, target, limited=True)
        actor.used.add(skill)
        day.called_off = True
        g.kill(actor, "自爆")
        g.tell("public", f"{g.label(actor)} 自爆出局，并带走 {g.label(t)}。今天不再进行投票，已发表的投票无效。")
        g.kill(t, self.p["cause"])
        g.publish_deaths([actor.name, t.name], "白狼王自爆")

    def day_options(self, g, name) -> list[str]:
        p, day = g.state.player(name), g.state.day
        if (g.phase == "day" and p.alive and p.role in self.holders and "exile" in day.votes
                and "exile" not in day.counted and not day.called_off):
            return [f"<{self.p['skill']}>：发送“{self.p['skill']} 座位号”（你出局并带走他，今天不再投票）"]
        return []


@entry("血月使徒", IDENTITY, "<自爆>（与狼人同一技能）后，下一个夜晚指定阵营的角色均不能发动技能", ("血月",),
       sealed=Param(None, "被封印技能的阵营（如 村民阵营）", required=True, names="阵营"),
       cause=Param("自爆", "触发封印的出局原因"),
       notice=Param("血月升起：今晚你不能发动技能。", "被封印者当晚收到的话"))
class BloodMoon(Part):
    def after_death(self, g, p, cause) -> None:
        if p.role in self.holders and cause == self.p["cause"]:
            g.state.carry["血月"] = g.state.night_no + 1

    def begin_night_after(self, g) -> None:
        # after every prompt of the night: what they were offered is taken back, their slots passed
        s = g.state
        if s.carry.get("血月") != g.night.number:
            return
        sealed = [q.name for q in s.alive() if q.faction == self.p["sealed"]]
        for name in sealed:
            g.night.suspended[name] = {"*"}
            g.tell(f"player:{name}", self.p["notice"])
        for who, slot in self.rules.awaiting(g):
            if who in sealed:
                self.rules.pass_night(g, who, slot)
        g.tell("director", f"血月：第{g.night.number}夜{self.p['sealed']}的角色不能发动技能")
