"""The witch-hunter (猎魔人) of today's 狼人杀: from the second night, he hunts one player; a wolf dies, else he dies;
the witch's poison does not take him.

Usual post: "狩猎：从第二夜起，每晚可以狩猎一名其他角色。若该角色属于狼人阵营，其当晚出局；否则猎魔人当晚出局。猎魔人
免疫女巫的毒药。"
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose


@entry("猎魔人", IDENTITY, "从指定的夜晚起<狩猎>一名其他角色：狼人则其出局，否则猎魔人出局；免疫毒药", ("狩猎",),
       skill=Param("狩猎", "技能在本帖中的名称"),
       aliases=Param(["猎"], "简写"),
       wolves=Param(None, "狩猎使之出局的阵营（如 狼人阵营）", required=True, names="阵营"),
       from_night=Param(2, "从第几夜起可以狩猎"),
       immune_to=Param(["毒药"], "对他无效的夜间伤害（结算步骤）"),
       ask=Param("你可以<狩猎>一名其他角色（发送“狩猎 座位号”）：狼人则其出局，否则你出局", "每晚告知他的话"))
class WitchHunter(NightSkill):
    def open_slots(self, g):
        return super().open_slots(g) if g.night.number >= self.p["from_night"] else []

    def use(self, g, actor, target) -> None:
        if g.night.number < self.p["from_night"]:
            raise Rejected(f"<{self.p['skill']}>从第{self.p['from_night']}夜起才能发动")
        choose(g, actor, self.p["skill"], target, not_self=True)

    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        s = g.state
        out = [(n, c) for n, c in out if not (s.player(n).role in self.holders and c in self.p["immune_to"])]
        a = g.night.actions.get(self.p["skill"])
        if a:
            hunted = s.player(a[1])
            out.append((hunted.name, self.p["skill"]) if hunted.faction == self.p["wolves"] else (a[0], self.p["skill"]))
        return out
