"""`python -m engine roles`: the library, one entry a line — its name, its kind, its skills, its parameters."""
from __future__ import annotations

from . import IDENTITY, OFFICE, SKILL, TEAM_SKILL, entries

ORDER = (IDENTITY, SKILL, TEAM_SKILL, OFFICE)


def _default(param) -> str:
    value = param.default
    if param.required:
        return "须给出"
    if value is None:
        return "无"
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, list):
        return "[" + "、".join(map(str, value)) + "]"
    return str(value) if len(str(value)) <= 12 else "（见文档）"


def lines() -> list[str]:
    out = []
    for kind in ORDER:
        for e in entries().values():
            if e.kind != kind:
                continue
            skills = "、".join(f"<{s}>" for s in e.skills) or "无技能"
            params = "；".join(f"{k}={_default(p)}" for k, p in e.params.items()) or "无参数"
            out.append(f"{e.name}\t{e.kind}\t技能：{skills}\t参数：{params}\t{e.about}")
    return out


def main() -> int:
    print("\n".join(lines()))
    return 0
