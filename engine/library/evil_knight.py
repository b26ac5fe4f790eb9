"""The evil knight (恶灵骑士) of today's 狼人杀: a wolf no night harm takes out, who turns a check or a poison back on
the one who sent it.

Usual post: "恶灵骑士：不能自爆，免疫夜间伤害。若被预言家查验或被女巫毒杀，则预言家或女巫当晚出局（反伤）。" `immune_to`:
the harms he is immune to, by settlement step; `reflects`: the night actions whose sender he takes out.
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry


@entry("恶灵骑士", IDENTITY, "免疫夜间伤害；对他发动指定技能（查验、毒药）的角色当晚出局（反伤）", ("反伤",),
       immune_to=Param(["杀人", "毒药"], "对他无效的夜间伤害（结算步骤）"),
       reflects=Param(["预言", "毒药"], "对他发动即被反伤的夜晚行动"),
       cause=Param("反伤", "被反伤者的出局原因"))
class EvilKnight(Part):
    def steps(self):
        return {self.p["cause"]: self.settle}

    def settle(self, g, out):
        s, a = g.state, g.night.actions
        knights = {p.name for p in s.alive() if p.role in self.holders}
        out = [(n, c) for n, c in out if not (n in knights and c in self.p["immune_to"])]
        for skill in self.p["reflects"]:
            if skill in a and a[skill][1] in knights and a[skill][0] not in knights:
                out.append((a[skill][0], self.p["cause"]))
        return out
