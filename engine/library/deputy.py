"""The sheriff's deputy (146 执警): the sheriff appoints one, and appoints again whenever either goes out.

任命<强制>: "当选警长的角色需要立即在投票贴内任命一个执警，不能任命自己为执警，警长或执警其中任意一个出局，警长需要
重新任命一个执警。" "执警出局之后，则由警长重新选定执警。" A sheriff who lets his limit pass has one named at random.
A badge handed on by a living sheriff (an idiot's 装傻) keeps the deputy, unless the deputy took the badge.
What else the post has the deputy do (146's <辅策>) is the ruleset's `deputy_duties`, told him when appointed.
"""
from __future__ import annotations

from ..errors import Rejected
from . import OFFICE, Param, Part, entry

DEPUTY = "deputy"  # the carry key: the deputy's name


@entry("执警", OFFICE, "警长当选后任命一名执警（不能是自己）；警长或执警出局后警长重新任命", ("任命",),
       skill=Param("任命", "技能在本帖中的名称"),
       aliases=Param(["执警"], "简写"),
       title=Param("执警", "职位在公示中的名称"),
       limit=Param("appoint", "答复的时限（时限表中的键）"),
       ask=Param("你是警长，须<任命>一名执警：发送“任命 座位号”（不能任命自己；关门后30分钟内，否则随机任命）。", "问警长的话"),
       duty=Param("<任命>：你须立即任命一名执警（发送“任命 座位号”，不能是自己）。", "当选警长时告诉他的话"),
       told=Param("你被任命为执警。<代理>：你的投票计为1票。", "告诉执警的话"),
       appointed=Param("警长 {sheriff} 任命 {deputy} 为执警", "任命时公示的话"),
       lapsed=Param("警长 {sheriff} 未任命执警，随机任命 {deputy} 为执警", "超时未任命、随机任命时公示的话"))
class Deputy(Part):
    def skills(self):
        return [self.skill(self.appoint, self.p["skill"], "decision", self.p["aliases"])]

    def appoint(self, g, actor, target) -> None:
        skill = self.p["skill"]
        t = g.living_target(target, skill)
        if t.name == actor.name:
            raise Rejected(f"不能{skill}自己为{self.p['title']}，请选择其他角色")
        g.settle(g.pending_for(actor.name, skill))
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)} 为{self.p['title']}。")
        self.set(g, t, self.p["appointed"].format(sheriff=g.label(actor), deputy=g.label(t)))
        self.rules.officer_named(g, self.p["title"], True, actor.name)

    def set(self, g, t, text: str) -> None:
        g.state.carry[DEPUTY] = t.name
        g.tell("public", text)
        g.tell(f"player:{t.name}", self.p["told"] + self.rules.deputy_duties(g))

    def ask(self, g, sheriff) -> None:
        if not g.pending_for(sheriff.name, self.p["skill"]):
            g.ask(sheriff, self.p["skill"], self.p["ask"], self.p["limit"])

    # --- the hooks ------------------------------------------------------------------------------------
    def officers(self, g):
        return [(self.p["title"], g.state.carry.get(DEPUTY))]

    def duties(self, g) -> str:
        return self.p["duty"]

    def after_election(self, g, elected) -> None:
        if elected:
            self.ask(g, g.state.player(elected))

    def officer_named(self, g, office, chosen, before) -> None:
        # "警长或执警其中任意一个出局，警长需要重新任命一个执警": a badge passed on by a death is followed by a new
        # appointment; one a living sheriff hands on, only when the deputy took it or there is none
        s = g.state
        if office != "警长" or not s.sheriff:
            return
        if before is None or not s.player(before).alive or s.carry.get(DEPUTY) in (None, s.sheriff):
            s.carry.pop(DEPUTY, None)
            # a badge taken at night is appointed for at 开门, with a whole limit from the next 关门
            g.when_public(self.p["skill"], s.player(s.sheriff))

    def badge_vacated(self, g, p, ask) -> None:
        # the next sheriff appoints
        if pending := g.pending_for(p.name, self.p["skill"]):
            g.settle(pending)

    def after_death(self, g, p, cause) -> None:
        s = g.state
        if pending := g.pending_for(p.name, self.p["skill"]):
            g.settle(pending)  # the badge's next holder appoints
        if s.carry.get(DEPUTY) == p.name:
            # "执警出局之后，则由警长重新选定执警。"
            del s.carry[DEPUTY]
            if s.sheriff:
                g.when_public(self.p["skill"], s.player(s.sheriff))

    def public(self, g, what, p) -> None:
        # the badge may have moved on meanwhile: its new holder is asked
        if what == self.p["skill"] and g.state.sheriff == p.name:
            self.ask(g, p)

    def expire(self, g, pending) -> None:
        if pending.skill != self.p["skill"]:
            return
        s = g.state
        choices = [p for p in s.alive() if p.name != pending.who]
        if choices and s.sheriff == pending.who:
            t = s.rng.choice(choices)
            self.set(g, t, self.p["lapsed"].format(sheriff=g.label(s.player(pending.who)), deputy=g.label(t)))
        self.rules.officer_named(g, self.p["title"], False, pending.who)
