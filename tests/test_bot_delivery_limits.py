"""Time limits counted from the moment a player is told: "女巫<通灵>……收到反馈后半小时".

Such a limit starts when OneBot has delivered the message that tells the player about it, not when
the bot queued it: while QQ or OneBot is down, his 30 minutes do not run.
"""
from __future__ import annotations

from datetime import timedelta

import pytest
from nonebot.adapters.onebot.v11 import ActionFailed
from nonebug import App

from bot_helpers import (
    DIRECTOR,
    GROUP,
    QQ,
    chat,
    connect,
    night_one,
    posts,
    private,
    running_game,
    says,
)
from conftest import NOW, RecordingScheduler
from service.models import CommandRow, DeadlineRow, OutboxRow
from service.texts import clock

pytestmark = pytest.mark.usefixtures("clean")

KEY = "night1:女巫:柠檬"
TONGLING = "通灵：今晚被指杀的角色是 5号 西瓜。"
DECIDE = "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。"
REFUSED = ActionFailed(retcode=1200, status="failed", msg="send failed")


def the_kill(ctx) -> None:
    """The pack's kill through 橘子; the witch's feedback follows it (declared by the caller)."""
    posts(ctx, GROUP, "橘子 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")
    says(ctx, QQ["橘子"], "橘子 提交了今晚的指杀：5号 西瓜。已确认，不能更改。")  # sent privately: receipted there too
    says(ctx, DIRECTOR, "2号 橘子：杀人 5")


async def kill_while_the_witch_is_unreachable(app: App, banshabot) -> tuple[object, DeadlineRow]:
    """Night 1; the kill is in at 20:00 but OneBot refuses every message to the witch."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["橘子"], "刀 5"))
        the_kill(ctx)
        says(ctx, QQ["柠檬"], TONGLING, exception=REFUSED)  # her next message waits behind this one
        says(ctx, DIRECTOR, f"已发给 6号 柠檬 的反馈：{TONGLING}")
        # no 时限开始 for the director: her limit has not started
    row = await DeadlineRow.get(key=KEY)
    decide = await OutboxRow.get(id=row.waits_for_id)
    assert (decide.params["user_id"], decide.params["text"], decide.sent_at) == (QQ["柠檬"], DECIDE, None)
    return t, row


async def deliver_at(app: App, banshabot, monkeypatch, at) -> None:
    """OneBot is back at `at`: the witch's queued messages go out, then the director hears her limit started."""
    monkeypatch.setattr(banshabot.service, "now", lambda: at)
    async with app.test_matcher() as ctx:
        says(ctx, QQ["柠檬"], TONGLING)
        says(ctx, QQ["柠檬"], DECIDE)
        says(ctx, DIRECTOR, f"时限开始：柠檬<女巫>，截止 {clock(at + timedelta(minutes=30))}")
        await connect(ctx)  # the on-connect flush delivers what is queued


def restart(service, monkeypatch) -> RecordingScheduler:
    """The bot starts again: games are rebuilt from the database, time limits go to a new scheduler."""
    scheduler = RecordingScheduler()
    monkeypatch.setattr(service, "scheduler", scheduler)
    service.tables.clear()
    return scheduler


async def test_a_limit_from_feedback_waits_for_its_delivery(app: App, banshabot, clean, monkeypatch):
    service, scheduler = banshabot.service, clean
    t, row = await kill_while_the_witch_is_unreachable(app, banshabot)

    # 20:20 and 20:31: the time of its reminder and the time it would have ended come while she has not
    # been told: neither does anything
    for minutes, job in ((20, f"remind:{row.id}:10"), (31, f"deadline:{row.id}")):
        monkeypatch.setattr(service, "now", lambda m=minutes: NOW + timedelta(minutes=m))
        if job in scheduler.jobs:
            await scheduler.run(job)
    assert f"deadline:{row.id}" not in scheduler.jobs
    await row.refresh_from_db()
    assert not row.done and row.reminded == []
    assert ("柠檬", "女巫") in t.game.rules.awaiting(t.game)
    assert not await CommandRow.filter(source="deadline").exists()
    assert [r.params["text"] for r in await OutboxRow.filter(sent_at=None).order_by("id")] == [TONGLING, DECIDE]

    # OneBot delivers at 21:00: her 30 minutes run from then
    later = NOW + timedelta(minutes=60)
    await deliver_at(app, banshabot, monkeypatch, later)
    await row.refresh_from_db()
    assert (row.due_at, row.waits_for_id, row.done) == (later + timedelta(minutes=30), None, False)
    assert scheduler.jobs[f"deadline:{row.id}"][0] == later + timedelta(minutes=30)
    assert scheduler.jobs[f"remind:{row.id}:10"][0] == later + timedelta(minutes=20)

    # 21:20: she still decides in time
    monkeypatch.setattr(service, "now", lambda: later + timedelta(minutes=20))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["柠檬"], "救 5"))
        says(ctx, QQ["柠檬"], "已收到：救药 5号 西瓜。今晚不能再使用毒药。")
        says(ctx, DIRECTOR, "6号 柠檬：救药 5")
    await row.refresh_from_db()
    assert row.done and f"deadline:{row.id}" not in scheduler.jobs


async def test_a_restart_before_the_delivery_loses_nothing(app: App, banshabot, clean, monkeypatch):
    service = banshabot.service
    t, row = await kill_while_the_witch_is_unreachable(app, banshabot)

    # the bot stops and starts again at 20:45, after the time her limit would have ended
    restarted = restart(service, monkeypatch)
    monkeypatch.setattr(service, "now", lambda: NOW + timedelta(minutes=45))
    await service.restore_deadlines()
    if f"deadline:{row.id}" in restarted.jobs:  # the time it would have ended has passed: nothing happens
        await restarted.run(f"deadline:{row.id}")
    await row.refresh_from_db()
    assert not row.done and row.waits_for_id is not None
    game = (await service.table(t.row.id)).game
    assert ("柠檬", "女巫") in game.rules.awaiting(game)

    later = NOW + timedelta(minutes=50)
    await deliver_at(app, banshabot, monkeypatch, later)
    await row.refresh_from_db()
    assert (row.due_at, row.waits_for_id) == (later + timedelta(minutes=30), None)
    assert restarted.jobs[f"deadline:{row.id}"][0] == later + timedelta(minutes=30)

    # and it passes at 21:20 as any other limit
    monkeypatch.setattr(service, "now", lambda: later + timedelta(minutes=30))
    async with chat(app) as (ctx, bot):
        says(ctx, DIRECTOR, "时限已到：柠檬<女巫>，按规则处理")
        says(ctx, QQ["柠檬"], "<女巫>的时限已到，已按规则处理。")
        await restarted.run(f"deadline:{row.id}")
    await row.refresh_from_db()
    assert row.done
    assert await CommandRow.filter(source="deadline").count() == 1


async def test_a_restart_after_the_delivery_counts_from_it(app: App, banshabot, clean, monkeypatch):
    """OneBot took the message, then the bot stopped before the limit could start: it counts from that
    delivery."""
    service = banshabot.service
    t, row = await kill_while_the_witch_is_unreachable(app, banshabot)
    delivered = NOW + timedelta(minutes=20)
    for message in await OutboxRow.filter(sent_at=None).order_by("id"):
        message.sent_at = delivered
        await message.save()

    restarted = restart(service, monkeypatch)
    monkeypatch.setattr(service, "now", lambda: NOW + timedelta(minutes=25))
    await service.restore_deadlines()
    await row.refresh_from_db()
    assert (row.due_at, row.waits_for_id) == (delivered + timedelta(minutes=30), None)
    assert restarted.jobs[f"deadline:{row.id}"][0] == delivered + timedelta(minutes=30)
    async with app.test_matcher() as ctx:  # the director hears when it ends
        says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:50")
        await connect(ctx)


async def test_a_limit_that_ends_before_the_delivery_never_starts(app: App, banshabot, clean, monkeypatch):
    service = banshabot.service
    t, row = await kill_while_the_witch_is_unreachable(app, banshabot)
    async with app.test_matcher() as ctx:  # the director lets it pass by hand; she is still unreachable
        says(ctx, QQ["柠檬"], TONGLING, exception=REFUSED)  # tried again when OneBot connects
        bot = await connect(ctx)
        ctx.receive_event(bot, private(DIRECTOR, "超时 柠檬"))
        says(ctx, QQ["柠檬"], TONGLING, exception=REFUSED)  # after the command
        says(ctx, QQ["柠檬"], TONGLING, exception=REFUSED)  # before the reply
        says(ctx, DIRECTOR, "已按时限到期处理：柠檬<女巫>")
    await row.refresh_from_db()
    assert row.done
    monkeypatch.setattr(service, "now", lambda: NOW + timedelta(minutes=5))
    async with app.test_matcher() as ctx:
        says(ctx, QQ["柠檬"], TONGLING)
        says(ctx, QQ["柠檬"], DECIDE)
        await connect(ctx)  # no 时限开始: it is over
    assert f"deadline:{row.id}" not in clean.jobs


async def test_feedback_delivered_at_once_starts_its_limit_at_once(app: App, banshabot, clean):
    service, scheduler = banshabot.service, clean
    t = await running_game(service)
    await night_one(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["橘子"], "刀 5"))
        the_kill(ctx)
        says(ctx, QQ["柠檬"], TONGLING)
        says(ctx, DIRECTOR, f"已发给 6号 柠檬 的反馈：{TONGLING}")
        says(ctx, QQ["柠檬"], DECIDE)
        says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:30")
    row = await DeadlineRow.get(key=KEY)
    assert (row.due_at, row.waits_for_id, row.done) == (NOW + timedelta(minutes=30), None, False)
    assert scheduler.jobs[f"deadline:{row.id}"][0] == NOW + timedelta(minutes=30)
    assert scheduler.jobs[f"remind:{row.id}:10"][0] == NOW + timedelta(minutes=20)


async def test_a_reminder_due_while_the_bot_was_down_is_sent_late_if_the_limit_is_ahead(app: App, banshabot, clean, monkeypatch):
    """关门 at 20:00: the night limits end at 21:00, reminded at 20:50. The bot is down from 20:40 to
    20:55: at start-up the reminder goes out at once, saying how long is really left; a limit whose
    end also passed meanwhile is not reminded of, it passes."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    restarted = restart(service, monkeypatch)
    monkeypatch.setattr(service, "now", lambda: NOW + timedelta(minutes=55))
    await service.restore_deadlines()
    crow = await DeadlineRow.get(key="night1:诽谤:草莓")
    when, _ = restarted.jobs[f"remind:{crow.id}:10"]
    assert when == NOW + timedelta(minutes=55)
    async with app.test_api() as ctx:
        await connect(ctx)
        says(ctx, QQ["草莓"], "提醒：<诽谤>还有5分钟截止（12-01 21:00）。")
        await restarted.run(f"remind:{crow.id}:10")
    await crow.refresh_from_db()
    assert crow.reminded == [10]
    restart(service, monkeypatch)
    monkeypatch.setattr(service, "now", lambda: NOW + timedelta(minutes=61))
    await service.restore_deadlines()
    assert not [job for job in service.scheduler.jobs if job.startswith("remind:")]
