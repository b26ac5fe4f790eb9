"""The gravekeeper (守墓人): each night after an exile he learns whether the player exiled that day was good.

Usual post: "守墓人：每个夜晚开始时，得知前一个白天被投票出局的角色是否属于好人阵营（或其具体身份）。" `exact`: the
identity instead of the faction. He reads the truth: a 隐狼 exiled shows as the wolf he is. His reading is a
skill: a night he can use none (the 梦魇's 恐惧: "该角色当晚不能发动技能") he learns nothing, so where a post has
one, he is told once that is decided (`waits_for`).
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry

EXILED = "守墓:放逐"


@entry("守墓人", IDENTITY, "夜晚开始时得知前一个白天被投票出局的角色的阵营（或具体身份）", ("守墓",),
       skill=Param("守墓", "技能在本帖中的名称（反馈的名称）"),
       good=Param(None, "反馈为好人的阵营（其余反馈为“非”该阵营）", required=True, names="阵营"),
       exact=Param(False, "反馈具体身份而不是阵营"),
       result=Param("守墓：{target} 是<{result}>", "反馈的话"),
       waits_for=Param([], "反馈前须已决定的夜晚行动（夜晚顺序中的名称，如能让他当晚失去技能的 [恐惧]）", kind=list))
class Gravekeeper(Part):
    def after_death(self, g, p, cause) -> None:
        if cause == "投票":  # read the night after the day he went out
            g.state.carry[EXILED] = {"name": p.name, "night": g.state.night_no + 1}

    def feedback(self, g) -> None:
        keeper, exiled, skill = self.holder(g), g.state.carry.get(EXILED), self.p["skill"]
        if not keeper or not exiled or exiled["night"] != g.night.number or g.feedback_given(keeper.name, skill):
            return
        if g.suspended(keeper, skill) or not all(self.rules.decided(g, slot) for slot in self.p["waits_for"]):
            return
        t = g.state.player(exiled["name"])
        good = self.p["good"]
        result = t.role if self.p["exact"] else good if t.faction == good else "非" + good
        g.give_feedback(keeper, self.p["skill"], t.name, result, self.p["result"].format(target=g.label(t), result=result))
