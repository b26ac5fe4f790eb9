"""The tree-spirit grandmother (154 树精姥姥): a member of the team that kills together who also has a kill of
her own, <冲锋>, until a member of her team goes out, and once a game <姥姥之怒>, added to the team's kill,
which no save can stop.

冲锋: "游戏日夜晚，可以吸食一名角色。当任意一名女鬼群内角色因除红牌罚下以外的原因出局后，姥姥失去<冲锋>。"
姥姥之怒【限定技】: "任意游戏日夜晚，在该阵营吸食角色时，可以附加姥姥之怒。被附加此技能死去的角色立即出局，蛊女和郎中技能
皆对其束手无策。此技能每局游戏仅限使用一次。" The mechanics of 冲锋 lost and given back are engine/skills.py's.

146's 狼王 is one without <姥姥之怒> (`fury: null`): "游戏日夜晚，可以指杀一名角色。当任意一名狼群内角色因除红牌罚下以外的
原因出局后，狼王失去<冲锋>。" Her faction's loss takes her skills while she is of it: a holder who left it (146's 狼王
eloped with a lover) keeps them.
"""
from __future__ import annotations

from .. import skills
from ..errors import Rejected
from . import IDENTITY, Param, Part, entry


@entry("树精姥姥", IDENTITY, "与群共同行动；<冲锋>：每晚另外吸食一名角色，群内有人非因红牌出局后失去；<姥姥之怒>（限定）：附加到群的吸食，救药和针灸无效",
       ("冲锋", "姥姥之怒"),
       charge=Param("冲锋", "冲锋的技能名称"),
       fury=Param("姥姥之怒", "姥姥之怒的技能名称（null：没有姥姥之怒）", kind=str),
       team_skill=Param(None, "姥姥之怒所附加的群技能（阵营判负后的回复也称它）", required=True, kind=str),
       faction=Param(None, "该阵营判负后失去这些技能（已不属于该阵营的持有者保留）", required=True, kind=str, names="阵营"),
       lost=Param("{faction}已经判负，失去了<{team_skill}>", "阵营判负后发动时的回复（{skill}：所发动的技能）"),
       ask=Param("你可以<冲锋>吸食一名角色（发送“冲锋 座位号”）", "每晚告知她的话"))
class Grandmother(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["charge"],)

    def skills(self):
        out = [self.skill(self.charge, self.p["charge"], "night", ("冲",), holders=self.holders)]
        if self.p["fury"]:
            out.append(self.skill(self.fury, self.p["fury"], "night", ("怒",), holders=self.holders, attaches_to=self.p["team_skill"]))
        return out

    def keeps(self, g, p) -> bool:
        # "女鬼阵营优先判负后，女鬼阵营失去吸精技能。"
        return not (p.faction == self.p["faction"] and self.p["faction"] in g.state.lost)

    def acting(self, g, step=None) -> bool:
        sent = g.night.actions.get(step) if step else None
        return sent is None or self.keeps(g, g.state.player(sent[0]))

    def may_act(self, g, actor, skill: str) -> None:
        if not self.keeps(g, actor):
            raise Rejected(self.p["lost"].format(faction=self.p["faction"], team_skill=self.p["team_skill"], skill=skill))

    def charge(self, g, actor, target) -> None:
        if self.p["charge"] in actor.lost:
            raise Rejected(f"{actor.role}已经失去<{self.p['charge']}>：{self.team}内已有角色出局")
        self.may_act(g, actor, self.p["charge"])
        skills.night_target(g, actor, self.p["charge"], target)

    def fury(self, g, actor, target) -> None:
        # Attached to the group's kill of the night: sent with a target it is that kill ("姥姥之怒 座位号"); sent
        # bare it joins the kill already sent, until the night settles. Nothing waits for it.
        fury, kill, team = self.p["fury"], self.p["team_skill"], self.team
        if fury in actor.used:
            raise Rejected(f"<{fury}>每局游戏仅限使用一次，已经用过")
        self.may_act(g, actor, fury)
        sent = g.night.actions.get(kill)
        if sent is None and g.decided(team, kill):
            raise Rejected(f"{team}今晚已经放弃<{kill}>或已超过时限：<{fury}>没有可以附加的{kill}")
        if sent is None and target is None:
            raise Rejected(f"{team}今晚还没有<{kill}>：发送“{fury} 座位号”{kill}并附加{fury}，或在{team}{kill}之后发送“{fury}”")
        t = g.living_target(target, fury) if target is not None else g.state.player(sent[1])
        if sent and t.name != sent[1]:
            raise Rejected(f"{team}今晚已经{kill} {g.label(g.state.player(sent[1]))}：<{fury}>只能附加到这次{kill}（发送“{fury}”）")
        actor.used.add(fury)
        g.night.actions[fury] = (actor.name, t.name)
        if sent:
            g.tell(f"team:{team}", f"{actor.name} 为今晚的{kill} {g.label(t)} 附加了<{fury}>。已确认，不能更改。")
            return
        g.night.actions[kill] = (actor.name, t.name)
        g.mark_done(team, kill)
        g.tell(f"team:{team}", f"{actor.name} 提交了今晚的{kill}：{g.label(t)}，附加<{fury}>。已确认，不能更改。")

    def open_slots(self, g):
        p = self.holder(g)
        charge = self.p["charge"]
        if p and self.keeps(g, p) and charge not in p.lost and not g.suspended(p, charge) and not g.decided(p.name, charge):
            return [(p.name, self.p["charge"])]
        return []

    def begin_night(self, g) -> None:
        for who, slot in self.open_slots(g):
            self.rules.prompt(g, who, slot, self.p["ask"])

    def steps(self):
        fury = {self.p["fury"]: self.settle_fury} if self.p["fury"] else {}
        return {self.p["charge"]: self.settle_charge, **fury}

    def settle_charge(self, g, out):
        a, key = g.night.actions, self.p["charge"]
        if key in a and self.acting(g, key) and not self.rules.spared(g, a[key][1], key):
            out.append((a[key][1], key))
        return out

    def settle_fury(self, g, out):
        # "蛊女和郎中技能皆对其束手无策" — the post names only those two: a 妖隐 still holds against it.
        a = g.night.actions
        if self.p["fury"] in a and self.acting(g, self.p["fury"]) and not self.rules.spared(g, a[self.p["team_skill"]][1], self.p["fury"]):
            out.append((a[self.p["team_skill"]][1], self.p["team_skill"]))
        return out

    def after_death(self, g, p, cause) -> None:
        if cause != "红牌":
            skills.charge_lost(g, p, self.team, self.holders[0])

    def red_card_instead(self, g, p, cancelled) -> list[str]:
        return skills.charge_back(g, p, self.team, g.state.with_role(*self.holders))
