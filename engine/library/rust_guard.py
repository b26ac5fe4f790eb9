"""The rust-shield guard (M131 锈盾守卫): <最后的守护> learns whether one player is harmed tonight, then
may protect him; a success, or the same unharmed player two nights running, costs him the skill.

"选择一名角色，反馈其是否在当晚受到伤害（包括狼人<杀人>、感染白痴<假痴不癫>附加刀、女巫<毒药>）。然后锈盾守卫可以
守护该角色。若出局角色被锈盾守卫选择并守护，则其不出局。成功守护一名角色后，锈盾守卫失去技能。若锈盾守卫连续两晚选择
同一名角色，且该角色这两晚均未受到伤害，则锈盾守卫也会失去技能。" "若某角色被狼人刀了，然后又被女巫救了，则视为没有
受到伤害。" Harmed means: going out by the settlement steps before his own (the file's settlement order).
"""
from __future__ import annotations

from ..errors import Rejected
from ..skills import once_tonight
from . import IDENTITY, Param, Part, entry


@entry("锈盾守卫", IDENTITY, "夜晚<最后的守护>：得知一名角色当晚是否受到伤害，然后可以<守护>他（成功一次即失去技能）",
       ("最后的守护", "守护"),
       skill=Param("最后的守护", "选择目标的技能名称"),
       aliases=Param(["守护目标", "选"], "选择目标的简写"),
       protect=Param("守护", "守护的技能名称（SCENARIOS.md 所称）"),
       protect_aliases=Param(["守"], "守护的简写"),
       waits_for=Param(None, "反馈前须已决定的夜晚行动（所有伤害）", required=True, kind=list))
class RustGuard(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["skill"],)

    def skills(self):
        return [self.skill(self.choose, self.p["skill"], "night", self.p["aliases"], holders=self.holders),
                self.skill(self.protect, self.p["protect"], "night", self.p["protect_aliases"], takes_target=False,
                           holders=self.holders)]

    def choose(self, g, actor, target) -> None:
        # The choice may change until its feedback is given; the answer is about the player chosen.
        skill = self.p["skill"]
        if skill in actor.lost:
            raise Rejected(f"锈盾守卫已失去技能<{skill}>")
        changing = skill in g.night.actions
        if changing and g.feedback_given(actor.name, skill):
            raise Rejected(f"已经收到<{skill}>的反馈，不能再更改目标")
        if not changing:
            once_tonight(g, skill, actor.name)
        t = g.living_target(target, skill)
        g.night.actions[skill] = (actor.name, t.name)
        g.mark_done(actor.name, skill)
        g.tell(f"player:{actor.name}", f"已{'改为' if changing else '收到'}：{skill} {g.label(t)}。狼群和女巫行动后反馈其是否受到伤害，收到反馈前可以更改。")

    def protect(self, g, actor, target) -> None:
        # The second half of 最后的守护 ("然后锈盾守卫可以守护该角色").
        skill, protect = self.p["skill"], self.p["protect"]
        if skill not in g.night.actions:
            raise Rejected(f"请先发动<{skill}>选择一名角色")
        if not g.feedback_given(actor.name, skill):
            raise Rejected(f"还没有收到<{skill}>的反馈，请等待反馈后再决定是否守护")
        if g.decided(actor.name, protect):
            raise Rejected("今晚已经决定过是否守护")
        g.night.actions[protect] = (actor.name, g.night.actions[skill][1])
        g.mark_done(actor.name, protect)
        g.tell(f"player:{actor.name}", f"已收到：{protect} {g.label(g.state.player(g.night.actions[protect][1]))}。")

    def open_slots(self, g):
        guard, skill = self.holder(g), self.p["skill"]
        if not guard or skill in guard.lost:
            return []
        if not g.decided(guard.name, skill):
            return [(guard.name, skill)]
        if skill in g.night.actions and not g.decided(guard.name, self.p["protect"]):
            return [(guard.name, self.p["protect"])]
        return []

    def begin_night(self, g) -> None:
        for who, slot in self.open_slots(g):
            self.rules.prompt(g, who, slot)

    def pass_night(self, g, who, slot) -> None:
        if slot == self.p["skill"]:  # choosing nobody leaves nothing to protect
            g.mark_done(who, self.p["protect"])

    def feedback(self, g) -> None:
        guard, skill, a = self.holder(g), self.p["skill"], g.night.actions
        if (guard and skill in a and not g.feedback_given(guard.name, skill)
                and all(self.rules.decided(g, slot) for slot in self.p["waits_for"])):
            target = a[skill][1]
            harmed = any(name == target for name, _ in self.rules.harms_before(g, skill))
            g.give_feedback(guard, skill, target, harmed,
                            f"{skill}：{g.label(g.state.player(target))} 今晚{'受到了' if harmed else '没有受到'}伤害。30分钟内发送“{self.p['protect']}”守护他，或“放弃”。")
            g.start_deadline(g.night_key(guard.name, self.p["protect"]), [guard.name], self.p["protect"], "feedback")

    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        s, a, skill = g.state, g.night.actions, self.p["skill"]
        if skill not in a:
            return out
        guard = s.player(a[skill][0])
        target = a[skill][1]
        harmed = any(name == target for name, _ in out)
        if self.p["protect"] in a and harmed:
            out = [(n, c) for n, c in out if n != target]
            guard.lost.add(skill)
            g.tell(f"player:{guard.name}", f"守护成功，你失去了技能<{skill}>。")
        last = s.carry.get("guard_last")
        if last and last == (g.night.number - 1, target, False) and not harmed:
            guard.lost.add(skill)
            g.tell(f"player:{guard.name}", f"你连续两晚选择了同一名未受伤害的角色，失去了技能<{skill}>。")
        s.carry["guard_last"] = (g.night.number, target, harmed)
        return out
