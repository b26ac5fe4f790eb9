"""The silencing elder (禁言长老): each night he silences one player for the next day; the bot tells the thread at
开门 and the director, who judges a silenced player's posts.

Usual post: "禁言：每晚可以选择一名角色，其在下一个白天不能发言（可以投票）；不能连续两晚禁言同一名角色。禁言在开门时
公示。" Whether the silenced may still vote is `may_vote`.
"""
from __future__ import annotations

from . import IDENTITY, NightSkill, Param, entry
from .choosing import choose

NEXT = "禁言:下一天"


@entry("禁言长老", IDENTITY, "夜晚<禁言>一名角色，其下一个白天不能发言（开门时公示）；不能连续两晚禁言同一人", ("禁言",),
       skill=Param("禁言", "技能在本帖中的名称"),
       aliases=Param(["禁"], "简写"),
       may_vote=Param(True, "被禁言者能否投票"),
       self_allowed=Param(False, "能否禁言自己"),
       public=Param("禁言长老发动<禁言>：{target} 今天不能发言{vote}。", "开门时公示的话"),
       ask=Param("你可以<禁言>一名角色（发送“禁言 座位号”），他下一个白天不能发言", "每晚告知他的话"))
class SilenceElder(NightSkill):
    def use(self, g, actor, target) -> None:
        choose(g, actor, self.p["skill"], target, not_self=not self.p["self_allowed"], not_twice=True)

    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        a = g.night.actions.get(self.p["skill"])
        if a:
            g.state.carry[NEXT] = a[1]
        return out

    def begin_day(self, g) -> None:
        s = g.state
        name = s.carry.pop(NEXT, None)
        if not name or not s.player(name).alive:
            return
        t = s.player(name)
        vote = "" if self.p["may_vote"] else "，也不能投票"
        if not self.p["may_vote"]:
            s.day.may_not_vote[name] = "被禁言"
        g.tell("public", self.p["public"].format(target=g.label(t), vote=vote))
        g.tell(f"player:{name}", f"你被<{self.p['skill']}>：今天不能发言{vote}。")
        g.tell("director", f"{g.label(t)} 今天被禁言{vote}：他今天的发言由导演判罚。")
