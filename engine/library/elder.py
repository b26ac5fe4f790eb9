"""The elder (146 长老) and his <长寿之命>: "长老第一次被有效指杀时不会出局；当长老因投票、女巫<毒药>、猎人<最后一枪>、
医生<救治>而出局后，女巫、预言家、猎人、医生、吉普赛人将失去技能。"

The curse takes, from every player of the bound identities, the skills of `bound` he holds at that moment (one
an event grants, `granted_only`, only once granted); it is undone when the elder's death turns out to have been
a red card ("红牌罚下出局的角色……不能发动以下技能：长老<长寿之命>").

His first life: the first of the night's harms `first_life_from` that would take him out is survived; a second
effective harm, the same night or later, takes him out. A harm the doctor or the guard voids is no effective one.
Whether one the witch saves him from is (`saved_spends`) is his post's reading of "有效指杀": 146's settlement says
"一、被指杀的角色如果是救治的目标，指杀无效，否则有效。二、被指杀的角色是未被有效指杀过的长老，长老视为被有效指杀一次。
三、被指杀的角色如果是<救药>的目标，此次有效指杀不会导致角色出局。" — the antidote comes after his life is spent.
"""
from __future__ import annotations

from . import IDENTITY, LAST, SPENT, Param, Part, entry

LOST = "失去技能"  # what his death brings each bound player once it is public (Game.when_public)
FIRST_LIFE = "有效指杀"  # his mark once his first life is spent


@entry("长老", IDENTITY, "<长寿之命>（强制）：第一次被有效指杀时不出局；因所列原因出局时，所列身份失去技能", ("长寿之命",),
       first_life_from=Param(None, "算作被有效指杀的夜晚伤害（结算步骤的名称，如 [杀人]）：第一次受到其中之一且未被救下时不出局",
                             required=True, kind=list),
       curses=Param(None, "使所列身份失去技能的出局原因（如 投票、毒药、最后一枪、救治）", required=True, kind=list),
       bound=Param(None, "失去技能的身份及其技能：{身份: [技能, ...]}", required=True, kind=dict),
       granted_only=Param([], "所列技能中由事件赋予的：只在已获得时失去"),
       saved_spends=Param(False, "被<救药>救下的指杀是否也算有效指杀（用掉他的第一条命）"),
       director=Param("长老因{cause}出局：{bound}失去技能", "告知导演的话（{bound}：所列身份）"),
       told=Param("长老出局，你失去了技能。", "出局公示后告知失去技能者的话"),
       restored=Param("长老改为红牌罚下出局，<长寿之命>不生效：你的技能恢复。", "改为红牌出局时告知技能恢复者的话"),
       cancelled=Param("<长寿之命>不生效：{bound}的技能恢复", "改为红牌出局时告诉导演的话（{bound}：所列身份）"))
class Elder(Part):
    def __init__(self, *args):
        super().__init__(*args)
        self.spares_rank = SPENT if self.p["saved_spends"] else LAST

    def spares(self, g, name, cause) -> bool:
        p = g.state.player(name)
        if p.role not in self.holders or cause not in self.p["first_life_from"]:
            return False
        # asked once for each harm in the settlement, and again for a feedback that senses the night's harms
        # before the settlement (harms_before): the harm that spent his life is spared each time it is asked of
        spent = [g.night.number, cause]
        if not p.marks.get(FIRST_LIFE):
            p.marks[FIRST_LIFE] = spent
        return p.marks[FIRST_LIFE] == spent

    def after_death(self, g, p, cause) -> None:
        if p.role not in self.holders or cause not in self.p["curses"]:
            return
        s = g.state
        bound, granted_only = self.p["bound"], self.p["granted_only"]
        curse = s.carry["curse"] = {}  # what it took, for a red card that turns out to have come first
        for q in s.players:
            curse[q.name] = [k for k in bound.get(q.role, ()) if k not in q.lost and (k not in granted_only or k in q.granted)]
            q.lost.update(curse[q.name])
        g.tell("director", self.p["director"].format(cause=cause, bound=self.bound_roles()))
        for q in s.players:
            if q.role in bound and q.alive:
                g.when_public(LOST, q)

    def public(self, g, what, p) -> None:
        if what == LOST:
            g.tell(f"player:{p.name}", self.p["told"])

    def red_card_instead(self, g, p, cancelled) -> list[str]:
        s = g.state
        if p.role not in self.holders or "curse" not in s.carry:
            return []
        # "当长老因投票……而出局后" — he did not go out by the vote.
        for name, taken in s.carry.pop("curse").items():
            q = s.player(name)
            q.lost.difference_update(taken)
            if taken and q.alive:
                g.tell(f"player:{name}", self.p["restored"])
        return [self.p["cancelled"].format(bound=self.bound_roles())]

    def bound_roles(self) -> str:
        return "、".join(self.p["bound"])
