"""The piper (吹笛者), a faction of his own: each night he charms players; he wins when every other living player is
charmed. The charmed know it and know one another.

Usual post: "吹笛：每晚可以迷惑两名其他角色（已被迷惑的除外）。被迷惑的角色在开门时得知自己被迷惑以及全部被迷惑的角色。
当所有存活的其他角色都被迷惑时，吹笛者阵营获胜。" The win is the file's condition `all_marked: 迷惑`.
"""
from __future__ import annotations

from ..errors import Rejected
from . import IDENTITY, NightSkill, Param, entry
from .choosing import two_players

MARK = "迷惑"


@entry("吹笛者", IDENTITY, "夜晚<吹笛>迷惑两名其他角色；所有存活的其他角色都被迷惑时获胜（条件 all_marked: 迷惑）", ("吹笛",),
       skill=Param("吹笛", "技能在本帖中的名称"),
       aliases=Param(["笛"], "简写"),
       ask=Param("你可以<吹笛>迷惑两名其他角色（发送“吹笛 座位号 座位号”）", "每晚告知他的话"))
class Piper(NightSkill):
    targets = 2

    def use(self, g, actor, target) -> None:
        skill = self.p["skill"]
        a, b = two_players(g, actor, skill, target)
        for p in (a, b):
            if p.name == actor.name:
                raise Rejected(f"<{skill}>须选择其他角色")
            if MARK in p.marks:
                raise Rejected(f"{g.label(p)} 已经被迷惑")
        g.night.actions[skill] = (actor.name, (a.name, b.name))
        g.mark_done(actor.name, skill)
        g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(a)}、{g.label(b)}。")

    def steps(self):
        return {self.p["skill"]: self.settle}

    def settle(self, g, out):
        a = g.night.actions.get(self.p["skill"])
        for name in a[1] if a else ():
            g.state.player(name).marks[MARK] = g.night.number
        return out

    def begin_day(self, g) -> None:
        s = g.state
        charmed = [p for p in s.alive() if MARK in p.marks]
        fresh = [p for p in charmed if p.marks[MARK] == s.night_no and g.night_before]
        names = "、".join(g.label(p) for p in charmed)
        for p in fresh:
            g.tell(f"player:{p.name}", f"你被吹笛者迷惑了。现在被迷惑的角色：{names}。")
