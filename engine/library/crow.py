"""The crow (M131 乌鸦): <诽谤> one player each night; his next exile count gives him one vote more, and
the thread is told whom an hour before 关门.

"乌鸦可以选择一名角色，不能连续两晚选择同一名角色。其在下一个游戏日投票时被投票数多计一票。诽谤仅对放逐投票有效，
对警长竞选投票无效。乌鸦诽谤对象在关门前1小时公示。"
"""
from __future__ import annotations

from fractions import Fraction

from ..errors import Rejected
from ..events import DeadlineEnd
from ..skills import once_tonight
from . import IDENTITY, NightSkill, Param, entry


@entry("乌鸦", IDENTITY, "夜晚<诽谤>一名角色，其下一个游戏日的放逐投票多计一票，关门前公示；不能连续两晚选同一人", ("诽谤",),
       skill=Param("诽谤", "技能在本帖中的名称"),
       aliases=Param(["诽"], "简写"),
       votes=Param(1, "多计的票数"),
       limit=Param("slander", "公示时间所用的时限（时限表中的键）"))
class Crow(NightSkill):
    def use(self, g, actor, target) -> None:
        # Nothing else tonight depends on the 诽谤, so the crow may change it until the night is settled.
        skill = self.p["skill"]
        changing = skill in g.night.actions
        if not changing:
            once_tonight(g, skill, actor.name)
        t = g.living_target(target, skill)
        last = g.state.carry.get("crow_last")
        if last and last[0] == g.night.number - 1 and last[1] == t.name:
            raise Rejected(f"不能连续两晚{skill}同一名角色（昨晚已{skill} {t.name}）")
        g.night.actions[skill] = (actor.name, t.name)
        g.mark_done(actor.name, skill)
        g.tell(f"player:{actor.name}", f"已{'改为' if changing else '收到'}：{skill} {g.label(t)}。夜晚结算前可以更改。")


    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        a, s = g.night.actions, g.state
        if self.p["skill"] in a:
            s.carry["crow_last"] = (g.night.number, a[self.p["skill"]][1])
            s.carry["slander_next"] = a[self.p["skill"]][1]
        return out

    def key(self, g) -> str:
        return f"公示:诽谤:day{g.state.day_no}"

    def begin_day(self, g) -> None:
        # The next game day after night 1 is M131's 警长竞选日, so night 1's 诽谤 counts nowhere.
        s = g.state
        s.carry["slander_today"] = s.carry.pop("slander_next", None)
        if s.carry["slander_today"] and "exile" in s.day.votes:
            g.start_deadline(self.key(g), [], "公示被诽谤的角色", self.p["limit"])

    def timeout(self, g, key) -> list[str]:
        s = g.state
        if key == self.key(g) and g.phase == "day" and s.carry.get("slander_today") and not s.carry.get("slander_shown"):
            s.carry["slander_shown"] = True
            g.tell("public", f"乌鸦{self.p['skill']}的角色：{g.label(s.player(s.carry['slander_today']))}（今天放逐投票多计一票）")
            return [key]
        return []

    def closing(self, g) -> None:
        # "乌鸦诽谤对象在关门前1小时公示" belongs to the day: a day closed before that hour publishes nothing in
        # the night (the count, if made, named the 诽谤 among its weights).
        s = g.state
        if s.carry.get("slander_today") and "exile" in s.day.votes and not s.carry.pop("slander_shown", False):
            g.emit(DeadlineEnd(self.key(g)))
            g.tell("director", "今天提前关门，乌鸦诽谤的公示时间（关门前1小时）未到：不再公示。")

    def exile_bonus(self, g) -> dict:
        target = g.state.carry.get("slander_today")
        if target and g.state.player(target).alive:
            return {target: Fraction(self.p["votes"])}
        return {}

    def count_notes(self, g, kind) -> list[tuple[str, bool]]:
        if kind == "exile":
            return [(f"乌鸦{self.p['skill']}：{g.label(g.state.player(name))} 多计一票", True) for name in self.exile_bonus(g)]
        return []
