"""The idiot of today's 狼人杀 (翻牌白痴): exiled by vote, he shows his card and stays, without a vote from then on.

Usual post: "翻牌：白痴被投票放逐时，可以翻开身份牌，免于出局；此后不能投票（可以发言）。白痴因其他原因出局时正常出局。"
Automatic (no answer asked): the post calls it a card shown, not a choice. `once`: the second exile takes him out.
`keeps_badge`: a sheriff who shows his card stays sheriff (else the badge is lost, no successor).
"""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry

SHOWN = "翻牌"


@entry("翻牌白痴", IDENTITY, "被投票放逐时<翻牌>免于出局，此后不能投票；第二次被放逐则出局", ("翻牌",),
       skill=Param("翻牌", "技能在本帖中的名称"),
       once=Param(True, "翻牌只能一次：再次被放逐时出局"),
       keeps_badge=Param(False, "警长翻牌后是否仍是警长（否：警徽流失）"),
       shown=Param("{who} 被放逐，<翻牌>：身份是白痴，免于出局。此后他不能投票。", "翻牌时公示的话"))
class FlipIdiot(Part):
    def exile_instead(self, g, p) -> bool:
        if p.role not in self.holders or (self.p["once"] and SHOWN in p.marks):
            return False
        s = g.state
        p.marks[SHOWN] = s.day_no
        g.tell("public", self.p["shown"].format(who=g.label(p)))
        g.tell(f"player:{p.name}", f"你<{self.p['skill']}>免于出局。此后你不能投票。")
        if s.sheriff == p.name and not self.p["keeps_badge"]:
            s.sheriff = None
            g.tell("public", f"{g.label(p)} 翻牌后警徽流失，本局不再有警长")
        self.no_vote(g)
        return True

    def no_vote(self, g) -> None:
        for p in g.state.alive():
            if p.role in self.holders and SHOWN in p.marks:
                g.state.day.may_not_vote[p.name] = "白痴已翻牌"

    def begin_day(self, g) -> None:
        self.no_vote(g)
