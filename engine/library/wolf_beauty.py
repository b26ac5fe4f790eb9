"""The wolf beauty (狼美人) of today's 狼人杀: each night she charms one player; when she goes out, the player she
charmed last goes out with her.

Usual post: "魅惑：每晚可以魅惑一名其他角色，不能连续两晚魅惑同一名角色。狼美人出局时，被魅惑的角色随之殉情出局。"
The charm holds from the night she sends it (she going out that very night takes him) until her next charm.
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose

CHARMED = "魅惑对象"


@entry("狼美人", IDENTITY, "夜晚<魅惑>一名其他角色；狼美人出局时，被魅惑的角色随之出局", ("魅惑",),
       skill=Param("魅惑", "技能在本帖中的名称"),
       aliases=Param(["魅"], "简写"),
       not_twice=Param(True, "不能连续两晚魅惑同一名角色"),
       cause=Param("殉情", "被魅惑者随她出局的原因"),
       except_causes=Param(["红牌"], "她因这些原因出局时，被魅惑者不随之出局"),
       ask=Param("你可以<魅惑>一名其他角色（发送“魅惑 座位号”）：你出局时他随你出局", "每晚告知她的话"))
class WolfBeauty(NightSkill):
    def use(self, g, actor, target) -> None:
        t = choose(g, actor, self.p["skill"], target, not_self=True, not_twice=self.p["not_twice"])
        actor.marks[CHARMED] = t.name

    def after_death(self, g, p, cause) -> None:
        if p.role not in self.holders or cause in self.p["except_causes"]:
            return
        charmed = g.state.player(p.marks.get(CHARMED, ""))
        if charmed and charmed.alive:  # told with his death's publication, by its cause
            g.kill(charmed, self.p["cause"])
