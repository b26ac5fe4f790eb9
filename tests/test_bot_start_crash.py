"""A crash during 开始 loses nothing: the director's reply and its identity table are stored with
the start, like the briefs, and go out once OneBot is there again."""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import dealt_game, DIRECTOR, PLAYERS, QQ, STARTED, WOLVES, brief, connect, promised, says

pytestmark = pytest.mark.usefixtures("clean")

TEAM = "1号 果果、2号 橘子、3号 香蕉、4号 葡萄"


class Killed(BaseException):
    """The process dies here (SIGKILL): nothing after this point runs."""


async def test_a_crash_right_after_the_start_is_stored_loses_no_reply(app: App, banshabot):
    from service import director as directing

    service = banshabot.service
    t = await dealt_game(service)

    async def killed() -> None:
        raise Killed()

    async def friends() -> set[str]:
        return set()

    async def members(group_id: str):
        raise AssertionError("no pool group")

    async def ask(action: str, params: dict):
        raise AssertionError("no pool group to ask about")

    service.delivered = killed  # the start is stored; then the bot is killed
    try:
        with pytest.raises(Killed):
            await directing.handle(service, str(DIRECTOR), "开始", friends, members, ask)
    finally:
        del service.delivered
    service.forget()  # the bot starts again
    await service.open()
    async with app.test_matcher() as ctx:
        for name, qq, _ in PLAYERS:
            says(ctx, qq, brief(name))
        for name in WOLVES:
            says(ctx, QQ[name], f"你属于【狼群】，成员：{TEAM}。目前没有空闲的QQ群：私聊我的非指令消息会由我转发给队友。")
        says(ctx, DIRECTOR, promised(t.row))
        says(ctx, DIRECTOR, STARTED)
        await connect(ctx)  # the on-connect flush sends what was stored
