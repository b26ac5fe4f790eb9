"""The hunter (154 绝命刀客): going out other than by a red card, he may take one other player out with him.

最后一刀: "当刀客并非因红牌罚下而出局后，刀客可以选择一名其他角色，对其开刀。该角色立即出局。" and "投票结束后，因……
刀客<最后一刀>而出局而角色……立即公示". Asked when his death is public: at once by day, at 开门 after a night.
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry


@entry("绝命刀客", IDENTITY, "非因红牌出局后可以<最后一刀>使一名其他角色立即出局", ("最后一刀",),
       skill=Param("最后一刀", "技能在本帖中的名称"),
       aliases=Param(["开刀", "刀"], "简写"),
       limit=Param("blade", "答复的时限（时限表中的键）"),
       ask=Param("你已出局，可以<最后一刀>：发送“最后一刀 座位号”使一名其他角色出局，或“放弃”（关门后30分钟内有效）。", "出局时问他的话"))
class Hunter(Part):
    def skills(self):
        return [self.skill(self.shoot, self.p["skill"], "decision", self.p["aliases"])]

    def shoot(self, g, actor, target) -> None:
        skill = self.p["skill"]
        pending = g.pending_for(actor.name, skill)
        if target is None:
            g.settle(pending)
            g.tell(f"player:{actor.name}", f"已收到：放弃<{skill}>。")
            return
        t = g.living_target(target, skill)  # "其他角色": he is out himself by now
        g.settle(pending)
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。")
        g.kill(t, skill)
        g.publish_deaths([t.name], skill)

    def after_death(self, g, p, cause) -> None:
        # a shot lost before (an elder's curse) is not asked for
        if p.role in self.holders and cause != "红牌" and self.p["skill"] not in p.lost:
            g.when_public(self.p["skill"], p)

    def public(self, g, what, p) -> None:
        if what == self.p["skill"]:
            g.ask(p, self.p["skill"], self.p["ask"], self.p["limit"])

    def expire(self, g, pending) -> None:
        if pending.skill == self.p["skill"]:
            g.tell("director", f"{pending.who} 未在时限内发动<{pending.skill}>，视为放弃")
