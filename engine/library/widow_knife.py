"""The widow's knife (146 寡妇刀): lovers who formed a faction of their own (the library's 丘比特, `mixed`) gain a
team kill once another faction has lost first.

寡妇刀<强制>: "当情侣中没有混血儿、且【狼人阵营】优先判负后，情侣获得技能<杀人>（此事件发生时会通知情侣）。" The knife is the
hand of one lover: "黑情侣阵营的刀在混血儿/狼人手中。如果情侣的另一人被U，则他们依然可出刀。反之，如果情侣中的混血儿/狼人被U，
则失去<杀人>。" — while a lover of `knife_roles` lives, the living lovers choose together, as a team does. It is held from
the night after the loss: the lovers are told "从下一个夜晚起", and a night's 指杀 are known to the witch by then.

It is sent with the word of the team kill it copies (杀人): FileRuleset sends it to this part for a lover of the faction,
to the other team's for anyone else.
"""
from __future__ import annotations

from .. import skills
from ..errors import Rejected
from . import TEAM_SKILL, Param, Part, entry

ARMED = "widow_knife"  # carry: the lovers hold the knife tonight


@entry("寡妇刀", TEAM_SKILL, "组成自己阵营的情侣在另一阵营优先判负后的下一夜起共同<杀人>；刀在所列身份的情侣手中，他出局后失去",
       ("杀人",),
       skill=Param("杀人", "技能在本帖中的名称（与所仿的群技能同名）"),
       key=Param("黑情侣杀人", "这次指杀的名称（结算步骤的名称）"),
       cause=Param("杀人", "被杀者的出局原因"),
       faction=Param(None, "情侣组成的阵营（丘比特的 mixed）", required=True, kind=str, names="阵营"),
       after_loss_of=Param(None, "该阵营优先判负后情侣获得技能", required=True, kind=str, names="阵营"),
       knife_roles=Param(None, "刀在这些身份的情侣手中：他出局后情侣失去技能", required=True, kind=list),
       word=Param("指杀", "告知该群时对这次行动的称呼"),
       prompt=Param("第{night}夜：{team}可以<{skill}>：发送“{skill} 座位号”（全队放弃发送“{skill} 空”），关门后1小时内有效。",
                    "每晚告知情侣群的话"),
       gained=Param("{lost}已被判负：<寡妇刀>生效，你们获得<{skill}>，从下一个夜晚起可以共同指杀一名角色。", "获得技能时告知情侣群的话"),
       not_yet=Param("情侣在{lost}判负后的下一个夜晚起才获得<{skill}>（寡妇刀）", "尚未获得时发动的回复"),
       gone=Param("{faction}的刀在持刀的情侣（{roles}）手中：他已出局，情侣失去了<{skill}>", "持刀者出局后发动的回复"))
class WidowKnife(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["skill"],)

    def skills(self):
        return [self.skill(self.kill, self.p["skill"], "night", team=True)]

    def lovers(self, g):
        return [g.state.player(n) for n in g.state.carry.get("lovers", [])]

    def formed(self, g) -> bool:
        lovers = self.lovers(g)
        return bool(lovers) and lovers[0].faction == self.p["faction"]

    def sends(self, g, actor) -> bool:
        return actor.name in g.state.carry.get("lovers", []) and self.formed(g)

    def holders_tonight(self, g):
        """The lovers who hold the knife: the living ones, while the lover of `knife_roles` lives."""
        living = [p for p in self.lovers(g) if p.alive]
        return living if any(p.role in self.p["knife_roles"] for p in living) else []

    def armed(self, g) -> bool:
        return bool(g.state.carry.get(ARMED)) and bool(self.holders_tonight(g))

    def texts(self) -> dict:
        return {"faction": self.p["faction"], "lost": self.p["after_loss_of"], "skill": self.p["skill"],
                "roles": "/".join(self.p["knife_roles"]), "team": self.team}

    def kill(self, g, actor, target) -> None:
        skill, key, team = self.p["skill"], self.p["key"], self.team
        if g.state.carry.get(ARMED) and not self.holders_tonight(g):
            raise Rejected(self.p["gone"].format(**self.texts()))
        if not self.armed(g):
            raise Rejected(self.p["not_yet"].format(**self.texts()))
        # "第一个提交的为全队的选择": final once sent; "杀人 空" lets it go for the team
        skills.once_tonight(g, key, team, skill)
        if target is None:
            return skills.team_passes(g, actor, team, skill)
        t = g.living_target(target, skill)
        g.night.actions[key] = (actor.name, t.name)
        g.mark_done(team, skill)
        g.tell(f"team:{team}", f"{actor.name} 提交了今晚的{self.p['word']}：{g.label(t)}。已确认，不能更改。")

    def begin_night(self, g) -> None:
        g.state.carry[ARMED] = self.formed(g) and self.p["after_loss_of"] in g.state.lost
        for who, slot in self.open_slots(g):
            g.start_deadline(g.night_key(who, slot), [p.name for p in self.holders_tonight(g)], slot, "night")
            g.tell(f"team:{who}", self.p["prompt"].format(night=g.night.number, **self.texts()))

    def open_slots(self, g):
        skill = self.p["skill"]
        return [(self.team, skill)] if self.armed(g) and not g.decided(self.team, skill) else []

    def judging(self, g) -> None:
        s = g.state
        if self.formed(g) and self.p["after_loss_of"] in s.lost and not s.carry.get("widow_told"):
            s.carry["widow_told"] = True
            g.tell(f"team:{self.team}", self.p["gained"].format(**self.texts()))

    def steps(self):
        return {self.p["key"]: self.settle}

    def settle(self, g, out):
        a, key = g.night.actions, self.p["key"]
        if key in a and not self.rules.spared(g, a[key][1], key):
            out.append((a[key][1], self.p["cause"]))
        return out
