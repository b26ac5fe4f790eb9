"""[146] 创造营2021: the rule post in three parts — `common` (its factions, groups and lovers), `ruleset`
(2L–5L: identities, the night, the day, the end) and `moons` with `draws` (6L 新月扩展 and the draws of
<决策>, <辅策>, <占卜>)."""
from .ruleset import R146

__all__ = ["R146"]
