"""The hidden wolf (隐狼): a wolf whom the seer's check sees as good. Usual post: "隐狼：被预言家查验时，反馈为
<好人>。隐狼知道狼队友，但不参与夜晚杀人；其他狼人全部出局后，隐狼获得<杀人>。" Whether he kills with the pack is the
file's: listed in its team he kills with it from the start; `joins_team` names the team he joins once the rest of
it is out (石像鬼 does the same, engine/library/identity_check.py)."""
from __future__ import annotations

from . import IDENTITY, Param, Part, entry


def join_when_alone(g, part, p) -> None:
    """`p` went out: where every member of the team `part.p["joins_team"]` is out, the living holder joins it."""
    team = part.p["joins_team"]
    s = g.state
    if not team or p.name not in s.teams.get(team, ()):
        return
    if all(not s.player(n).alive for n in s.teams[team]):
        for q in s.alive():
            if q.role in part.holders and q.name not in s.teams[team]:
                g.set_team(team, [*s.teams[team], q.name])
                g.tell(f"player:{q.name}", f"{team}的其他成员已全部出局：你加入{team}，获得其夜晚行动。")


@entry("隐狼", IDENTITY, "被查验阵营时反馈为指定阵营（通常为好人）；可在其他狼人出局后加入狼群", (),
       checked_as=Param(None, "被查验时反馈的阵营（如 村民阵营）", required=True, names="阵营"),
       joins_team=Param(None, "该群其他成员全部出局后他加入的群（None：不加入，或在 team 中一开始就在群内）", names="群"))
class HiddenWolf(Part):
    def checked_as(self, g, p, faction):
        return self.p["checked_as"] if p.role in self.holders else faction

    def after_death(self, g, p, cause) -> None:
        join_when_alone(g, self, p)
