"""A rule-post file a director sends the bot in private chat, fetched from OneBot and added (service/rule_posts.py).

How each implementation delivers a file a friend sends (read in their sources, docs/rule-files.md says it for
directors):
- NapCat and LLBot: a private message with a `file` segment, `{file: 文件名, file_id, file_size[, url]}`. NapCat gives
  `url` only where it could fetch a link at once; otherwise its extension `get_private_file_url(file_id)` answers
  `{url}`, and `get_file(file_id)` (LLBot: `get_file(file)`) downloads it and answers `{file: 本地路径, url, base64?}`.
- go-cqhttp: no message at all but the notice `offline_file`, `{user_id, file: {name, size, url}}`.
Where none of that works (another implementation, a bot on another machine than a local path names), the director
pastes the file's text after `规则帖`, which works everywhere.
"""
from __future__ import annotations

import asyncio
import base64
import binascii
import http.client
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlparse

from nonebot import on_notice
from nonebot.adapters.onebot.v11 import ActionFailed, Bot, MessageEvent, NetworkError, NoticeEvent
from nonebot.exception import ApiNotAvailable

from service import rule_posts
from service.handling import event_key

from .guard import guarded, taking_on_failure
from .runtime import service

NAMES = (".yaml", ".yml", ".txt")  # a rule post's file; anything else a director sends is not one
FETCH_SECONDS = 30


class Unfetchable(Exception):
    """Why the file could not be had (Chinese, for the director)."""


def _name_of(data: dict) -> str:
    return str(data.get("file") or data.get("name") or data.get("file_name") or "")


def _checked_size(size) -> None:
    try:
        size = int(size or 0)
    except (TypeError, ValueError):
        return
    if size > rule_posts.DOWNLOAD_LIMIT:
        raise Unfetchable(f"文件太大：{size} 字节，规则帖文件最多 {rule_posts.DOWNLOAD_LIMIT} 字节。")


def _bounded(read) -> bytes:
    data = read(rule_posts.DOWNLOAD_LIMIT + 1)
    if len(data) > rule_posts.DOWNLOAD_LIMIT:
        raise Unfetchable(f"文件太大：规则帖文件最多 {rule_posts.DOWNLOAD_LIMIT} 字节。")
    return data


def _download(url: str) -> bytes:
    """The bytes at `url` (http, https, or a file on this machine as OneBot names it), at most DOWNLOAD_LIMIT."""
    parsed = urlparse(url)
    try:
        if parsed.scheme in ("http", "https"):
            with urllib.request.urlopen(url, timeout=FETCH_SECONDS) as answer:
                return _bounded(answer.read)
        path = Path(unquote(parsed.path) if parsed.scheme == "file" else url)
        with path.open("rb") as f:
            return _bounded(f.read)
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as exc:
        raise Unfetchable(f"无法下载文件（{exc}）。") from exc


async def _asked(bot: Bot, action: str, **params) -> dict:
    """An extension action's answer; {} where this implementation has it not or it failed."""
    try:
        answer = await bot.call_api(action, **params)
    except (ActionFailed, NetworkError, ApiNotAvailable):
        return {}
    return answer if isinstance(answer, dict) else {}


async def _fetched(bot: Bot, data: dict) -> bytes:
    _checked_size(data.get("file_size", data.get("size")))
    # a link in the message is downloaded only over http(s): a path on this machine is read only where
    # OneBot's own get_file answers with one (the file it just saved)
    url = str(data.get("url") or "")
    url = url if url.startswith(("http://", "https://")) else ""
    file_id = str(data.get("file_id") or data.get("id") or "")
    if not url and file_id:
        asked = str((await _asked(bot, "get_private_file_url", file_id=file_id)).get("url") or "")
        url = asked if asked.startswith(("http://", "https://")) else ""
    if not url and file_id:
        got = await _asked(bot, "get_file", file_id=file_id, file=file_id)
        if len(str(got.get("base64") or "")) > rule_posts.DOWNLOAD_LIMIT * 4 // 3 + 4:
            raise Unfetchable(f"文件太大：规则帖文件最多 {rule_posts.DOWNLOAD_LIMIT} 字节。")
        if got.get("base64"):
            try:
                raw = base64.b64decode(str(got["base64"]), validate=True)
            except (binascii.Error, ValueError) as exc:
                raise Unfetchable("OneBot 给出的文件内容无法解码。") from exc
            if len(raw) > rule_posts.DOWNLOAD_LIMIT:
                raise Unfetchable(f"文件太大：规则帖文件最多 {rule_posts.DOWNLOAD_LIMIT} 字节。")
            return raw
        url = str(got.get("url") or got.get("file") or url)
    if not url:
        raise Unfetchable("这个 OneBot 没有给出文件的下载地址。")
    return await asyncio.to_thread(_download, url)


async def received(bot: Bot, qq: str, data: dict) -> None:
    """A file director `qq` sent: fetched, checked and added as a rule post, or he is told why not."""
    name = _name_of(data)
    if not name.lower().endswith(NAMES):
        reply = f"收到文件“{name[:60]}”：我只接收规则帖文件（.yaml）。{rule_posts.USAGE}"
    elif qq not in service.superusers:
        reply = "只有配置的导演（SUPERUSERS）可以添加规则帖"
    else:
        try:
            raw = await _fetched(bot, data)
            text = raw.decode("utf-8-sig")
        except Unfetchable as exc:
            reply = f"没有添加规则帖文件“{name}”：{exc}也可以发送“规则帖”并换行，之后粘贴文件的内容。"
        except UnicodeDecodeError:
            reply = f"没有添加规则帖文件“{name}”：它不是 UTF-8 编码的文本。请用 UTF-8 保存后重新发送。"
        else:
            reply = await rule_posts.add(service.superusers, qq, text, name)
    await service.queue(("private", qq), reply)
    await service.delivered()


async def file_in(bot: Bot, event: MessageEvent) -> bool:
    """A director's private message that carries a file (NapCat, LLBot): handled here, True; any other, False."""
    segment = next((s for s in event.message if s.type == "file"), None)
    if segment is None:
        return False
    await received(bot, event.get_user_id(), dict(segment.data))
    return True


async def offline_file(event: NoticeEvent) -> bool:
    return event.notice_type == "offline_file" and str(getattr(event, "user_id", "")) in service.superusers


# go-cqhttp's file from a friend comes as a notice, not a message
offline_files = on_notice(rule=taking_on_failure(offline_file), priority=20, block=True)


@offline_files.handle()
@guarded
async def _(bot: Bot, event: NoticeEvent) -> None:
    qq, file = str(event.user_id), dict(getattr(event, "file", None) or {})
    if await service.handling(event_key(bot.self_id, "notice", f"offline_file:{qq}", file.get("url", "")), account=bot.self_id):
        await received(bot, qq, file)
