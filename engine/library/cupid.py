"""The cupid (146 丘比特) and his lovers: at the start he names two players, who become lovers; when one goes
out the other goes out with him (殉情).

146: "丘比特之箭<强制>：游戏开始时，丘比特须选择两名角色。这两名角色成为情侣。情侣产生后，丘比特的阵营转变为与情侣相同的
阵营。" "殉情<强制>：情侣中若有一人出局，另一人立即出局。" "私奔<强制>：若情侣的身份不属于同一个阵营……情侣脱离各自的
阵营，形成【黑情侣阵营】。" "恋爱<强制>：若情侣中有且只有一名狼人，则它失去<杀人>技能，且不与其他狼人阵营的角色互知共群。"
"情侣在成为情侣后互知共群（双狼情侣除外）。如果丘比特单身，丘比特不与情侣共群。"
Today's usual post: "丘比特在第一夜连接两名玩家成为情侣……人狼恋时情侣与丘比特成为第三方。"

The pair is `carry["lovers"]` and each lover's `marks["情侣"]` names the other (what the desk page and other parts
read: 两姐妹 lose <默契> when one of them is a lover). A mixed pair forms the faction `mixed` (None: each keeps
his own); that faction is in the game only once formed (FileRuleset.factions). A cupid who has not chosen by the
start is given two players drawn from the game's seed: the skill is <强制> and the post names no time limit.
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, Param, Part, entry

LOVER = "情侣"  # the mark naming a lover's partner


@entry("丘比特", IDENTITY, "游戏开始时<丘比特之箭>选择两名角色成为情侣；情侣中一人出局，另一人<殉情>；阵营不同的情侣可以组成第三方",
       ("丘比特之箭", "殉情"),
       skill=Param("丘比特之箭", "技能在本帖中的名称"),
       aliases=Param(["箭", "连线"], "简写"),
       self_pick=Param(True, "能否选择自己为情侣之一（“如果丘比特单身”）"),
       follows=Param(True, "丘比特的阵营是否随情侣"),
       mixed=Param(None, "阵营不同的情侣组成的阵营（如 黑情侣阵营；None：各自保持原阵营）", kind=str, names="阵营"),
       leaves=Param(None, "组成该阵营时，情侣中的成员离开的群（如 狼群：失去其<杀人>；None：不离开）", kind=str, names="群"),
       group=Param(None, "情侣共群的群名（None：不共群）", kind=str),
       no_group_for=Param([], "这些阵营的情侣不另建情侣群（如双狼情侣：[狼人阵营]）", names="阵营"),
       cause=Param("殉情", "情侣随之出局的原因"),
       spared_causes=Param([], "不使另一人殉情的出局原因"),
       told=Param("{skill}：你与 {other} 成为情侣。<殉情>：情侣中一人出局，另一人立即出局。", "告知每名情侣的话"),
       mixed_told=Param("你们属于不同阵营，组成【{faction}】。", "情侣组成新阵营时附加的话"),
       leaves_told=Param("你失去<杀人>，离开{team}。", "离开群的情侣附加的话"),
       cupid_told=Param("情侣已产生，你的阵营{change}【{faction}】。", "告知丘比特的话（{change}：仍为/变为）"))
class Cupid(Part):
    starts_first = True

    def skills(self):
        return [self.skill(self.arrow, self.p["skill"], "start", self.p["aliases"], holders=self.holders, targets=2)]

    def arrow(self, g, actor, target) -> None:
        skill = self.p["skill"]
        if skill in actor.used:
            raise Rejected(f"<{skill}>已经发动过")
        if not isinstance(target, list) or len(target) != 2:
            raise Rejected(f"<{skill}>须选择两名角色：请发送“{skill} 座位号 座位号”")
        a, b = (g.living_target(t, skill) for t in target)
        if a.name == b.name:
            raise Rejected(f"<{skill}>须选择两名不同的角色")
        if not self.p["self_pick"] and actor.name in (a.name, b.name):
            raise Rejected(f"<{skill}>不能选择自己，请选择两名其他角色")
        self.shoot(g, actor, [a, b])
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(a)}、{g.label(b)}。游戏开始时他们成为情侣。")

    def shoot(self, g, cupid, pair) -> None:
        cupid.used.add(self.p["skill"])
        g.state.carry["lovers"] = [p.name for p in pair]

    def start_game(self, g) -> None:
        skill = self.p["skill"]
        s = g.state
        for cupid in s.with_role(*self.holders):
            if skill not in cupid.used:
                others = [p.name for p in s.alive() if self.p["self_pick"] or p.name != cupid.name]
                pair = [s.player(n) for n in s.rng.sample(others, 2)]
                self.shoot(g, cupid, pair)
                chosen = "、".join(g.label(p) for p in pair)
                g.tell(f"player:{cupid.name}", f"你没有在游戏开始前发动<{skill}>。它是强制技，已随机选择 {chosen} 成为情侣。")
                g.tell("director", f"{g.label(cupid)} 未选择情侣，已随机选择 {chosen}")
        if "lovers" in s.carry:
            self.form(g)

    def form(self, g) -> None:
        s, p = g.state, self.p
        a, b = (s.player(n) for n in s.carry["lovers"])
        for x, other in ((a, b), (b, a)):
            x.marks[LOVER] = other.name
        left: set[str] = set()
        if a.faction != b.faction and p["mixed"]:
            a.faction = b.faction = p["mixed"]
            if p["leaves"] in s.teams:
                left = {n for n in s.teams[p["leaves"]] if n in (a.name, b.name)}
                s.teams[p["leaves"]] = [n for n in s.teams[p["leaves"]] if n not in left]
        was = {c.name: c.faction for c in s.with_role(*self.holders)}
        if p["follows"]:
            for cupid in s.with_role(*self.holders):
                cupid.faction = a.faction
        if p["group"] and a.faction not in p["no_group_for"]:
            s.teams[p["group"]] = [a.name, b.name]
        for x, other in ((a, b), (b, a)):
            text = p["told"].format(skill=p["skill"], other=g.label(other))
            if a.faction == p["mixed"]:
                text += p["mixed_told"].format(faction=a.faction)
            if x.name in left:
                text += p["leaves_told"].format(team=p["leaves"])
            g.tell(f"player:{x.name}", text)
        for cupid in s.with_role(*self.holders):
            change = "仍为" if cupid.faction == was[cupid.name] else "变为"
            g.tell(f"player:{cupid.name}", p["cupid_told"].format(change=change, faction=cupid.faction))
        g.tell("director", f"情侣：{g.label(a)}、{g.label(b)}（{a.faction}）")
        # 殉情: a lover red-carded before the start takes the other with him the moment they are lovers
        for x, other in ((a, b), (b, a)):
            if not x.alive and other.alive:
                g.kill(other, p["cause"])
                g.publish_deaths([other.name], p["cause"])

    def after_death(self, g, p, cause) -> None:
        partner = g.state.player(p.marks[LOVER]) if LOVER in p.marks else None
        if partner and partner.alive and cause not in self.p["spared_causes"]:
            g.kill(partner, self.p["cause"])
