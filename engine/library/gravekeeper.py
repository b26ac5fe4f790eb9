"""The gravekeeper (守墓人): each night after an exile he learns whether the player exiled that day was good.

Usual post: "守墓人：每个夜晚开始时，得知前一个白天被投票出局的角色是否属于好人阵营（或其具体身份）。" `exact`: the
identity instead of the faction. He reads the truth: a 隐狼 exiled shows as the wolf he is.
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry

EXILED = "守墓:放逐"


@entry("守墓人", IDENTITY, "夜晚开始时得知前一个白天被投票出局的角色的阵营（或具体身份）", ("守墓",),
       skill=Param("守墓", "技能在本帖中的名称（反馈的名称）"),
       good=Param(None, "反馈为好人的阵营（其余反馈为“非”该阵营）", required=True),
       exact=Param(False, "反馈具体身份而不是阵营"),
       result=Param("守墓：{target} 是<{result}>", "反馈的话"))
class Gravekeeper(Part):
    def after_death(self, g, p, cause) -> None:
        if cause == "投票":
            g.state.carry[EXILED] = p.name

    def begin_night(self, g) -> None:
        keeper, exiled = self.holder(g), g.state.carry.pop(EXILED, None)
        if not keeper or not exiled:
            return
        t = g.state.player(exiled)
        good = self.p["good"]
        result = t.role if self.p["exact"] else good if t.faction == good else "非" + good
        g.give_feedback(keeper, self.p["skill"], t.name, result, self.p["result"].format(target=g.label(t), result=result))
