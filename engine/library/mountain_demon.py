"""The mountain demon (154 黑山老妖), a faction of his own: in each pair of nights (1-2, 3-4...) one night he
may <吸精> a player and one night <妖隐>: harmed that night he does not go out, and a check sees him as good.

"吸精：游戏日每两晚（1-2晚、3-4晚，以此类推）选择一晚，可以吸精一名角色。妖隐：游戏日每两晚（1-2晚、3-4晚，以此类推）
选择一晚，可以发动妖隐。<妖隐>发动的夜晚，黑山老妖被有效吸精时不会出局；当道士查验老妖时，反馈为<书生阵营>。"
His 吸精 is sent under the same word as a team's kill (the ruleset passes it to him when he sends it).
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, Param, Part, entry


def _pair(night: int) -> int:
    return (night + 1) // 2


@entry("黑山老妖", IDENTITY, "每两晚中一晚可以<吸精>一名角色、一晚可以<妖隐>（被吸精不出局，被查验为好人）", ("吸精", "妖隐"),
       slot=Param("黑山老妖", "他的夜晚行动在夜晚顺序中的名称"),
       suck=Param("吸精", "吸精的技能名称（与女鬼群的技能同名）"),
       action=Param("老妖吸精", "他的吸精作为结算步骤的名称"),
       hide=Param("妖隐", "妖隐的技能名称"),
       hides_from=Param(None, "妖隐当晚使他不出局的伤害（结算步骤）", required=True, kind=list),
       checked_as=Param(None, "妖隐当晚被查验时反馈的阵营", required=True, kind=str, names="阵营"))
class MountainDemon(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["slot"],)

    def options(self, p, night: int) -> list[str]:
        return [skill for skill in (self.p["suck"], self.p["hide"]) if _pair(p.marks.get(f"{skill}夜", 0)) != _pair(night)]

    def skills(self):
        return [self.skill(self.hide, self.p["hide"], "night", ("隐",), takes_target=False, holders=self.holders)]

    def shared_skills(self) -> dict:
        return {self.p["suck"]: self.suck}

    def decides(self, g, actor, skill: str) -> None:
        # "可以选择吸精一名角色或妖隐": one of the two a night, each once in its pair of nights.
        if g.decided(actor.name, self.p["slot"]):
            raise Rejected(f"{self.p['slot']}今晚已经行动、放弃或超过时限")
        if skill not in self.options(actor, g.night.number):
            p = _pair(g.night.number)
            raise Rejected(f"第{2 * p - 1}-{2 * p}晚的<{skill}>已经用过：每两晚中只能有一晚{skill}")

    def suck(self, g, actor, target) -> None:
        skill = self.p["suck"]
        self.decides(g, actor, skill)
        t = g.living_target(target, skill)
        actor.marks[f"{skill}夜"] = g.night.number
        g.night.actions[self.p["action"]] = (actor.name, t.name)
        g.mark_done(actor.name, self.p["slot"])
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。")

    def hide(self, g, actor, target) -> None:
        skill = self.p["hide"]
        self.decides(g, actor, skill)
        actor.marks[f"{skill}夜"] = g.night.number
        g.night.actions[skill] = (actor.name, None)
        g.mark_done(actor.name, self.p["slot"])
        g.tell(f"player:{actor.name}", f"已收到：{skill}。今晚被{self.p['suck']}不会出局，被道士查验为{self.p['checked_as']}。")

    def open_slots(self, g):
        p = self.holder(g)
        return [(p.name, self.p["slot"])] if p and self.options(p, g.night.number) and not g.decided(p.name, self.p["slot"]) else []

    def begin_night(self, g) -> None:
        words = {self.p["suck"]: f"<{self.p['suck']}>一名角色（发送“{self.p['suck']} 座位号”）",
                 self.p["hide"]: f"<{self.p['hide']}>（发送“{self.p['hide']}”）"}
        for who, slot in self.open_slots(g):
            ask = "你今晚可以" + "或".join(words[o] for o in self.options(g.state.player(who), g.night.number))
            self.rules.prompt(g, who, slot, ask)

    def slot_text(self, g, who, slot) -> str | None:
        # what this pair of nights leaves him
        if slot != self.p["slot"]:
            return None
        left = self.options(g.state.player(who), g.night.number)
        return " / ".join([{self.p["suck"]: f"{self.p['suck']} 座位号", self.p["hide"]: self.p["hide"]}[o] for o in left] + ["放弃"])

    def spares(self, g, name, cause) -> bool:
        a = g.night.actions
        return cause in self.p["hides_from"] and self.p["hide"] in a and a[self.p["hide"]][0] == name

    def checked_as(self, g, p, faction):
        return self.p["checked_as"] if p.role in self.holders and self.p["hide"] in g.night.actions else faction

    def steps(self):
        return {self.p["action"]: self.settle}

    def settle(self, g, out):
        a = g.night.actions
        key = self.p["action"]
        if key in a and not self.rules.spared(g, a[key][1], key):
            out.append((a[key][1], self.p["suck"]))
        return out
