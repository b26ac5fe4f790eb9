"""Texts a player and a director can trust, as they read them over QQ (nonebug): what a witch may still
send, a wolf's 自爆 by day, a forced 认亲, a wolf who eloped, the 执警 in every status, which game a bare
command went to, briefs with the post's whole 行动时限 once, a bot with no directors, and the time zone.
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (
    DIRECTOR,
    QQ,
    act,
    chat,
    director_does,
    drain,
    night_one,
    private,
    running_game,
    says,
)
from engine import Ballots, CloseDay, OpenDay

pytestmark = pytest.mark.usefixtures("clean")

COMMANDS = "指令：技能 目标（座位号或角色名）/ 放弃 / 遗言 内容 / 状态 / 帮助"
WITCH = "你是 6号 柠檬，身份：女巫。<通灵>得知被指杀的角色；<救药>（限定，不能自救）；<毒药>（限定）；同一夜不能同时使用"


async def player(app: App, qq: int, text: str, *replies: str) -> None:
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(qq, text))
        for reply in replies:
            says(ctx, qq, reply)


async def test_the_witch_is_offered_only_what_she_may_still_send(app: App, banshabot):
    """Before her <通灵> the 救药 waits for it, and her time is counted from it; after 救药 she is offered the
    毒药 alone, and the night's prompt names the potion, not her slot ("你可以发动<女巫>")."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await player(app, QQ["柠檬"], "帮助", f"{WITCH}\n现在可以：毒药 座位号 / 放弃；收到<通灵>反馈（所有指杀提交后）之后还可以：救药 座位号"
                                          f"（收到<通灵>反馈后30分钟内）\n{COMMANDS}")
    await act(service, t, "果果", "杀人", "菠萝")
    await player(app, QQ["柠檬"], "帮助", f"{WITCH}\n现在可以：救药 座位号 / 毒药 座位号 / 放弃（截止 12-01 20:30）\n{COMMANDS}")
    await act(service, t, "柠檬", "救药", "10")
    for name in ("西瓜", "草莓", "芒果"):
        await act(service, t, name, "放弃")
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"),)))
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("exile", ()))
    await service.submit(t, CloseDay(), source=f"director:{DIRECTOR}")
    sent = await drain()
    assert [p["text"] for _, p in sent if p.get("user_id") == QQ["柠檬"]] == [
        "第2夜：你可以使用<毒药>（发送“毒药 座位号”），关门后1小时内有效；不使用请发送“放弃”。"]
    await player(app, QQ["柠檬"], "帮助", f"{WITCH}\n已失去：<通灵>。\n已用过：<救药>。\n现在可以：毒药 座位号 / 放弃（截止 12-01 21:00）\n{COMMANDS}")


async def test_a_wolf_is_offered_his_self_destruction_by_day(app: App, banshabot):
    """自爆: "除竞选日外的游戏日白天" — not on the 竞选日, and not once the day's count is made."""
    from bot_helpers import quiet_night

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t)
    await director_does(service, t, OpenDay())
    wolf = "你是 4号 葡萄，身份：感染白痴。与狼人共群；<假痴不癫>：被投票出局后狼群下一夜获得附加刀或查验；可以<自爆>"
    await player(app, QQ["葡萄"], "帮助", f"{wolf}\n现在没有需要你做的事。\n{COMMANDS}")  # the 竞选日
    await director_does(service, t, Ballots("election", (("果果", "橘子"),)))
    await director_does(service, t, OpenDay())
    await player(app, QQ["葡萄"], "帮助", f"{wolf}\n现在可以：<自爆>：发送“自爆”（你出局，今天不再投票，已发表的投票无效）\n{COMMANDS}")
    await player(app, QQ["西瓜"], "帮助", "你是 5号 西瓜，身份：预言家。夜晚<预言>一名角色的阵营\n现在没有需要你做的事。\n" + COMMANDS)
    await director_does(service, t, Ballots("exile", ()))
    await player(app, QQ["葡萄"], "帮助", f"{wolf}\n现在没有需要你做的事。\n{COMMANDS}")


async def test_a_forced_random_recognition_is_not_receipted_as_the_players_own(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service, recognise=None)
    await service.submit(t, CloseDay(), source=f"director:{DIRECTOR}")
    told = [p["text"] for _, p in await drain() if p.get("user_id") == QQ["桃子"]]
    chosen = t.game.state.player(t.game.state.player("桃子").marks["认亲"])
    assert told == [f"你没有在游戏开始前认亲。<认亲>是强制技，已随机认亲 {chosen.seat}号 {chosen.name}，你成为与其相同的阵营。"]


async def test_a_bare_command_with_several_games_running_names_its_game(app: App, banshabot):
    service = banshabot.service
    await running_game(service)
    await service.create(str(DIRECTOR), "154", "第二局")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "状态"))
        says(ctx, DIRECTOR, "（#2 第二局）#2 第二局：筹备中\n（尚无名单）")
        ctx.receive_event(bot, private(DIRECTOR, "#1 超时 无名"))  # with #编号 it says nothing more
        says(ctx, DIRECTOR, "“无名”没有进行中的时限")
        ctx.receive_event(bot, private(DIRECTOR, "游戏"))
        says(ctx, DIRECTOR, "#2 第二局（154，筹备中）\n#1 [M131]粽子（M131，进行中）")


async def test_146s_wolf_who_eloped_is_not_offered_the_packs_kill_and_every_status_names_the_deputy(app: App, banshabot):
    from test_bot_146 import does, started

    service = banshabot.service
    t = await started(service, arrow="3 5")  # 来福, a wolf, and 金宝 elope
    await does(service, t, OpenDay())
    await does(service, t, Ballots("election", (("阿福", "大勇"), ("大勇", "大勇"))))
    from engine import Act

    await does(service, t, Act(by="大勇", skill="任命", target="20"))
    await does(service, t, CloseDay())
    await player(app, 40003, "帮助", "你是 3号 来福，身份：狼人。与狼群共同<杀人>\n你现在属于黑情侣阵营。\n"
                                    "你已不在狼群中，不能参与狼群的共同行动。\n现在没有需要你做的事。\n" + COMMANDS)
    seats = "、".join(f"{i}号{n}" for i, n in enumerate(
        "阿福 阿贵 来福 旺财 金宝 银宝 玉兰 桂香 翠花 铁柱 二狗 春生 秋月 冬梅 夏荷 小满 大勇 招娣 狗蛋 丫蛋 铁蛋 石头".split(), 1))
    await player(app, 40003, "状态", f"第1夜。你是 3号 来福，存活。\n座位：{seats}\n警长：17号 大勇\n执警：20号 丫蛋")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "状态"))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": _line("阶段：第1夜；警长：17号 大勇；执警：20号 丫蛋")},
                            result={"message_id": 1})


def _line(text: str):
    from bot_helpers import LineWith

    return LineWith(text)


def test_briefs_carry_the_posts_whole_time_limits_once():
    """146's briefs had "……" cut into the post's words, 154's one line twice: each now lists its post's
    行动时限 line by line, as written."""
    from engine import Game, deal
    from rulesets import get
    from service.texts import brief

    for post, names in (("146", 22), ("154", 20), ("M131", 13)):
        rules = get(post)
        g = Game(rules, deal(rules, [f"玩家{i}" for i in range(names)], 1))
        skilled = next(p.name for p in g.state.players if not rules.role(p.role).summary.endswith("没有技能"))
        text = brief(rules, g, skilled)
        limits = text.split("行动时限：\n")[1].split("\n私聊我")[0].splitlines()
        assert limits == [f"· {line}" for line in rules.deadline_rules], post
        assert "……" not in text and len(set(limits)) == len(limits), post
        # one with no skill is not given every role's limits, nor "如“预言 3”"
        plain = next(p.name for p in g.state.players if rules.role(p.role).summary == "没有技能")
        text = brief(rules, g, plain)
        limits = text.split("行动时限：\n")[1].split("\n私聊我")[0].splitlines()
        assert limits == [f"· {line}" for line in rules.deadline_rules if "警长" in line or "遗言" in line], post
        assert "预言 3" not in text and "“帮助”" in text, post


# --- set-up ---------------------------------------------------------------------------------------------------
async def test_a_bot_without_directors_says_so_to_whoever_would_direct(app: App, banshabot, monkeypatch):
    from bot_helpers import STRANGER, STRANGER_TEXT
    from service.texts import NO_DIRECTORS

    monkeypatch.setattr(banshabot.service, "superusers", set())
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(STRANGER, "新游戏 M131 粽子", friend=False))
        says(ctx, STRANGER, f"{STRANGER_TEXT}\n{NO_DIRECTORS}")
    assert "SUPERUSERS=[" in NO_DIRECTORS


async def test_the_start_up_warns_when_no_director_is_configured(banshabot, monkeypatch):
    from nonebot import logger

    from plugins.banshabot.directors import warn_without_directors

    logged: list[str] = []
    sink = logger.add(lambda message: logged.append(str(message)), level="WARNING")
    try:
        await warn_without_directors()
        assert logged == []
        monkeypatch.setattr(banshabot.service, "superusers", set())
        await warn_without_directors()
    finally:
        logger.remove(sink)
    assert len(logged) == 1 and "SUPERUSERS 为空" in logged[0]


def test_the_time_zone_is_a_setting_and_beijing_time_by_default():
    """The posts' times are Beijing time; a forum elsewhere sets BANSHABOT_TIMEZONE."""
    from conftest import NOW
    from pydantic import ValidationError

    from service import texts
    from service.config import Config

    assert Config().banshabot_timezone == "Asia/Shanghai" and texts.clock(NOW) == "12-01 20:00"
    with pytest.raises(ValidationError, match="Mars/Olympus"):
        Config(banshabot_timezone="Mars/Olympus")
    try:
        texts.use_zone(Config(banshabot_timezone="Asia/Tokyo").banshabot_timezone)
        assert texts.clock(NOW) == "12-01 21:00"
    finally:
        texts.use_zone("Asia/Shanghai")


async def test_154s_mountain_demon_is_offered_what_this_pair_of_nights_leaves_him(app: App, banshabot):
    """黑山老妖: "游戏日每两晚（1-2晚、3-4晚，以此类推）选择一晚，可以吸精……选择一晚，可以发动妖隐"."""
    from engine import Act
    from test_bot_154 import QQ as QQ154
    from test_bot_154 import started

    service = banshabot.service
    t, _ = await started(service)
    await service.submit(t, CloseDay(), source="test")
    await drain()
    demon = "你是 6号 老妖，身份：黑山老妖。每两晚（1-2、3-4…）中一晚可以<吸精>一名角色，一晚可以<妖隐>：当晚被吸精不出局，被道士查验为书生阵营"
    await player(app, QQ154["老妖"], "帮助", f"{demon}\n现在可以：吸精 座位号 / 妖隐 / 放弃（截止 12-01 20:30）\n{COMMANDS}")
    await service.submit(t, Act(by="老妖", skill="吸精", target="20"), source="test")
    for cmd in (OpenDay(lapse=True), CloseDay(lapse=True)):
        assert (await service.submit(t, cmd, source="test")).ok
    await drain()
    await player(app, QQ154["老妖"], "帮助", f"{demon}\n现在可以：妖隐 / 放弃（截止 12-01 20:30）\n{COMMANDS}")


async def test_146s_forced_random_arrow_is_not_receipted_as_the_cupids_own(app: App, banshabot):
    from test_bot_146 import started

    service = banshabot.service
    t = await started(service, arrow=None)
    await service.submit(t, OpenDay(), source=f"director:{DIRECTOR}")
    told = [p["text"] for _, p in await drain() if p.get("user_id") == 40014]
    pair = "、".join(f"{p.seat}号 {p.name}" for p in (t.game.state.player(n) for n in t.game.state.carry["lovers"]))
    assert told[0] == f"你没有在游戏开始前发动<丘比特之箭>。它是强制技，已随机选择 {pair} 成为情侣。"
    assert not any(text.startswith("已收到") for text in told)
