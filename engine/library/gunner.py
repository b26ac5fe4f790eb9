"""Shooters of today's 狼人杀, the hunter's mechanics (engine/library/hunter.py) with the usual exceptions:

猎人 "猎人出局时可以<开枪>带走一名其他角色；被女巫毒杀（或殉情）时不能开枪。"
黑狼王 (狼王) "狼人阵营。出局时可以<开枪>带走一名其他角色；被毒杀或自爆时不能开枪。"
`blocked_by`: the causes of going out that take the shot away (a red card always does).
"""
from __future__ import annotations

from . import IDENTITY, Param, entry
from .hunter import AT_ONCE, Hunter


def params(blocked: list[str]) -> dict:
    return dict(
        skill=Param("开枪", "技能在本帖中的名称"),
        aliases=Param(["枪"], "简写"),
        limit=Param("shot", "答复的时限（时限表中的键）"),
        blocked_by=Param(blocked, "因这些原因出局时不能开枪（红牌总是不能）"),
        ask=Param("你已出局，可以<开枪>：发送“开枪 座位号”带走一名其他角色，或“放弃”。", "出局时问他的话"),
        **AT_ONCE,
    )


class Gunner(Hunter):
    def after_death(self, g, p, cause) -> None:
        if p.role not in self.holders:
            return
        if cause in self.p["blocked_by"]:
            # told once his death is public (at 开门 after a night), as the shot would have been asked
            g.when_public(f"{self.p['skill']}:{cause}", p)
            return
        super().after_death(g, p, cause)

    def public(self, g, what, p) -> None:
        if p.role not in self.holders:  # 猎人 and 黑狼王 may share the word 开枪: each asks his own holder
            return
        if what.startswith(f"{self.p['skill']}:"):
            g.tell(f"player:{p.name}", f"你因{what.split(':', 1)[1]}出局，不能<{self.p['skill']}>。")
        else:
            super().public(g, what, p)

    def expire(self, g, pending) -> None:
        if g.state.player(pending.who).role in self.holders:
            super().expire(g, pending)


@entry("开枪猎人", IDENTITY, "出局时可以<开枪>带走一名其他角色；被毒杀、殉情时不能开枪（可设）", ("开枪",),
       **params(["毒药", "殉情"]))
class VillageHunter(Gunner):
    pass


@entry("黑狼王", IDENTITY, "狼人阵营：出局时可以<开枪>带走一名其他角色；被毒杀、自爆时不能开枪（可设）", ("开枪",),
       **params(["毒药", "自爆"]))
class WolfKingGun(Gunner):
    pass
