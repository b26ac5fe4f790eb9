"""The sheriff's <殉职>: "警长并非因红牌罚下而出局后，可以选择一名未出局的角色来继任警长。" (M131 Note 3: "可以撕
警徽。"; whether the badge may be torn is the file's `sheriff.badge_may_be_torn`). The mechanics are engine/skills.py's
`hand_over`; the other offices of the sheriff (weight, election day) are the file's `sheriff:` parameters.
"""
from __future__ import annotations

from .. import skills
from . import OFFICE, Param, Part, entry


@entry("殉职", OFFICE, "警长非因红牌出局后选择一名未出局的角色继任警长（或撕警徽）", ("殉职",),
       aliases=Param(["移交", "警徽"], "简写"),
       limit=Param("badge", "答复的时限（时限表中的键）"),
       ask=Param("你已出局，可以<殉职>：发送“殉职 座位号”移交警徽，或“殉职 撕”撕毁警徽（关门后30分钟内有效）。", "出局时问他的话"),
       lapsed=Param("{who} 未移交警徽，本局不再有警长", "超时未答复时公示的话"),
       red_card=Param("{who} 被红牌罚下，不能发动<殉职>，本局不再有警长", "警长改为红牌出局时公示的话"),
       random_heir=Param(False, "红牌罚下或超时未移交时警徽随机移交（否则本局不再有警长）"))
class HandOver(Part):
    def skills(self):
        return [self.skill(self.hand_over, self.name, "decision", self.p["aliases"])]

    def hand_over(self, g, actor, target) -> None:
        skills.hand_over(g, actor, target)

    def after_death(self, g, p, cause) -> None:
        s = g.state
        if s.carry.get("badge_of") != p.name:
            return
        if self.p["random_heir"]:
            del s.carry["badge_of"]
            if cause == "红牌":
                # 154: "红牌罚下的警长警徽随机移交。"
                return self.random_heir(g, f"{g.label(p)} 被红牌罚下")
        if cause != "红牌":
            # every way out but the red card; asked when the death is public: at once by day, at 开门 after a night
            g.when_public(self.name, p)

    def random_heir(self, g, why: str) -> None:
        skills.random_sheriff(g, why, g.state.alive())

    def public(self, g, what, p) -> None:
        if what == self.name:
            g.ask(p, self.name, self.p["ask"], self.p["limit"])

    def expire(self, g, pending) -> None:
        if pending.skill != self.name:
            return
        if self.p["random_heir"]:
            # 154: "警长被投票出局，关门三十分钟后仍未与导演取得联系，警长随机指定。"
            return self.random_heir(g, f"{pending.who} 未移交警徽")
        g.tell("public", self.p["lapsed"].format(who=pending.who))

    def red_card_instead(self, g, p, cancelled) -> list[str]:
        # "红牌罚下出局的角色……不能发动警长<殉职>"
        if self.name not in cancelled:
            return []
        if self.p["random_heir"]:
            self.random_heir(g, f"{g.label(p)} 被红牌罚下")
            s = g.state
            return [f"警徽随机移交给 {g.label(s.player(s.sheriff))}" if s.sheriff else "没有可以继任警长的角色"]
        g.tell("public", self.p["red_card"].format(who=g.label(p)))
        return ["本局不再有警长"]
