"""[146] 创造营2021: the post's own code, which rulesets/r146.yaml names (`code: rulesets.r146`), in three
parts — `common` (its factions, groups and lovers), `ruleset` (2L–5L: the identities' skills, the night, the
day, the deaths) and `moons` with `draws` (6L 新月扩展 and the draws of <决策>, <辅策>, <占卜>)."""
from .ruleset import R146, RULESET

__all__ = ["R146", "RULESET"]
