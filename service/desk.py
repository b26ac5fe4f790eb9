"""The director's desk: a web page per game, opened by a link only its director holds, and the 揭秘
page he makes public once the game is over.

A link carries a long random token; only its sha256 is stored (`DeskTokenRow`), so neither the
database nor a backup of it opens a desk. `网页` gives a director a new link to the game the
command is for (his earlier links keep working); `网页 重置` drops every link he holds for it and
gives one new one. A token opens the desk only while its holder directs the game.
"""
from __future__ import annotations

import hashlib
import secrets

from .games import Service, Table
from .models import DeskTokenRow, GameRow, RevealRow

TOKEN_BYTES = 32  # 256 random bits, 43 characters in the link
TOKEN_LENGTH = 43


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def base_url(service: Service) -> str:
    return service.config.banshabot_public_url.rstrip("/")


def desk_link(service: Service, token: str) -> str:
    # the token rides in the fragment: browsers never send it in a request line, a Referer or a
    # proxy's log; the page hands it to the bot in a header of its own
    return f"{base_url(service)}/desk#{token}"


def reveal_link(service: Service, game_id: int) -> str:
    return f"{base_url(service)}/reveal/{game_id}"


async def holder(token: str) -> tuple[GameRow, str] | None:
    """The game a token opens and the director holding it (None: no such token, or he no longer directs it)."""
    if len(token) != TOKEN_LENGTH:
        return None
    row = await DeskTokenRow.get_or_none(digest=digest(token)).select_related("game")
    if row is None or row.qq not in row.game.directors:
        return None
    return row.game, row.qq


async def _issue(service: Service, t: Table, qq: str, reset: bool) -> str:
    token = secrets.token_urlsafe(TOKEN_BYTES)
    async with service.transaction():  # with the key of the message asking for it: a repeat issues none
        if reset:
            await DeskTokenRow.filter(game_id=t.row.id, qq=qq).delete()
        await DeskTokenRow.create(game_id=t.row.id, qq=qq, digest=digest(token))
    return token


async def desk(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`网页`: a link to this game's desk; `网页 重置`: the earlier ones stop working, a new one."""
    if rest not in ("", "重置"):
        return "请发送“网页”（本局导演网页的链接）或“网页 重置”（之前的链接全部失效，换一个新链接）。"
    token = await _issue(service, t, qq, reset=rest == "重置")
    head = "已重置：你之前的本局网页链接都已失效。新链接：" if rest else "本局导演网页（只给你本人，不要转发）："
    return (f"{head}\n{desk_link(service, token)}\n"
            "网页上能看到全部身份和行动，也能发送导演指令。链接泄露时发送“网页 重置”，旧链接立即失效。")


async def published(game_id: int) -> bool:
    return await RevealRow.exists(game_id=game_id)


async def reveal(service: Service, t: Table, qq: str, rest: str, side) -> str:
    """`揭秘`: whether the 揭秘 page is public; `揭秘 公开` / `揭秘 撤回`: make it public / take it back."""
    link = reveal_link(service, t.row.id)
    if rest == "":
        if await published(t.row.id):
            return f"本局揭秘页已公开：{link}\n（发送“揭秘 撤回”取消公开）"
        return "本局揭秘页未公开。游戏结束后发送“揭秘 公开”，任何人都能打开揭秘页（身份、每晚行动、新月抽取和种子），可贴到论坛的揭秘帖。"
    if rest == "公开":
        if t.row.status != "over":
            return "游戏还没有结束，揭秘页不能公开（它会泄露身份和行动）。游戏结束后再发送“揭秘 公开”。"
        async with service.transaction():
            if not await published(t.row.id):
                await RevealRow.create(game_id=t.row.id, qq=qq, at=service.now())
        return f"本局揭秘页已公开，可贴到论坛的揭秘帖：\n{link}"
    if rest == "撤回":
        async with service.transaction():
            await RevealRow.filter(game_id=t.row.id).delete()
        return "本局揭秘页已取消公开，链接不再能打开。"
    return "请发送“揭秘”、“揭秘 公开”或“揭秘 撤回”。"


COMMANDS = {"网页": desk, "揭秘": reveal}
