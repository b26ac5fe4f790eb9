"""Identities with no skill of their own: what they do comes from their faction and team (狼人 kill with
their group through its team skill; 村民 only speak and vote)."""
from __future__ import annotations

from . import IDENTITY, Part, entry


@entry("村民", IDENTITY, "没有技能")
class Villager(Part):
    pass


@entry("狼人", IDENTITY, "没有自己的技能：夜晚与所在的群共同行动（阵营技能，如<杀人>），白天的技能（如<自爆>）另行列出")
class Wolf(Part):
    pass
