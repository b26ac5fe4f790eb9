"""感染白痴 (M131): a wolf of the team whose exile by vote gives the team one more skill the next night.

假痴不癫<强制>: "当感染白痴因投票出局时：若其是第一个在白天出局的狼人，则仅限下一个夜晚，狼人获得一个附加刀；
若其不是第一个在白天出局的狼人，则仅限下一个夜晚，狼人可以查验一名角色的具体身份。" The gift is chosen by the
team as its own kill is (engine/library/team_kill.py).
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry


@entry("感染白痴", IDENTITY, "被投票出局后，所在的群下一夜获得附加刀（若他是第一个白天出局的群成员）或查验具体身份",
       ("假痴不癫", "附加刀", "查验"),
       extra_kill=Param("附加刀", "附加刀在本帖中的名称"),
       inspect=Param("查验", "查验在本帖中的名称"),
       cancelled=Param("取消<假痴不癫>：狼群下一个夜晚没有附加刀或查验", "他改为红牌出局时告诉导演的话"))
class InfectedIdiot(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.granted = (self.p["extra_kill"], self.p["inspect"])

    def slot_decided(self, g, slot) -> bool:
        return self.team_kill().slot_decided(g, slot)

    def team_kill(self):
        return self.rules.team_part(self.team)

    def skills(self):
        return [self.skill(self.extra_kill, self.p["extra_kill"], "night", ("附加",), team=True),
                self.skill(self.inspect, self.p["inspect"], "night", team=True)]

    def extra_kill(self, g, actor, target) -> None:
        # "仅限下一个夜晚，狼人获得一个附加刀"
        skill = self.p["extra_kill"]
        if t := self.team_kill().choice(g, actor, skill, target):
            g.tell(f"team:{self.team}", f"{actor.name} 提交了今晚的{skill}：{g.label(t)}。已确认，不能更改。")

    def inspect(self, g, actor, target) -> None:
        # "仅限下一个夜晚，狼人可以查验一名角色的具体身份。"
        skill = self.p["inspect"]
        if t := self.team_kill().choice(g, actor, skill, target):
            g.give_feedback(actor, skill, t.name, t.role, f"查验结果：{g.label(t)} 的身份是【{t.role}】", audience=f"team:{self.team}")

    def steps(self):
        return {self.p["extra_kill"]: self.settle}

    def settle(self, g, out):
        # 附加刀结算 — "救药对<假痴不癫>的附加刀无效。"
        skill = self.p["extra_kill"]
        if skill in g.night.actions:
            out.append((g.night.actions[skill][1], skill))
        return out

    def after_death(self, g, p, cause) -> None:
        s = g.state
        if p.role in self.holders and cause == "投票":
            # Its own <自爆> "不会触发<假痴不癫>" (cause 自爆 never reaches here).
            earlier = [q for q in s.players if q.name in s.teams[self.team] and q.name != p.name and q.death and q.death[0] == "day"]
            self.team_kill().grant_next_night(g, self.p["inspect"] if earlier else self.p["extra_kill"])

    def red_card_instead(self, g, p, cancelled) -> list[str]:
        # 假痴不癫<强制>: "当感染白痴因投票出局时" — he did not go out by the vote.
        if p.role in self.holders and g.state.carry.pop("next_night_extra", None):
            return [self.p["cancelled"]]
        return []
