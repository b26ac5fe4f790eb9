"""Rule posts a director sends the bot (docs/rule-files.md, "从 QQ 添加规则帖"): the file's text, pasted after
`规则帖` or fetched from a file he sent (plugins/banshabot/rule_posts.py), is checked as `python -m engine check`
checks a file, and a sound one is kept and played under its `id` by 新游戏 beside the shipped posts.

Only the configured directors (SUPERUSERS, who alone may start a game) add one. A post never replaces another:
an id a shipped post or an earlier one has is refused (a changed post is sent under a new id, such as "S16b"), so
no game ever finds its rules changed under it. A file naming `code:` is refused: that names a Python module to
import, which only the bot's own files may do.

Kept in the database (RulePostRow), not as files in a data folder: several bot processes on one PostgreSQL
(service/leases.py) may run on different machines, and a game one of them started may be taken over by another,
which must find its rules; the database is what they share. Each process reads them when it starts (`load`), and
one another process was sent since then when a game or 新游戏 names it (`find`).
"""
from __future__ import annotations

import logging

from tortoise.exceptions import IntegrityError

import rulesets
from engine.rulecheck import load_text
from engine.rulefile import FileProblem, RuleFileError, read
from engine.ruleset import Ruleset

from .models import GameRow, RulePostRow

log = logging.getLogger(__name__)

TEXT_LIMIT = 60_000  # characters of one post (the longest shipped, 154's, has under 8,000)
DOWNLOAD_LIMIT = 256 * 1024  # bytes of a file fetched from OneBot
SHOWN = 15  # problems listed in one answer; the rest are counted
PROBLEM_LIMIT = 200  # characters of one listed problem
ID_LIMIT = GameRow._meta.fields_map["ruleset"].max_length  # a game names its post by id in this many characters
USAGE = "添加规则帖：把规则帖文件（.yaml）发给我，或发送“规则帖”并换行，之后粘贴整个文件的内容。"


async def load() -> None:
    """The posts directors sent, played again after a restart (one that no longer checks is logged and left out)."""
    for row in await RulePostRow.all().order_by("added_at"):
        try:
            rulesets.add(load_text(row.text))
        except Exception as exc:  # whatever a later version finds in it, the other posts and games go on
            log.error("导演 %s 发来的规则帖 %s 未载入：\n%s", row.owner, row.id, exc)


async def find(ruleset_id: str) -> Ruleset | None:
    """The post of this id, shipped or kept (None: there is none); one sent to another process since this one
    started is read from the database now."""
    rules = rulesets.get(ruleset_id)
    if rules is not None:
        return rules
    row = await RulePostRow.get_or_none(id=str(ruleset_id))
    if row is None:
        return None
    try:
        rules = load_text(row.text)
    except Exception as exc:  # whatever a later version finds in it, the other posts and games go on
        log.error("导演 %s 发来的规则帖 %s 未载入：\n%s", row.owner, row.id, exc)
        return None
    rulesets.add(rules)
    return rules


def _problems(exc: RuleFileError, name: str) -> str:
    listed = [str(p)[:PROBLEM_LIMIT] for p in exc.problems[:SHOWN]]
    more = len(exc.problems) - len(listed)
    tail = [f"……另有 {more} 处问题"] if more else []
    return "\n".join([f"规则帖文件{name}有 {len(exc.problems)} 处问题，没有添加：", *listed, *tail,
                      "改好后重新发送（用 python -m engine check 文件 可以先自己检查）。"])


async def add(superusers: set[str], qq: str, text: str, name: str = "") -> str:
    """Add the post `text` for director `qq` (`name`: the file it came in, shown in the answer); the answer."""
    if qq not in superusers:
        return "只有配置的导演（SUPERUSERS）可以添加规则帖"
    if not text.strip():
        return USAGE
    if len(text) > TEXT_LIMIT:
        return f"规则帖文件太长：{len(text)}字，最多{TEXT_LIMIT}字。"
    shown = f"“{name}”" if name else ""
    try:
        data, lines = read(text)
        if "code" in data:
            raise RuleFileError([FileProblem("code", lines.get(("code",)), "从QQ发来的规则帖不能指定本帖独有的代码（code）："
                                             "这样的帖子须由维护者放进 rulesets/")])
        rules = load_text(text)
    except RuleFileError as exc:
        return _problems(exc, shown)
    if len(rules.id) > ID_LIMIT:
        return f"规则帖编号（id）“{rules.id[:40]}”太长：最多{ID_LIMIT}个字符。"
    if rulesets.get(rules.id) is not None:
        return f"已经有编号为“{rules.id}”的规则帖，没有添加：改动过的规则帖请换一个新的 id（如“{rules.id}b”）再发送。"
    try:
        await RulePostRow.create(id=rules.id, owner=qq, text=text)
    except IntegrityError:  # another process added the same id just now
        return f"已经有编号为“{rules.id}”的规则帖，没有添加：请换一个新的 id 再发送。"
    rulesets.add(rules)
    return (f"已添加规则帖“{rules.id}”：{rules.title}，{rules.players}人，{len(rules.roles)}种身份。"
            f"发送“新游戏 {rules.id} [标题]”用它开始一局。")
