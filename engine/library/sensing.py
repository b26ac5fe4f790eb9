"""Identities that sense wolves near them, in seat order (电梯楼 order wraps round):

熊 "每个白天开始时，若熊左右两侧最近的存活角色中有狼人，公示“熊咆哮了”；否则公示“熊没有咆哮”。熊出局后不再公示。"
狐狸 "每晚可以选择一名角色，得知他与他左右最近的存活角色三人中是否有狼人；若没有，狐狸失去技能。"
Both read what a check sees (`checked_as`: a 隐狼 is not sensed).
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, Part, entry
from .choosing import choose, neighbours


@entry("熊", IDENTITY, "每个白天开始时公示左右最近的存活角色中是否有狼人（熊咆哮）", ("咆哮",),
       wolves=Param(None, "被嗅出的阵营（如 狼人阵营）", required=True, names="阵营"),
       roar=Param("熊咆哮了（熊左右两侧最近的存活角色中有狼人）。", "有狼人时公示的话"),
       quiet=Param("熊没有咆哮。", "没有狼人时公示的话"))
class Bear(Part):
    def begin_day(self, g) -> None:
        bear = self.holder(g)
        if not bear or not g.night_before:
            return
        near = neighbours(g, bear)
        wolf = any(self.rules.seen_faction(g, q) == self.p["wolves"] for q in near)
        g.tell("public", self.p["roar"] if wolf else self.p["quiet"])


@entry("狐狸", IDENTITY, "夜晚<嗅探>一名角色及其左右最近的存活角色，得知三人中是否有狼人；没有则失去技能", ("嗅探",),
       skill=Param("嗅探", "技能在本帖中的名称"),
       aliases=Param(["嗅"], "简写"),
       wolves=Param(None, "被嗅出的阵营（如 狼人阵营）", required=True, names="阵营"),
       loses_when_none=Param(True, "三人中没有狼人时狐狸失去技能"),
       ask=Param("你可以<嗅探>一名角色（发送“嗅探 座位号”）", "每晚告知他的话"))
class Fox(NightSkill):
    def use(self, g, actor, target) -> None:
        skill = self.p["skill"]
        t = choose(g, actor, skill, target)
        three = [t, *neighbours(g, t)]
        wolf = any(self.rules.seen_faction(g, q) == self.p["wolves"] for q in three)
        names = "、".join(g.label(q) for q in three)
        text = f"{skill}：{names} 中{'有' if wolf else '没有'}狼人。"
        if not wolf and self.p["loses_when_none"]:
            actor.lost.add(skill)
            text += f"你失去了技能<{skill}>。"
        g.give_feedback(actor, skill, t.name, wolf, text)
