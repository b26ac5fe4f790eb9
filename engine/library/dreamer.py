"""The dream-catcher (摄梦人) of today's 狼人杀: each night he dreams one player, who cannot go out that night; the
same player dreamed two nights running goes out; where the dreamer goes out at night, his dreamer goes with him.

Usual post: "摄梦：每晚可以选择一名其他角色入梦，该角色当晚不会出局（免疫夜间伤害）；若连续两晚选择同一名角色，该角色
出局（梦死）。摄梦人在夜晚出局时，当晚的入梦者随之出局。" `protects_from`: the night's harms the dream stops, by
settlement step; `linked`: the dreamed goes out with him.
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose

TWICE = "摄梦:连续"  # carry: the night on which tonight's dream is the second running on one player


@entry("摄梦人", IDENTITY, "夜晚<摄梦>一名其他角色使其当晚不出局；连续两晚同一人则其出局；摄梦人夜晚出局时入梦者随之出局",
       ("摄梦",),
       skill=Param("摄梦", "技能在本帖中的名称"),
       aliases=Param(["梦"], "简写"),
       protects_from=Param(None, "入梦者免疫的夜间伤害（结算步骤，如 [杀人, 毒药]）", required=True),
       twice_dies=Param(True, "连续两晚入梦同一名角色时，该角色出局"),
       linked=Param(True, "摄梦人在夜晚出局时，入梦者随之出局"),
       cause=Param("梦死", "入梦者因此出局的原因"),
       ask=Param("你可以<摄梦>一名其他角色（发送“摄梦 座位号”）：他今晚不会出局；连续两晚同一人则他出局", "每晚告知他的话"))
class Dreamer(NightSkill):
    def use(self, g, actor, target) -> None:
        last = actor.marks.get(f"{self.p['skill']}:上一晚")
        t = choose(g, actor, self.p["skill"], target, not_self=True)
        if last == (g.night.number - 1, t.name) and self.p["twice_dies"]:
            g.state.carry[TWICE] = g.night.number
            g.tell(f"player:{actor.name}", f"你连续两晚<{self.p['skill']}>{g.label(t)}：他今晚将出局。")

    def dreamed(self, g) -> str | None:
        a = g.night.actions.get(self.p["skill"])
        return a[1] if a else None

    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        # the dream stops the harms before it in the settlement order; the second night running kills
        name = self.dreamed(g)
        if not name:
            return out
        out = [(n, c) for n, c in out if not (n == name and c in self.p["protects_from"])]
        if g.state.carry.get(TWICE) == g.night.number:
            out.append((name, self.p["cause"]))
        return out

    def after_death(self, g, p, cause) -> None:
        name = self.dreamed(g) if g.phase == "night" else None
        if self.p["linked"] and p.role in self.holders and name and g.state.player(name).alive:
            g.kill(g.state.player(name), self.p["cause"])
