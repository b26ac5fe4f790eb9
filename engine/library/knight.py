"""The knight (骑士) of today's 狼人杀: once a game, by day, he duels one player; a wolf dies, else the knight.

Usual post: "决斗<限定>：白天投票结算前，骑士可以公开与一名其他角色决斗。若该角色属于狼人阵营，其立即出局，当天不再
投票；否则骑士以死谢罪，立即出局，投票照常进行。竞选日不能决斗。" Whether a won duel calls the day's vote off
(`calls_off_vote`) and whether he may duel on the election day (`on_election_day`) are the post's.
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry
from .choosing import day_skill_allowed, other_player


@entry("骑士", IDENTITY, "白天<决斗>（限定）一名其他角色：狼人则其出局，否则骑士出局", ("决斗",),
       skill=Param("决斗", "技能在本帖中的名称"),
       wolves=Param(None, "决斗使之出局的阵营（如 狼人阵营）", required=True, names="阵营"),
       on_election_day=Param(False, "竞选日能否决斗"),
       calls_off_vote=Param(True, "决斗出狼人后当天是否不再投票"),
       won=Param("{knight} 发动<决斗>：{target} 是狼人，出局。", "决斗出狼时公示的话"),
       lost=Param("{knight} 发动<决斗>：{target} 不是狼人，骑士以死谢罪。", "决斗失败时公示的话"))
class Knight(Part):
    def skills(self):
        return [self.skill(self.duel, self.p["skill"], "day", holders=self.holders)]

    def duel(self, g, actor, target) -> None:
        skill, day = self.p["skill"], g.state.day
        election_day = "exile" not in day.votes
        if not (election_day and self.p["on_election_day"]):  # a post may allow the duel on the election day
            day_skill_allowed(g, skill)
        t = other_player(g, actor, skill, target, limited=True)
        actor.used.add(skill)
        words = dict(knight=g.label(actor), target=g.label(t))
        if t.faction == self.p["wolves"]:
            if self.p["calls_off_vote"]:
                day.called_off = True
            g.tell("public", self.p["won"].format(**words) + ("今天不再进行投票。" if self.p["calls_off_vote"] else ""))
            g.kill(t, skill)
            g.publish_deaths([t.name], "决斗")
        else:
            g.tell("public", self.p["lost"].format(**words))
            g.kill(actor, skill)
            g.publish_deaths([actor.name], "决斗")

    def day_options(self, g, name) -> list[str]:
        p = g.state.player(name)
        if g.phase == "day" and p.alive and p.role in self.holders and self.p["skill"] not in p.used:
            return [f"<{self.p['skill']}>（限定）：发送“{self.p['skill']} 座位号”"]
        return []
