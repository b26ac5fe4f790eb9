"""The witch (M131 女巫, 154 苗疆蛊女): <通灵> senses the night's harm, then one <救药> and one <毒药> a
game, never both the same night; the mechanics are engine/skills.py's `save` and `poison`.

M131: "<通灵><强制>：游戏日夜晚，反馈被指杀的角色。<救药><限定>：女巫可以选择一名其他角色，对其使用救药。该角色当晚
不会因被指杀而出局。<救药>发动后，在该夜晚不可发动技能<毒药>。<救药>使用后，失去技能<通灵>。<毒药><限定>：该角色在
夜晚结束前出局。"
"""
from __future__ import annotations

from .. import skills
from . import IDENTITY, SAVES, Param, Part, entry, still_has


@entry("女巫", IDENTITY, "<通灵>得知当晚被指杀的角色；<救药>（限定）；<毒药>（限定）；同一夜不能同时使用",
       ("通灵", "救药", "毒药"),
       slot=Param("女巫", "她的夜晚行动在夜晚顺序中的名称（答复为救药、毒药或放弃）"),
       senses=Param(None, "<通灵>得知的伤害：这些夜晚行动（结算步骤）的目标（如 [杀人]）", required=True, kind=list),
       senses_void=Param(False, "<通灵>是否也得知已不生效的伤害（发出者的阵营在当晚判负）：按“被指杀”即被选为目标"),
       waits_for=Param(None, "<通灵>反馈前须已决定的夜晚行动（夜晚顺序中的名称）", required=True, kind=list),
       limit=Param(None, "她的决定的时限（时限表中的键）；None：从<通灵>反馈起按 feedback 时限，之前不限", kind=str),
       saves_from=Param(None, "<救药>使目标免于的出局原因（如 [杀人]；附加刀不在其中）", required=True, kind=list),
       self_save=Param(False, "能否自救"),
       self_save_refusal=Param("女巫全程不能自救：<救药>须选择一名其他角色", "不能自救时的回复"),
       prompt=Param("第{night}夜：狼群行动后你会收到<通灵>反馈，之后30分钟内决定是否使用药。",
                    "每晚告知她的话（{choices}：她还能发送的）"),
       poison_prompt=Param("第{night}夜：你可以使用<毒药>（发送“毒药 座位号”），关门后1小时内有效；不使用请发送“放弃”。",
                           "失去<通灵>后每晚告知她的话"),
       decide=Param("请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。", "<通灵>反馈后请她决定的话"))
class Witch(Part):
    potion_slot = True
    spares_rank = SAVES

    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["slot"],)

    def skills(self):
        return [self.skill(self.save, "救药", "night", ("救",), holders=self.holders),
                self.skill(self.poison, "毒药", "night", ("毒",), holders=self.holders)]

    def save(self, g, actor, target) -> None:
        still_has(actor, "救药")
        refusal = None if self.p["self_save"] else self.p["self_save_refusal"]
        skills.save(g, actor, target, slot=self.p["slot"], self_save_refusal=refusal)

    def poison(self, g, actor, target) -> None:
        still_has(actor, "毒药")
        skills.poison(g, actor, target, slot=self.p["slot"])

    def done(self, g, w=None) -> bool:
        # both potions used, lost (an elder's curse) or taken for the night (an event's): nothing is left for her to decide
        w = w or self.holder(g)
        return (w is None or g.decided(w.name, self.p["slot"])
                or all(k in w.used or k in w.lost or g.suspended(w, k) for k in ("救药", "毒药")))

    def open_slots(self, g):
        w = self.holder(g)
        return [(w.name, self.p["slot"])] if w and not self.done(g, w) else []

    def begin_night(self, g) -> None:
        for who, slot in self.open_slots(g):
            w = g.state.player(who)
            choices = " / ".join([f"{k} 座位号" for k in ("救药", "毒药") if k not in w.used | w.lost] + ["放弃"])
            sensing = "通灵" not in w.lost
            if self.p["limit"] is None and sensing:
                # her time limit starts with her <通灵> feedback
                g.tell(f"player:{who}", self.p["prompt"].format(night=g.night.number, choices=choices))
                continue
            g.start_deadline(g.night_key(who, slot), [who], slot, self.p["limit"] or "night")
            text = self.p["prompt"] if sensing else self.p["poison_prompt"]  # without 通灵 only 毒药 is left
            g.tell(f"player:{who}", text.format(night=g.night.number, choices=choices))

    def feedback(self, g) -> None:
        w = self.holder(g)
        # <通灵> is a skill: a night she can use none (梦魇's 恐惧, the 血月) she is not told either
        if not w or "通灵" in w.lost or g.suspended(w, "通灵") or g.feedback_given(w.name, "通灵"):
            return
        if not all(self.rules.decided(g, slot) for slot in self.p["waits_for"]):
            return
        seat = {p.name: p.seat for p in g.state.players}
        a = g.night.actions
        named = [a[k][1] for k in self.p["senses"] if k in a] if self.p["senses_void"] else self.rules.harm_targets(g, self.p["senses"])
        attacked = sorted(set(named), key=seat.get)
        g.give_feedback(w, "通灵", None, attacked, skills.sensed(g, attacked, self.rules.harm_word))
        if self.p["limit"] is None and not self.done(g):
            g.tell(f"player:{w.name}", self.p["decide"])
            g.start_deadline(g.night_key(w.name, self.p["slot"]), [w.name], self.p["slot"], "feedback")

    def spares(self, g, name, cause) -> bool:
        a = g.night.actions
        return cause in self.p["saves_from"] and "救药" in a and a["救药"][1] == name

    def steps(self):
        return {"毒药": self.settle}

    def settle(self, g, out):
        # 毒药结算: "该角色在夜晚结束前出局。"
        if "毒药" in g.night.actions:
            out.append((g.night.actions["毒药"][1], "毒药"))
        return out
