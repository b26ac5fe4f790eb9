"""The knight with the rusty sword (锈剑骑士): killed by the wolves, he leaves the nearest wolf on his left wounded;
that wolf goes out the next night.

Usual post: "锈剑：锈剑骑士被狼人指杀出局后，其左手边（座位号减小方向）最近的存活狼人在下一个夜晚出局。"
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry

WOUNDED = "锈剑:伤者"


@entry("锈剑骑士", IDENTITY, "被指杀出局后，左手边最近的存活狼人在下一个夜晚出局", ("锈剑",),
       killed_by=Param(["杀人"], "触发锈剑的出局原因"),
       wolves=Param(None, "锈剑所伤的阵营（如 狼人阵营）", required=True, names="阵营"),
       cause=Param("锈剑", "伤者出局的原因"))
class RustyKnight(Part):
    def after_death(self, g, p, cause) -> None:
        if p.role not in self.holders or cause not in self.p["killed_by"]:
            return
        players = g.state.players
        i = players.index(p)
        for step in range(1, len(players)):
            q = players[(i - step) % len(players)]
            if q.alive and q.faction == self.p["wolves"]:
                g.state.carry[WOUNDED] = (g.night.number + 1 if g.phase == "night" else g.state.night_no + 1, q.name)
                g.tell("director", f"锈剑：{g.label(q)} 将在下一个夜晚出局")
                return

    def steps(self):
        return {self.p["cause"]: self.settle}

    def settle(self, g, out):
        wounded = g.state.carry.get(WOUNDED)
        if wounded and wounded[0] == g.night.number and g.state.player(wounded[1]).alive:
            out.append((wounded[1], self.p["cause"]))
        return out
