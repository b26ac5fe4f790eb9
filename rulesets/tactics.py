"""How people play each post, for the simulated players of `python -m engine simulate` (engine/players.py).

The engine never names an identity or a skill's meaning; these tables do, per rule post. `good` is the
faction a check calls good (its feedback names it; "非…" is the other answer). `purposes` says what each
skill is for, in the words the human-like player acts on; a skill not listed is played uniformly.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Tactics:
    good: str
    purposes: dict[str, str] = field(default_factory=dict)


# what each purpose means is in engine/players.py (Human)
_COMMON = {
    "杀人": "attack", "冲锋": "attack", "预言": "check", "救药": "save", "毒药": "poison",
    "殉职": "badge", "最后一枪": "shoot",
}

TACTICS = {
    "M131": Tactics("村民阵营", {
        **_COMMON, "附加刀": "attack", "查验": "check", "诽谤": "suspect", "最后的守护": "protect", "守护": "use",
        "自爆": "explode",
    }),
    "146": Tactics("村民阵营", {
        **_COMMON, "救治": "protect", "任命": "badge", "装傻": "use", "决策": "card", "辅策": "card",
        "猎人的愤怒": "shoot", "报复": "shoot", "捕猎": "attack", "狼王的生日": "use", "狼族首领": "ally",
        "担保": "trust", "灵媒": "protect", "数字": "number",
    }),
    "154": Tactics("书生阵营", {
        **_COMMON, "吸精": "attack", "额外吸精": "attack", "针灸": "protect", "最后一刀": "shoot",
    }),
}


def tactics(ruleset_id: str) -> Tactics:
    return TACTICS.get(ruleset_id, Tactics(""))
