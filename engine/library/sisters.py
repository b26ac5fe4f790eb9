"""Two sisters (146 两姐妹) bound to one ballot: "两姐妹不能弃票，且必须投票给同一名角色。"

默契<强制>: a sister's 弃权 is void; when both living sisters name different players, both ballots are void.
A sister whose sister cast nothing counts alone. A sister who lost the skill (146: "当两姐妹中任意一名角色为情侣
之一时，两姐妹不互知也不共群，同时失去<默契>") votes as anyone does.
"""
from __future__ import annotations

from ..words import ABSTAIN
from . import IDENTITY, Param, Part, entry
from .cupid import LOVER


@entry("两姐妹", IDENTITY, "与另一名姐妹共群；<默契>（强制）：不能弃票，且必须投票给同一名角色，两票不同则均无效", ("默契",),
       skill=Param("默契", "技能在本帖中的名称（失去它的姐妹不受约束）"),
       lovers_split=Param(False, "姐妹中有人成为情侣时（丘比特），两姐妹不共群并失去该技能"),
       split_told=Param("两姐妹中有人成为情侣：两姐妹不互知也不共群，失去<{skill}>（可以各自投票）。", "此时告知两姐妹的话"))
class Sisters(Part):
    def start_game(self, g) -> None:
        # the cupid's lovers are formed by then (Cupid.starts_first)
        s = g.state
        sisters = s.with_role(*self.holders)
        if not self.p["lovers_split"] or not any(LOVER in q.marks for q in sisters):
            return
        s.teams.pop(self.team, None)
        for sister in sisters:
            sister.lost.add(self.p["skill"])
            g.tell(f"player:{sister.name}", self.p["split_told"].format(skill=self.p["skill"]))

    def joint_problems(self, g, kind: str, ballots: list[tuple[str, str]]) -> dict[str, str]:
        skill = self.p["skill"]
        sisters = [p.name for p in g.state.with_role(*self.holders) if p.alive and skill not in p.lost]
        first: dict[str, str] = {}
        for voter, target in ballots:
            first.setdefault(voter, target)
        word = f"{self.holders[0]}<{skill}>"
        void = {name: f"{word}：不能弃票" for name in sisters if first.get(name) == ABSTAIN}
        named = {n: first[n] for n in sisters if first.get(n) not in (None, ABSTAIN)}
        if len(named) == 2 and len(set(named.values())) == 2:
            for name in named:
                void[name] = f"{word}：必须投票给同一名角色，两票不同，均无效"
        return void
