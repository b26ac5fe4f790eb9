"""A team's night kill (M131 狼人 <杀人>, 154 女鬼 <吸精>): "游戏日夜晚，该阵营共群的角色可以共同指杀一名角色。"

The first choice sent in the team's group stands; no target is the team's pass (空刀). A skill granted
to the team for one night (M131's 感染白痴 <假痴不癫>: 附加刀 or 查验; 154's 以爱之名: 额外吸精) is chosen the
same way and opens its own slot that night; one the file lists under `granted` is this part's to declare
and settle (154's 额外吸精), one another part brings is that part's (M131's 感染白痴).
"""
from __future__ import annotations

from functools import partial

from .. import skills
from ..errors import Rejected
from . import TEAM_SKILL, Param, Part, entry, still_has


@entry("共同杀人", TEAM_SKILL, "游戏日夜晚，该阵营共群的角色可以共同指杀一名角色（无目标为全队放弃）", ("杀人",),
       skill=Param("杀人", "技能在本帖中的名称"),
       aliases=Param(["刀", "杀"], "简写"),
       word=Param("指杀", "告知该群时对这次行动的称呼"),
       faction=Param(None, "该阵营判负后本群失去此技能（None：不因判负失去）", kind=str, names="阵营"),
       lost=Param("{faction}已经判负，失去了<{skill}>", "阵营判负后发动时的回复"),
       member_refusal=Param("只有{team}成员可以发动<{skill}>", "非本群成员发动时的回复"),
       granted=Param([], "由其他规则赋予本群一夜的附加技能：每项 {skill, aliases, cause, not_tonight}"),
       lost_notice=Param(None, "阵营判负、本群失去此技能时告知本群的话（None：不告知）", kind=str),
       prompt_last=Param(False, "每晚的告知是否在其他身份的告知之后发出"),
       prompt=Param("第{night}夜：{team}可以<{skill}>：发送“{skill} 座位号”（全队放弃发送“{skill} 空”），关门后1小时内有效。",
                    "每晚告知该群的话"),
       granted_prompt=Param("<假痴不癫>生效：今晚{team}还可以<{extra}>一名角色（发送“{extra} 座位号”）。",
                            "当晚另有技能时附加的话"))
class TeamKill(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.slots = (self.p["skill"],)
        self.own_granted = {g["skill"]: g for g in self.p["granted"]}
        self.granted = tuple(self.own_granted)

    def skills(self):
        return [self.skill(self.kill, self.p["skill"], "night", self.p["aliases"], team=True)] + [
            self.skill(partial(self.extra, skill=name), name, "night", spec.get("aliases", ()), team=True)
            for name, spec in self.own_granted.items()]

    def members_alive(self, g):
        return [p for p in map(g.state.player, g.state.teams[self.team]) if p.alive]

    def holders_tonight(self, g):
        """The living members who hold the team's skill tonight: not one who lost it (146's 狼族首领) or has it taken
        for the night (an event's)."""
        skill = self.p["skill"]
        return [p for p in self.members_alive(g) if skill not in p.lost and not g.suspended(p, skill)]

    def sends(self, g, actor) -> bool:
        return actor.name in g.state.teams.get(self.team, ())

    def acting(self, g, step=None) -> bool:
        return self.p["faction"] is None or self.p["faction"] not in g.state.lost

    # a skill granted for the next night only ("仅限下一个夜晚"), by the part that grants it
    @staticmethod
    def grant_next_night(g, skill: str | None) -> None:
        g.state.carry["next_night_extra"] = skill

    @staticmethod
    def granted_tonight(g) -> str | None:
        return g.state.carry.get("extra_tonight")

    def choice(self, g, actor, skill: str, target, member_refusal: str | None = None):
        """The team's choice for `skill` tonight: its first one stands; no target is the team's pass."""
        if actor.name not in g.state.teams.get(self.team, []):
            # "所有狼人将在游戏开始后互知共群": the team skill belongs to the group.
            raise Rejected((member_refusal or self.p["member_refusal"]).format(team=self.team, skill=skill))
        if skill != self.p["skill"] and self.granted_tonight(g) != skill:
            raise Rejected(self.own_granted.get(skill, {}).get("not_tonight", "{team}今晚没有<{skill}>").format(team=self.team, skill=skill))
        if not self.acting(g):
            raise Rejected(self.p["lost"].format(faction=self.p["faction"], skill=self.p["skill"]))
        still_has(actor, self.p["skill"])
        skills.once_tonight(g, skill, self.team)
        if target is None:
            skills.team_passes(g, actor, self.team, skill)  # 空刀
            return None
        t = g.living_target(target, skill)
        g.night.actions[skill] = (actor.name, t.name)
        g.mark_done(self.team, skill)
        return t

    def kill(self, g, actor, target) -> None:
        if t := self.choice(g, actor, self.p["skill"], target):
            g.tell(f"team:{self.team}", f"{actor.name} 提交了今晚的{self.p['word']}：{g.label(t)}。已确认，不能更改。")

    def extra(self, g, actor, target, skill: str) -> None:
        if t := self.choice(g, actor, skill, target, member_refusal="只有{team}成员可以发动<{skill}>"):
            g.tell(f"team:{self.team}", f"{actor.name} 提交了今晚的{skill}：{g.label(t)}。已确认，不能更改。")

    def judging(self, g) -> None:
        # 154: "女鬼阵营优先判负后，女鬼阵营失去吸精技能。此事件发生时会通知女鬼阵营。"
        s = g.state
        if self.p["lost_notice"] and not self.acting(g) and not s.carry.get("team_lost_told"):
            s.carry["team_lost_told"] = True
            g.tell(f"team:{self.team}", self.p["lost_notice"])

    def begin_night(self, g) -> None:
        s = g.state
        s.carry["extra_tonight"] = s.carry.pop("next_night_extra", None)
        if not self.p["prompt_last"]:
            self.tell_team(g)
        for who, slot in self.open_slots(g):
            g.start_deadline(g.night_key(who, slot), [p.name for p in self.holders_tonight(g)], slot, "night")

    def begin_night_after(self, g) -> None:
        if self.p["prompt_last"] and self.open_slots(g):
            self.tell_team(g)

    def tell_team(self, g) -> None:
        extra = self.granted_tonight(g)
        if self.holders_tonight(g):
            text = self.p["prompt"].format(night=g.night.number, team=self.team, skill=self.p["skill"])
            if extra:
                text += self.p["granted_prompt"].format(team=self.team, extra=extra)
            g.tell(f"team:{self.team}", text)

    def slot_decided(self, g, slot: str) -> bool:
        # asked after every command by a feedback that waits for the team (通灵): said without building the list
        if slot != self.p["skill"] and self.granted_tonight(g) != slot:
            return True  # not open tonight
        return slot in g.night.actions or g.decided(self.team, slot) or not self.acting(g) or not self.holders_tonight(g)

    def open_slots(self, g):
        if not self.acting(g) or not self.holders_tonight(g):
            return []
        extra = self.granted_tonight(g)
        return [(self.team, slot) for slot in ([self.p["skill"]] + ([extra] if extra else []))
                if slot not in g.night.actions and not g.decided(self.team, slot)]

    def steps(self):
        return {self.p["skill"]: self.settle, **{name: self.settle_granted for name in self.own_granted}}

    def settle(self, g, out):
        # 指杀结算: "被指杀的角色如果是<救药>的目标，此次有效指杀不会导致角色出局。二、被指杀的角色出局。"
        return self.settle_one(g, out, self.p["skill"], self.p["skill"])

    def settle_granted(self, g, out):
        for name, spec in self.own_granted.items():
            out = self.settle_one(g, out, name, spec.get("cause", name))
        return out

    def settle_one(self, g, out, skill: str, cause: str):
        a = g.night.actions
        if skill in a and self.acting(g) and not self.rules.spared(g, a[skill][1], skill):
            out.append((a[skill][1], cause))
        return out
