"""The sheriff's <殉职>: "警长并非因红牌罚下而出局后，可以选择一名未出局的角色来继任警长。" (M131 Note 3: "可以撕
警徽。"; whether the badge may be torn is the file's `sheriff.badge_may_be_torn`). The other offices of the sheriff
(weight, election day) are the file's `sheriff:` parameters; his deputy is engine/library/deputy.py.

Who may not take the badge is each part's `heir_problem` (146: "发动此技能后，白痴……不能继任警长"), asked of a
named heir and of a random one alike. A new holder, named or drawn, is each part's `officer_named`.
"""
from __future__ import annotations

from ..errors import Rejected
from . import OFFICE, Param, Part, entry

AFTER_SHOT = "badge_after_shot"  # the carry key: the dead sheriff whose 殉职 waits for his shot


@entry("殉职", OFFICE, "警长非因红牌出局后选择一名未出局的角色继任警长（或撕警徽）", ("殉职",),
       aliases=Param(["移交", "警徽"], "简写"),
       limit=Param("badge", "答复的时限（时限表中的键）"),
       ask=Param("你已出局，可以<殉职>：发送“殉职 座位号”移交警徽，或“殉职 撕”撕毁警徽（关门后30分钟内有效）。", "出局时问他的话"),
       lapsed=Param("{who} 未移交警徽，本局不再有警长", "超时未答复时公示的话"),
       red_card=Param("{who} 被红牌罚下，不能发动<殉职>，本局不再有警长", "警长改为红牌出局时公示的话"),
       random_heir=Param(False, "红牌罚下或超时未移交时警徽随机移交（否则本局不再有警长）"),
       after=Param([], "出局时先答复的技能：答复后再问<殉职>（“猎人警长……依次发动<最后一枪>、<殉职>”）"))
class HandOver(Part):
    decides_last = 2  # after the shot he may be asked for

    def skills(self):
        return [self.skill(self.hand_over, self.name, "decision", self.p["aliases"])]

    def hand_over(self, g, actor, target) -> None:
        pending = g.pending_for(actor.name, self.name)
        if target is None:
            if not g.rules.badge_may_be_torn:
                raise Rejected(f"<{self.name}>是强制技，不能撕警徽：请发送“{self.name} 座位号”选择一名未出局的角色继任警长")
            g.settle(pending)
            g.tell("public", f"{g.label(actor)} 撕毁了警徽，本局不再有警长")
            g.tell(f"player:{actor.name}", "已收到：撕毁警徽。")
            return
        if problem := self.rules.heir_problem(g, g.find(target)):
            raise Rejected(problem)
        if g.find(target).name == actor.name:
            raise Rejected("不能把警徽移交给自己，请选择其他角色")  # a living sheriff handing it on (146's 装傻)
        t = g.living_target(target, self.name)
        g.settle(pending)
        g.state.sheriff = t.name
        g.tell("public", f"{g.label(actor)} 将警徽移交给 {g.label(t)}")
        g.tell(f"player:{actor.name}", f"已收到：警徽移交给 {g.label(t)}。")
        g.tell(f"player:{t.name}", "你继任了警长。")
        self.rules.officer_named(g, "警长", True, actor.name)

    def random_heir(self, g, why: str, before: str) -> None:
        """The badge goes to a player drawn from the game's seed (a red card, a missed 殉职)."""
        s = g.state
        eligible = [p for p in s.alive() if not self.rules.heir_problem(g, p)]
        if eligible:
            heir = s.rng.choice(eligible)
            s.sheriff = heir.name
            g.tell("public", f"{why}，警徽随机移交给 {g.label(heir)}")
            g.tell(f"player:{heir.name}", "你继任了警长。")
        self.rules.officer_named(g, "警长", False, before)

    # --- the hooks ------------------------------------------------------------------------------------
    def after_death(self, g, p, cause) -> None:
        s = g.state
        # a living sheriff handing the badge on (146's 装傻) and sent off meanwhile hands nothing on
        handing = g.pending_for(p.name, self.name) if cause == "红牌" else None
        if handing:
            g.settle(handing)
        if s.carry.get("badge_of") != p.name and not handing:
            return
        if self.p["random_heir"]:
            s.carry.pop("badge_of", None)
            if cause == "红牌":
                # 146, 154: "红牌罚下的警长警徽随机移交。"
                return self.random_heir(g, f"{g.label(p)} 被红牌罚下", p.name)
        if cause != "红牌":
            # every way out but the red card; asked when the death is public: at once by day, at 开门 after a night
            g.when_public(self.name, p)

    def public(self, g, what, p) -> None:
        if what != self.name or g.pending_for(p.name, self.name):
            return
        if any(g.pending_for(p.name, first) for first in self.p["after"]):
            g.state.carry[AFTER_SHOT] = p.name
            return
        g.ask(p, self.name, self.p["ask"], self.p["limit"])

    def answered(self, g, p) -> None:
        if g.state.carry.get(AFTER_SHOT) == p.name and g.phase != "over":
            del g.state.carry[AFTER_SHOT]
            g.when_public(self.name, p)

    def badge_vacated(self, g, p, ask) -> None:
        g.ask(p, self.name, ask, self.p["limit"])

    def badge_lapsed(self, g, p, why) -> None:
        s = g.state
        s.carry["at_dawn"] = [q for q in s.carry.get("at_dawn", []) if q != (self.name, p.name)]
        if pending := g.pending_for(p.name, self.name):
            g.settle(pending)
        self.lapse(g, p, why)

    def expire(self, g, pending) -> None:
        if pending.skill == self.name:
            # 154: "警长被投票出局，关门三十分钟后仍未与导演取得联系，警长随机指定。"
            p = g.state.player(pending.who)
            self.lapse(g, p, f"{g.label(p)} 未移交警徽")

    def lapse(self, g, p, why: str) -> None:
        if self.p["random_heir"]:
            return self.random_heir(g, why, p.name)
        g.tell("public", self.p["lapsed"].format(who=g.label(p)))

    def red_card_instead(self, g, p, cancelled) -> list[str]:
        # "红牌罚下出局的角色……不能发动警长<殉职>" — nor one waiting for his shot
        s = g.state
        waiting = s.carry.get(AFTER_SHOT) == p.name
        if self.name not in cancelled and not waiting:
            return []
        s.carry.pop(AFTER_SHOT, None)
        if self.p["random_heir"]:
            self.random_heir(g, f"{g.label(p)} 被红牌罚下", p.name)
            return [f"警徽随机移交给 {g.label(s.player(s.sheriff))}" if s.sheriff else "没有可以继任警长的角色"]
        g.tell("public", self.p["red_card"].format(who=g.label(p)))
        return ["本局不再有警长"]
