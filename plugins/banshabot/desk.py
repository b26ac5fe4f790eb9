"""The desk's pages, served by NoneBot's own FastAPI app beside OneBot's WebSocket.

`/desk` is one self-contained page (service/desk_page.html); it reads its token from the link's
fragment and sends it in the `X-Desk-Token` header: `/desk/state` (the game as JSON, asked every
few seconds) and `/desk/command` (a director command, run as his private chat runs it). A cross-site
page can neither read the answers nor send that header without the bot's consent (no CORS), and a
command whose `Origin` is another site is refused as well. `/reveal/N` is a finished game's 揭秘
page once its director made it public. No answer may be kept by a browser or a proxy.
"""
from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import nonebot
from nonebot import logger
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from service import desk, desk_view, reveal_page
from service.errors import CannotSave, GameBroken, Repeated, ServiceError
from service.handling import event_key
from service.parse import DIRECTOR_LIMIT

from .private import direct
from .runtime import onebot, service

PAGE = (Path(desk_view.__file__).parent / "desk_page.html").read_text(encoding="utf-8")
HEADERS = {
    "Cache-Control": "no-store, private",
    "Pragma": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    # the page is its own: nothing is fetched from anywhere else, nothing may frame it
    "Content-Security-Policy": ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; "
                                "frame-ancestors 'none'"),
}
COMMAND_ID = re.compile(r"[0-9a-f]{32}")
REFUSED = "链接无效或已重置：请在QQ私聊机器人发送“网页”获取新链接。"

router = APIRouter()

if not service.config.banshabot_public_url:
    config = nonebot.get_driver().config
    service.config.banshabot_public_url = f"http://{config.host}:{config.port}"


def _json(body: dict, status: int = 200) -> Response:
    return JSONResponse(body, status_code=status, headers=HEADERS)


async def _holder(request: Request):
    return await desk.holder(request.headers.get("x-desk-token", ""))


@router.get("/desk")
async def page() -> Response:
    return HTMLResponse(PAGE, headers=HEADERS)


@router.get("/desk/state")
async def state(request: Request) -> Response:
    held = await _holder(request)
    if held is None:
        return _json({"error": REFUSED}, 403)
    row, _ = held
    try:
        t = await service.table(row.id)
    except GameBroken as exc:
        return _json({"error": str(exc)}, 409)
    return _json(await desk_view.state(service, t, desk.reveal_link(service, row.id), await desk.published(row.id)))


def _same_site(request: Request) -> bool:
    """No other site's page sent it: its Origin, where the browser gives one, is the bot as the
    request reached it, or as the links name it (a reverse proxy may pass on a Host of its own)."""
    origin = request.headers.get("origin")
    ours = {request.headers.get("host"), urlsplit(service.config.banshabot_public_url).netloc}
    return origin is None or urlsplit(origin).netloc in ours


@router.post("/desk/command")
async def command(request: Request) -> Response:
    if not _same_site(request):
        return _json({"error": "拒绝：这个请求来自别的网站。"}, 403)
    held = await _holder(request)
    if held is None:
        return _json({"error": REFUSED}, 403)
    row, qq = held
    try:
        body = await request.json()
    except ValueError:
        body = None
    text, sent = (body.get("text"), body.get("id")) if isinstance(body, dict) else (None, None)
    if not isinstance(text, str) or not text.strip():
        return _json({"error": "请输入一条导演指令，例如“状态”。"}, 400)
    if not isinstance(sent, str) or not COMMAND_ID.fullmatch(sent):
        return _json({"error": "请从导演网页的指令框发送（缺少指令编号）。"}, 400)
    text = text.replace("\x00", "").strip()
    if text.startswith("#"):
        return _json({"error": f"这个网页只管 #{row.id}：指令前不用加“#编号”。"}, 400)
    if len(text) > DIRECTOR_LIMIT:
        return _json({"error": f"指令太长：{len(text)}字，最多{DIRECTOR_LIMIT}字。"}, 400)
    bot = onebot()
    # one handling per command the page sends, as a QQ message is one: the page numbers each, and the
    # same number sent again (a request repeated on the way) is not run twice
    key = event_key("desk", "desk", qq, sent)
    if not await service.handling(key, origin=("private", qq)):
        return _json({"error": "重复的指令，已忽略。"}, 409)
    try:
        reply = await direct(bot, qq, f"#{row.id} {text}")
    except Repeated:
        return _json({"error": "重复的指令，已忽略。"}, 409)
    except (GameBroken, CannotSave, ServiceError) as exc:
        return _json({"error": str(exc)}, 409)
    except Exception:
        logger.exception(f"banshabot: desk command of {qq} for game {row.id} not handled")
        return _json({"error": "出错了：指令没有执行，游戏保持原样。请稍后再试。"}, 500)
    if reply is None:
        return _json({"error": f"“{text[:20]}”不是导演指令。发送“帮助”查看导演指令。"}, 400)
    return _json({"reply": reply})


@router.get("/reveal/{game_id}")
async def reveal(game_id: int) -> Response:
    t = None
    if 0 < game_id < 2**31 and await desk.published(game_id):  # a game's number fits the database's integer
        t = await service.table(game_id)
    if t is None or t.row.status != "over":  # a correction may have brought the game back
        return HTMLResponse(reveal_page.MISSING, status_code=404, headers=HEADERS)
    return HTMLResponse(await reveal_page.render(t), headers=HEADERS)


nonebot.get_app().include_router(router)
