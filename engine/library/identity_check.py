"""Checks of a player's exact identity (具体身份), not only his faction (engine/library/seer.py):

通灵师 "每晚可以查验一名角色的具体身份。"
纯白之女 "每晚可以查验一名角色的具体身份；从第二夜起，若她查验到狼人阵营的角色，该角色当晚出局。"
石像鬼 "狼人阵营。每晚可以查验一名角色的具体身份；不与狼人见面、不参与杀人；其他狼人全部出局后，石像鬼获得<杀人>。"
— the common 石像鬼; whether he knows the pack (`team` in the file: he is in its group from the start) and whether he
joins it once the rest is out (`joins_team`) are the post's choice.
A swap by the 魔术师 tonight makes the check read the other player (engine/library/choosing.py).
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose, looked_at
from .hidden_wolf import join_when_alone

def params(skill: str, alias: str) -> dict:
    """Each checker's skill has a name of its own, so two of them can be in one post (a night action is kept by
    its skill's name)."""
    return dict(
        skill=Param(skill, "技能在本帖中的名称"),
        aliases=Param([alias], "简写"),
        result=Param(skill + "结果：{target} 的身份是【{role}】", "反馈的话"),
        ask=Param(f"你可以<{skill}>一名角色的具体身份（发送“{skill} 座位号”）", "每晚告知他的话"),
    )


class IdentityCheck(NightSkill):
    def use(self, g, actor, target) -> None:
        t = choose(g, actor, self.p["skill"], target, not_self=True)
        seen = looked_at(g, t)
        g.give_feedback(actor, self.p["skill"], t.name, seen.role, self.p["result"].format(target=g.label(t), role=seen.role))


@entry("通灵师", IDENTITY, "夜晚<查验>一名角色的具体身份", ("查验",), **params("查验", "查身份"))
class Psychic(IdentityCheck):
    pass


@entry("石像鬼", IDENTITY, "狼人阵营：夜晚<窥视>一名角色的具体身份；不与狼人共群，其他狼人全部出局后加入狼群获得<杀人>", ("窥视",),
       **params("窥视", "窥"), joins_team=Param("狼群", "该群其他成员全部出局后他加入的群（None：不加入）", names="群"))
class Gargoyle(IdentityCheck):
    def after_death(self, g, p, cause) -> None:
        join_when_alone(g, self, p)


@entry("纯白之女", IDENTITY, "夜晚<洞察>一名角色的具体身份；从指定的夜晚起，查验到的狼人当晚出局", ("洞察",),
       **params("洞察", "察"),
       kills=Param(None, "她查验到即出局的阵营（如 狼人阵营）", required=True, names="阵营"),
       from_night=Param(2, "从第几夜起查验到即出局"),
       cause=Param("纯白", "被查验出局的原因"))
class PureWhite(IdentityCheck):
    def steps(self):
        return {self.p["cause"]: self.settle}

    def settle(self, g, out):
        a = g.night.actions.get(self.p["skill"])
        if a and g.night.number >= self.p["from_night"]:
            seen = looked_at(g, g.state.player(a[1]))
            if seen.faction == self.p["kills"]:
                out.append((seen.name, self.p["cause"]))
        return out
