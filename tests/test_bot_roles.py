"""Who may do what, through NoneBot: the bot's own commands are its configured directors', and a
director who plays in someone else's game is a player there.

A co-director of one game is added by that game's director: the pool of team groups serves every
game, so only SUPERUSERS may list it, add to it or remove from it. A SUPERUSER who plays in a game
he does not direct gets a player's answers to a player's commands (`帮助`, `状态`, a skill); his own
game's commands he names with `#编号`.
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (
    CO_DIRECTOR,
    DIRECTOR,
    GROUP,
    GROUP_NAME,
    chat,
    drain,
    private,
    running_game,
    says,
)
from engine import FactionLoss
from service.models import GameRow, PoolGroupRow

pytestmark = pytest.mark.usefixtures("clean")

POOL_ONLY = "只有配置的导演（SUPERUSERS）可以管理群池"


async def test_a_co_director_has_no_say_in_the_pool(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await GameRow.filter(id=t.row.id).update(directors=[str(DIRECTOR), str(CO_DIRECTOR)])
    t.row.directors = [str(DIRECTOR), str(CO_DIRECTOR)]
    await service.submit(t, FactionLoss("狼人阵营"), source="test")  # over: the group is free again
    await drain()
    for text in ("群池", f"群池 移除 {GROUP}", "群池 添加 900002 二群"):
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(CO_DIRECTOR, text))
            says(ctx, CO_DIRECTOR, POOL_ONLY)
    assert [(g.group_id, g.original_name) for g in await PoolGroupRow.all()] == [(str(GROUP), GROUP_NAME)]
