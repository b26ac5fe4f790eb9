"""The seer (M131 预言家; 154's 除妖道士 is one with 天命): each night, one living player's faction, told as
the good faction or not. "若该角色属于村民阵营，反馈<村民阵营>；否则，反馈<非村民阵营>。" What an identity is
seen as (M131's 混血儿 "查验混血儿时，始终反馈<村民阵营>") is that identity's part's `checked_as`."""
from __future__ import annotations

from .. import skills
from . import IDENTITY, NightSkill, Param, entry


@entry("预言家", IDENTITY, "夜晚<预言>一名角色，得知其是否属于好人阵营", ("预言",),
       skill=Param("预言", "技能在本帖中的名称"),
       aliases=Param(["查", "验"], "简写"),
       good=Param(None, "反馈为好人的阵营（其余反馈为“非”该阵营）", required=True, kind=str, names="阵营"),
       result=Param("预言结果：{target} 是<{result}>", "反馈的话"),
       ask=Param("你可以<预言>一名角色（发送“预言 座位号”）", "每晚告知他的话（本帖的 night.prompt 用到 {ask} 时）"),
       waits_for=Param([], "反馈前须已决定的夜晚行动（能改变结果的，如妖隐、寻找）；空：发动时即反馈"),
       received=Param("已收到：{skill} {target}。结果随后反馈。", "反馈须等待时，发动后告知他的话"))
class Seer(NightSkill):
    def use(self, g, actor, target) -> None:
        skill = self.p["skill"]
        skills.once_tonight(g, skill, actor.name)
        t = g.living_target(target, skill)
        g.night.actions[skill] = (actor.name, t.name)
        g.mark_done(actor.name, skill)
        if self.p["waits_for"]:
            # It waits even when his target is none that can change it, so the delay itself tells him nothing.
            g.tell(f"player:{actor.name}", self.p["received"].format(skill=skill, target=g.label(t)))
        else:
            self.result(g, actor, t)

    def result(self, g, seer, t) -> None:
        good = self.p["good"]
        result = good if self.rules.seen_faction(g, t) == good else "非" + good
        g.give_feedback(seer, self.p["skill"], t.name, result, self.p["result"].format(target=g.label(t), result=result))
        self.rules.foreseen(g, seer, t)

    def feedback(self, g) -> None:
        seer, skill = self.holder(g), self.p["skill"]
        if (self.p["waits_for"] and seer and skill in g.night.actions and not g.feedback_given(seer.name, skill)
                and all(self.rules.decided(g, slot) for slot in self.p["waits_for"])):
            self.result(g, seer, g.state.player(g.night.actions[skill][1]))
