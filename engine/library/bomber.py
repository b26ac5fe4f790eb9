"""The bomber (炸弹人) of today's 狼人杀: exiled by vote, he takes out everyone who voted for him.

Usual post: "炸弹：炸弹人被投票放逐时，所有投票给他的角色随之出局。炸弹人夜晚出局时没有效果。"
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry

VOTERS = "炸弹:投票者"


@entry("炸弹人", IDENTITY, "被投票放逐时，所有投票给他的角色随之出局", ("炸弹",),
       cause=Param("炸弹", "投票者出局的原因"))
class Bomber(Part):
    def counted(self, g, kind, ballots, result) -> None:
        if kind == "exile" and result and g.state.player(result).role in self.holders:
            g.state.carry[VOTERS] = tuple(voter for voter, target, _ in ballots if target == result)
        else:  # a count that does not exile him leaves nobody to take
            g.state.carry.pop(VOTERS, None)

    def after_death(self, g, p, cause) -> None:
        voters = g.state.carry.pop(VOTERS, ()) if p.role in self.holders and cause == "投票" else ()
        if voters:
            g.tell("public", f"{g.label(p)} 是炸弹人：投票给他的角色随之出局。")
        for name in voters:
            g.kill(g.state.player(name), self.p["cause"])
