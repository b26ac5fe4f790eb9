"""`python -m engine roles`: the library, one entry a line — its name, its kind, its skills, its parameters, what it
does and where it comes from: a module of the library, or the code a rule file names (`code:`, 154's 宁采臣 and 小倩),
which registers identities of that post alone."""
from __future__ import annotations

from pathlib import Path

from . import IDENTITY, OFFICE, SKILL, TEAM_SKILL, entries
from ..rulefile import RuleFileError, code_module, read

ROOT = Path(__file__).resolve().parents[2]

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


def _posts_code() -> dict[str, str]:
    """The modules the shipped rule files name (`code:`), each imported so that its identities are registered: the
    file that names each, by the module's name. A file that cannot be read is `python -m engine check`'s to name."""
    named = {}
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        try:
            code = read(path.read_text(encoding="utf-8-sig"))[0].get("code")
        except (OSError, UnicodeDecodeError, RuleFileError):
            continue
        if isinstance(code, str):
            code_module(code)
            named[code] = f"rulesets/{path.name}"
    return named


def _source(e, posts: dict[str, str]) -> str:
    module = e.make.__module__
    if module in posts:
        return f"来自：{posts[module]} 的 code: {module}（本帖独有）"
    return f"来自：{module.replace('.', '/')}.py"


def lines() -> list[str]:
    posts = _posts_code()
    out = []
    for kind in ORDER:
        for e in entries().values():
            if e.kind != kind:
                continue
            skills = "、".join(f"<{s}>" for s in e.skills) or "无技能"
            params = "；".join(f"{k}={_default(p)}" for k, p in e.params.items()) or "无参数"
            out.append(f"{e.name}\t{e.kind}\t技能：{skills}\t参数：{params}\t{e.about}\t{_source(e, posts)}")
    return out


def main() -> int:
    print("\n".join(lines()))
    return 0
