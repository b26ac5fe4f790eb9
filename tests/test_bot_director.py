"""The director's private chat, through NoneBot: every command, its answer, and its refusals.

Each test drives the bot with fake OneBot events and states every OneBot call the bot must make, in
order, with the exact text the director or a player would read. Games that a test needs but does
not test the making of are set up straight through the service (bot_helpers.running_game).
"""
from __future__ import annotations

from importlib.metadata import version

import pytest
from nonebot.adapters.onebot.v11 import ActionFailed
from nonebug import App

from bot_helpers import (
    CLOSES,
    SHERIFF,
    NIGHT_LIMITS,
    CO_DIRECTOR,
    DIRECTOR,
    FIXED_TEXT,
    GROUP,
    GROUP_NAME,
    PLAYERS,
    PROPOSED_CLOSE,
    QQ,
    ROSTER_TEXT,
    STARTED,
    STRANGER,
    STRANGER_TEXT,
    WOLVES,
    brief,
    chat,
    close_day,
    day_two,
    director_does,
    director_hears,
    drain,
    game_over,
    hides_history,
    in_group,
    kicks,
    labels,
    lists_members,
    night_one,
    others,
    pack_night,
    other_plugins,
    posts,
    private,
    promised,
    quiet_night,
    renames,
    running_game,
    says,
    says_with,
    treehole,
    unvoted,
)
from engine import FactionLoss
from rulesets import RULESETS
from service.models import GameRow
from service.texts import clock

pytestmark = pytest.mark.usefixtures("clean")


async def director(app: App, text: str, *replies: str, message_id: int | None = None) -> None:
    """The director sends `text` and reads exactly `replies` (nothing goes to anyone else)."""
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, text, message_id))
        director_hears(ctx, *replies)


async def add_to_pool(app: App, group: int, name: str) -> None:
    """群池 添加 of a group that holds nobody but the bot, its owner."""
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, f"群池 添加 {group} {name}".strip()))
        lists_members(ctx, group)
        hides_history(ctx, group)
        says(ctx, DIRECTOR, f"群 {group} 已加入群池。")


# every ruleset the bot carries, in its order: the three posts and the posts made only of the library (S12, S16)
AVAILABLE = "、".join(RULESETS)
HELP = f"""导演指令（私聊发送；多局同时进行时在指令前加“#编号 ”指定游戏）：
新游戏 规则 [标题] —— 规则：{AVAILABLE}
规则帖 —— 之后换行粘贴一个规则帖文件（YAML），检查后添加为新的规则；也可以直接把 .yaml 文件发给我
名单 —— 之后每行“角色名 QQ号”，按电梯楼顺序
检查 —— 检查每名玩家是否已加我为好友
分配 随机 | 分配 固定（之后每行“角色名 身份”）
开始 —— 私聊每名玩家身份，分配队伍群
关门 / 开门 [关门时间，如 12-01 22:00]（不写时间则按规则的讨论日长短）/ 关门时间 12-01 22:00（更改今天的关门时间）
竞选 票 / 投票 票 —— 票：粘贴投票帖（首行写发帖角色名，可带“发表于 时间”），或“投票人:对象 …”
重新计票 [竞选|投票] 票 —— 用新的投票帖代替今天的计票（先显示变化，确认后执行）
撤销 / 撤销 编号 —— 列出本阶段导演的操作 / 撤销其中一条（先显示变化，确认后执行）；确认 / 取消
加速 [时间] 角色 角色 … —— 记录在进程帖申请加速的玩家；加速 强制 —— 导演执行加速；延时 [时间] 角色 …（规则有延时时）
发牌 蓝牌|黄牌|红牌 角色 / 免牌 角色（免除我因未投票自动记的牌：先显示变化，确认后执行）
替补 角色 新QQ号 / 协助 QQ号（添加协助导演）
账号 [QQ号] —— 本局由哪个机器人账号发送消息 / 改由另一个已连接的账号发送
代 角色 技能 [目标] —— 代玩家行动（覆盖）
超时 角色 —— 该角色进行中的时限立即到期
结算 —— 行动收齐后立即结算夜晚
判负 阵营 / 状态 / 日志 / 游戏
模拟 规则 局数 [种子] —— 模拟该规则的许多局（最多 5000），发来各阵营胜率表和图
群池 / 群池 添加 群号 [原群名] / 群池 移除 群号
新月（146）：新月设置 [无 | 事件名 …]（第一次开门前）/ 新月 事件名 [起始角色]（论坛上抽取的新月）/
违规 角色（违反当天新月规则：在投票帖投票的私聊投票日、无我无狼、英语考试…）/ 私票（今天的私聊投票）/ 计票（现在统计私聊投票）
网页 / 网页 重置 —— 本局导演网页的链接 / 让之前的链接失效；揭秘 公开 / 揭秘 撤回 —— 游戏结束后公开揭秘页"""

NEW_GAME = "已创建游戏 #1（M131）。下一步：发送“名单”，之后每行“角色名 QQ号”。"
ROSTER_SAVED = (
    "名单已保存：\n"
    + "\n".join(f"{i}号 {name} {qq}" for i, (name, qq, _) in enumerate(PLAYERS, 1))
    + "\n下一步：“检查”，然后“分配 随机”。"
)
NO_ROSTER = "#1 [M131]粽子：筹备中\n（尚无名单）"


def roster(lines: list[tuple[str, object]]) -> str:
    return "名单\n" + "\n".join(f"{name} {qq}" for name, qq in lines)


def status_lines(deaths: dict[str, str] | None = None, cards: dict[str, str] | None = None) -> list[str]:
    """The director's per-seat status lines."""
    deaths, cards = deaths or {}, cards or {}
    out = []
    for i, (name, _, role) in enumerate(PLAYERS, 1):
        faction = "狼人阵营" if role in ("狼人", "感染白痴") else "村民阵营"
        state = f"出局（{deaths[name]}）" if name in deaths else "存活"
        out.append(f"{i}号 {name}：{role}/{faction}/{state}" + (f" {cards[name]}" if name in cards else ""))
    return out


NIGHT_ONE_DEADLINES = [  # who, what, until when: never a time limit's key
    "时限：果果、橘子、香蕉、葡萄<杀人> 截止 12-01 21:00",
    "时限：西瓜<预言> 截止 12-01 21:00",
    "时限：草莓<诽谤> 截止 12-01 21:00",
    "时限：芒果<最后的守护> 截止 12-01 21:00",
]


# --- start-up --------------------------------------------------------------------------------------
def test_handlers_reach_the_database_opened_at_startup():
    """The plugin opens the database in NoneBot's start-up task; handlers run in other tasks and
    reach it only through tortoise's global fallback (ONEBOT-NOTES.md, traps). After start-up there
    must be one, or every handler fails with "No TortoiseContext is currently active"."""
    from conftest import STARTUP

    assert STARTUP["global_context"], (
        "after the plugin's start-up (service.db.open_database) tortoise has no global context: "
        "migrate() calls Tortoise.init() again in the same task, which closes the first context and "
        "clears the global fallback, so no handler can reach the database"
    )


# --- 帮助, 版本, 新游戏 ------------------------------------------------------------------------------------
async def test_help_lists_the_director_commands(app: App):
    await director(app, "帮助", HELP)


async def test_version(app: App):
    await director(app, "版本", f"banshabot {version('banshabot')}")
    async with chat(app) as (ctx, bot):  # not a director: not answered as one
        ctx.receive_event(bot, private(STRANGER, "版本", friend=False))
        says(ctx, STRANGER, STRANGER_TEXT)


async def test_new_game_only_for_configured_directors(app: App, banshabot):
    from service.models import GameRow

    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(STRANGER, "新游戏 M131", friend=False))
        says(ctx, STRANGER, STRANGER_TEXT)
    assert await GameRow.all().count() == 0

    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, f"协助 {CO_DIRECTOR}", f"{CO_DIRECTOR} 已成为 #1 的协助导演。")
    async with chat(app) as (ctx, bot):  # a co-director runs a game but does not create one
        ctx.receive_event(bot, private(CO_DIRECTOR, "新游戏 M131"))
        says(ctx, CO_DIRECTOR, "只有配置的导演（SUPERUSERS）可以创建游戏")
    assert await GameRow.all().count() == 1
    row = await GameRow.get(id=1)
    assert (row.ruleset, row.title, row.status, row.directors) == ("M131", "[M131]粽子", "roster", [str(DIRECTOR), str(CO_DIRECTOR)])


async def test_new_game_with_a_title(app: App):
    await director(app, "新游戏 M131 周末粽子局", NEW_GAME)
    await director(app, "状态", "#1 周末粽子局：筹备中\n（尚无名单）")


async def test_new_game_with_an_unknown_ruleset_is_answered(app: App):
    """The refusal names the rulesets the bot has (every ruleset the engine carries)."""
    await director(app, "新游戏 M999", f"没有规则“M999”。可用：{AVAILABLE}")
    assert {"M131", "146", "154", "S12", "S16"} <= set(RULESETS)


# --- 名单 ---------------------------------------------------------------------------------------------
async def test_roster_refusals_store_nothing(app: App):
    from service.models import SeatRow

    await director(app, "新游戏 M131", NEW_GAME)
    good = [(name, qq) for name, qq, _ in PLAYERS]
    await director(app, roster(good[:12]), "M131 需要 13 名玩家，名单里有 12 名")
    await director(app, roster(good[:12] + [("果果", 20099)]), "角色名重复：果果")
    await director(app, roster(good[:12] + [("龙眼", 20001)]), "QQ号重复：20001")
    await director(app, roster(good[:12] + [("龙眼", "二零零一三")]), "“龙眼”后面的QQ号“二零零一三”不是数字")
    await director(app, roster(good[:12] + [("13", 20013)]), "角色名“13”不能是纯数字（数字表示座位号）")
    await director(app, "名单\n" + "\n".join(f"{n} {q}" for n, q in good[:12]) + "\n龙眼 20013 备注",
                   "这一行看不懂：“龙眼 20013 备注”。每行应为两项，用空格分隔。")
    assert await SeatRow.all().count() == 0
    await director(app, "状态", NO_ROSTER)

    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    # a bad roster afterwards leaves the good one in place
    await director(app, roster(good[:3]), "M131 需要 13 名玩家，名单里有 3 名")
    await director(app, "状态", "#1 [M131]粽子：筹备中\n" + "\n".join(
        f"{i}号 {name} {qq} 未分配" for i, (name, qq, _) in enumerate(PLAYERS, 1)))


async def test_roster_accepts_full_width_separators(app: App):
    await director(app, "新游戏 M131", NEW_GAME)
    text = "名单\n" + "\n".join(f"{name}：{qq}" if i % 2 else f"{name}，{qq}" for i, (name, qq, _) in enumerate(PLAYERS))
    await director(app, text, ROSTER_SAVED)


async def test_a_rostered_player_before_the_start_is_told_he_waits_for_it(app: App):
    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    async with chat(app) as (ctx, bot):  # not the stranger's text: he is in the game to come
        ctx.receive_event(bot, private(QQ["西瓜"], "你好"))
        says(ctx, QQ["西瓜"], "你在 #1 [M131]粽子 的名单里（5号 西瓜），游戏还没有开始：导演开始游戏后我会私聊你的身份。")


# --- 检查 ---------------------------------------------------------------------------------------------
async def test_check_lists_players_who_are_not_friends(app: App):
    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    friends = [{"user_id": qq, "nickname": name} for name, qq, _ in PLAYERS if name not in ("柠檬", "龙眼")]
    lacking = ActionFailed(retcode=1404)  # an implementation without the extensions (Lagrange.OneBot)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "检查"))
        ctx.should_call_api("get_doubt_friends_add_request", {"count": 100}, exception=lacking)
        ctx.should_call_api("get_unidirectional_friend_list", {}, exception=lacking)
        ctx.should_call_api("get_friend_list", {}, result=friends + [{"user_id": 77777, "nickname": "路人"}])
        says(ctx, DIRECTOR, "以下玩家还没有加我为好友，私聊可能失败：\n6号 柠檬（20006）\n13号 龙眼（20013）\n"
                            "（这个 OneBot 实现读不到被QQ过滤的好友申请和单向好友，以上只按好友列表检查。）")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "检查"))
        ctx.should_call_api("get_doubt_friends_add_request", {"count": 100}, result=[])
        ctx.should_call_api("get_unidirectional_friend_list", {}, result=[])
        ctx.should_call_api("get_friend_list", {}, result=[{"user_id": qq, "nickname": n} for n, qq, _ in PLAYERS])
        says(ctx, DIRECTOR, "每名玩家都已加我为好友，可以私聊。")


async def test_check_approves_filtered_requests_and_names_one_way_friends(app: App, banshabot, monkeypatch):
    """QQ filters some friend requests (they never arrive as events): 检查 pulls them and approves the
    roster's; a player the account made a one-way friend (it "allows anyone") is told apart."""
    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    friends = [{"user_id": qq, "nickname": name} for name, qq, _ in PLAYERS if name not in ("柠檬", "龙眼")]
    doubts = [{"flag": f"u_{qq}", "uin": qq, "nick": str(qq), "source": "QQ号查找", "reason": "", "msg": "", "group_code": "0",
               "time": "1764590400", "type": "doubt"} for qq in (QQ["柠檬"], 77777)]
    one_way = [{"uin": QQ["龙眼"], "uid": "u_l", "nick_name": "龙眼", "age": 0, "source": ""}]
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "检查"))
        ctx.should_call_api("get_doubt_friends_add_request", {"count": 100}, result=doubts)
        ctx.should_call_api("get_unidirectional_friend_list", {}, result=one_way)
        ctx.should_call_api("set_doubt_friends_add_request", {"flag": "u_20006", "approve": True}, result=None)  # not 77777's
        ctx.should_call_api("get_friend_list", {}, result=friends)
        says(ctx, DIRECTOR, "已通过被QQ过滤的好友申请：6号 柠檬（20006）\n以下玩家还没有加我为好友，私聊可能失败：\n"
                            "13号 龙眼（20013）：只是单向好友：他加了我，我的好友列表里却没有他。请他删除我后重新添加（机器人账号的加好友方式不要设为“允许任何人”）")
    # the account's owner approves every request himself: 检查 only says whose was filtered
    monkeypatch.setattr(banshabot.service.config, "banshabot_friend_requests", "none")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "检查"))
        ctx.should_call_api("get_doubt_friends_add_request", {"count": 100}, result=doubts)
        ctx.should_call_api("get_unidirectional_friend_list", {}, result=[])
        ctx.should_call_api("get_friend_list", {}, result=friends)
        says(ctx, DIRECTOR, "以下玩家还没有加我为好友，私聊可能失败：\n6号 柠檬（20006）：好友申请被QQ过滤了：请在QQ的“被过滤的好友申请”里通过\n13号 龙眼（20013）")


# --- 分配 ---------------------------------------------------------------------------------------------
async def test_assign_random_deals_the_post_line_up(app: App):
    from collections import Counter

    from service.models import GameRow, SeatRow

    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, "分配 随机", "请先发送名单；游戏开始后不能再分配身份")
    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    await director(app, "分配 随机", "已按种子随机分配身份（种子在游戏结束后的日志中公开）。发送“状态”查看，确认后发送“开始”。")
    seats = await SeatRow.all().order_by("seat")
    # "3狼人，感染白痴，4村民，预言家，女巫，乌鸦，锈盾守卫，混血儿"
    assert Counter(s.role for s in seats) == Counter({"狼人": 3, "感染白痴": 1, "村民": 4, "预言家": 1, "女巫": 1, "乌鸦": 1, "锈盾守卫": 1, "混血儿": 1})
    # the deal is the stored seed's: the same seed deals the same again
    from engine import deal
    from rulesets import get

    seed = (await GameRow.get(id=1)).seed
    assert [s.role for s in seats] == [role for _, role in deal(get("M131"), [n for n, _, _ in PLAYERS], seed)]
    await director(app, "状态", "#1 [M131]粽子：筹备中\n" + "\n".join(
        f"{s.seat}号 {s.name} {s.qq} {s.role}" for s in seats))


async def test_assign_fixed_and_bad_line_ups_refused(app: App):
    from service.models import SeatRow

    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    await director(app, "开始", "请先分配身份（“分配 随机”或“分配 固定”）")
    await director(app, "分配", "请发送“分配 随机”，或“分配 固定”后每行“角色名 身份”。")
    four_wolves = FIXED_TEXT.replace("龙眼 村民", "龙眼 狼人")
    await director(app, four_wolves, "身份配置与 M131 规则不符：狼人 应为3人，实为4人；村民 应为4人，实为3人")
    await director(app, FIXED_TEXT.replace("龙眼 村民", "龙眼 狼王"), "M131 没有身份「狼王」")
    await director(app, FIXED_TEXT.replace("龙眼 村民", "路人 村民"),
                   "固定分配须为名单里每个角色各写一行“角色名 身份”；不在名单里：路人")
    await director(app, "\n".join(FIXED_TEXT.splitlines()[:-1]), "固定分配须为名单里每个角色各写一行“角色名 身份”")
    assert [s.role for s in await SeatRow.all()] == [None] * 13

    await director(app, FIXED_TEXT, "已按给定分配身份。发送“状态”查看，确认后发送“开始”。")
    assert [s.role for s in await SeatRow.all().order_by("seat")] == [role for _, _, role in PLAYERS]


# --- 开始 ---------------------------------------------------------------------------------------------
async def test_start_sends_briefs_team_roster_and_renames_group(app: App):
    await add_to_pool(app, GROUP, GROUP_NAME)
    await director(app, "新游戏 M131", NEW_GAME)
    await director(app, ROSTER_TEXT, ROSTER_SAVED)
    await director(app, FIXED_TEXT, "已按给定分配身份。发送“状态”查看，确认后发送“开始”。")
    team = "1号 果果、2号 橘子、3号 香蕉、4号 葡萄"
    row = await GameRow.get(id=1)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开始"))
        lists_members(ctx, GROUP)  # before it is lent: nobody in it but the bot
        hides_history(ctx, GROUP)  # and a team joining it sees nothing of its earlier chat
        for name, qq, _ in PLAYERS:  # each player, privately: character, identity, skills, limits, how to act
            says(ctx, qq, brief(name))
        renames(ctx, GROUP, "[M131]粽子·狼群")
        for name in WOLVES:  # the team: who is in it and which group to join
            says(ctx, QQ[name], f"你属于【狼群】，成员：{team}。请申请加入QQ群 {GROUP}，我会通过你的申请。")
        says(ctx, DIRECTOR, promised(row))  # the deal's hash, to post before anyone acts
        says(ctx, DIRECTOR, STARTED)
    await director(app, "开始", "游戏已经开始")
    await director(app, ROSTER_TEXT, "游戏已经开始，不能再改名单；换人请用“替补”")
    await director(app, "分配 随机", "请先发送名单；游戏开始后不能再分配身份")
    await director(app, "群池", f"群池：\n{GROUP} {GROUP_NAME} 使用中（#1 狼群）")  # which game's team holds it


# --- 关门 / 开门 ----------------------------------------------------------------------------------------
async def test_close_and_open_with_a_planned_close_time(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "关门"))
        says(ctx, DIRECTOR, "【可公示】关门，第1夜开始")
        posts(ctx, GROUP, pack_night(1))
        says(ctx, QQ["柠檬"], "第1夜：狼群行动后你会收到<通灵>反馈，之后30分钟内决定是否使用药。")
        for name, skill in (("西瓜", "预言"), ("草莓", "诽谤"), ("芒果", "最后的守护")):
            says(ctx, QQ[name], f"第1夜：你可以发动<{skill}>（发送“{skill} 座位号”），关门后1小时内有效；不发动请发送“放弃”。")
        says(ctx, DIRECTOR, NIGHT_LIMITS)  # one message for every limit begun
        says(ctx, DIRECTOR, "已执行。")
    await director(app, "关门", "未执行：现在已经是夜晚")

    await quiet_night(service, t, kill="菠萝")
    await director(app, "开门", "【可公示】开门，第1天（警长竞选）", PROPOSED_CLOSE)
    async with chat(app) as (ctx, bot):
        # the first night's deaths are published once the election is counted, with the sheriff
        ctx.receive_event(bot, private(DIRECTOR, "竞选 果果:橘子 橘子:橘子 西瓜:弃权"))
        says(ctx, DIRECTOR, unvoted(1, "警长竞选", others("果果", "橘子", "西瓜")))
        says(ctx, QQ["橘子"], SHERIFF)
        says(ctx, DIRECTOR, "10号 菠萝 出局（杀人）")  # night 1's victims go out with the list
        says(ctx, QQ["菠萝"], "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。")
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n"
                            "[b]第1天警长竞选结果：[/b]\n2号 橘子 2票\n结果：2号 橘子 当选警长\n"
                            "票型：\n1号 果果 → 2号 橘子\n2号 橘子 → 2号 橘子\n弃权：5号 西瓜\n"
                            f"未投票：{labels(others('果果', '橘子', '西瓜'))}\n\n"
                            "[b]第1天公示[/b]\n昨晚出局：10号 菠萝\n当日警长：2号 橘子" + CLOSES)
        says(ctx, DIRECTOR, "计票完成：2号 橘子 2票；结果：2号 橘子。可公示的计票结果见上。")

    await director(app, "开门 明晚", "看不懂时间“明晚”，请写成“12-01 22:00”或“22:00”")
    assert t.game.state.day_no == 1
    await director(app, "开门 22:00",
                   "菠萝 未在时限内提交遗言，视为放弃",
                   "【开门公告，可直接粘贴到论坛】\n[b]开门，第2天（放逐投票）[/b]\n前一天投票出局：无\n当日警长：2号 橘子"
                   "\n\n[b]本日关门时间[/b]\n12-01 22:00", "已执行。本日关门时间：12-01 22:00")
    await director(app, "开门", "未执行：今天之后是夜晚：请先关门")


async def test_slander_is_published_an_hour_before_the_planned_close(app: App, banshabot, clean):
    """"乌鸦诽谤对象在关门前1小时公示": the time limit is the announced closing time less an hour."""
    from service.models import DeadlineRow
    from service.texts import clock

    service = banshabot.service
    scheduler = clean
    t = await running_game(service)
    await day_two(service, t)
    await close_day(service, t)
    await quiet_night(service, t, kill="菠萝", slander="果果")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开门 12-01 23:30"))
        says(ctx, QQ["菠萝"], "你已出局（第2夜），没有遗言。")  # "之后夜晚出局的人无遗言"
        director_hears(ctx, "【开门公告，可直接粘贴到论坛】\n"
                            "[b]开门，第3天（放逐投票）[/b]\n前一天投票出局：无\n昨晚出局：10号 菠萝\n当日警长：2号 橘子"
                            "\n\n[b]本日关门时间[/b]\n12-01 23:30", "已执行。本日关门时间：12-01 23:30")
    row = await DeadlineRow.get(key="公示:诽谤:day3")
    assert clock(row.due_at) == "12-01 22:30"
    when, _ = scheduler.jobs[f"deadline:{row.id}"]
    assert clock(when) == "12-01 22:30"
    async with chat(app) as (ctx, bot):  # 22:30: the scheduler runs the time limit
        says(ctx, DIRECTOR, "【可公示】乌鸦诽谤的角色：1号 果果（今天放逐投票多计一票）")
        await scheduler.run(f"deadline:{row.id}")


async def test_an_early_close_cancels_the_days_slander_publication(app: App, banshabot, clean):
    """开门 with no time takes the post's day length; "乌鸦诽谤对象在关门前1小时公示" is then due an hour before
    it. A day closed before that hour publishes nothing in the night that follows."""
    from service.models import DeadlineRow
    from service.texts import clock

    service = banshabot.service
    scheduler = clean
    t = await running_game(service)
    await day_two(service, t)
    await close_day(service, t)
    await quiet_night(service, t, kill="菠萝", slander="果果")
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "开门"))
        says(ctx, QQ["菠萝"], "你已出局（第2夜），没有遗言。")
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n"
                            "[b]开门，第3天（放逐投票）[/b]\n前一天投票出局：无\n昨晚出局：10号 菠萝\n当日警长：2号 橘子" + CLOSES)
        says(ctx, DIRECTOR, PROPOSED_CLOSE)
    row = await DeadlineRow.get(key="公示:诽谤:day3")
    assert clock(row.due_at) == "12-02 20:00"
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "关门"))
        says(ctx, DIRECTOR, "今天提前关门，乌鸦诽谤的公示时间（关门前1小时）未到：不再公示。")
        says(ctx, DIRECTOR, "【可公示】关门，第3夜开始")
        posts(ctx, GROUP, pack_night(3))
        says(ctx, QQ["柠檬"], "第3夜：狼群行动后你会收到<通灵>反馈，之后30分钟内决定是否使用药。")
        for name, skill in (("西瓜", "预言"), ("草莓", "诽谤"), ("芒果", "最后的守护")):
            says(ctx, QQ[name], f"第3夜：你可以发动<{skill}>（发送“{skill} 座位号”），关门后1小时内有效；不发动请发送“放弃”。")
        says(ctx, DIRECTOR, NIGHT_LIMITS)  # one message for every limit begun
        says(ctx, DIRECTOR, "已执行。")
    await row.refresh_from_db()
    assert row.done and f"deadline:{row.id}" not in scheduler.jobs  # nothing is published in the night


async def test_the_draft_announcement_comes_as_soon_as_the_night_is_settled(app: App, banshabot):
    from bot_helpers import act

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await act(service, t, "果果", "杀人", "菠萝")
    for name in ("柠檬", "草莓", "芒果"):
        await act(service, t, name, "放弃")
    async with chat(app) as (ctx, bot):  # the last action of the night is in: it settles at once
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 2"))
        says(ctx, QQ["西瓜"], "预言结果：2号 橘子 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：2号 橘子 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 2")
        # night 1's list waits for the election, and its victims are still in it
        says(ctx, DIRECTOR, "第一夜出局：10号 菠萝（杀人）。名单在警长竞选完毕之后公布；在此之前他们不会被告知，仍可以投票和被投票。")
        says(ctx, DIRECTOR, "夜晚已结算，开门公告草稿：昨晚出局：菠萝")
    assert t.game.night.resolved


# --- 竞选 / 投票 ----------------------------------------------------------------------------------------
async def test_votes_from_pasted_forum_posts(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t)
    await director(app, "开门", "【可公示】开门，第1天（警长竞选）", PROPOSED_CLOSE)
    election = (
        "竞选\n"
        "3楼 果果\n投票对象：橘子\n投票理由：发言好\n"
        "4楼 西瓜\n投票对象：西瓜\n投票理由：我是预言家\n"
        "5楼 柠檬\n投票对象：西瓜\n"  # no 投票理由: void
        "6楼 草莓\n投票对象: 西瓜  投票理由: 跟预言家\n"  # half-width, one line: fine
        "7楼 芒果\n我投西瓜\n"  # not the format: void
        "8楼 桃子\n投票对象：弃权\n投票理由：再听听\n"
    )
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, election))
        # a void post is a reply all the same: its poster is under 无效票, with why, not under 未投票 (nor given its card)
        says(ctx, DIRECTOR, unvoted(1, "警长竞选", others("果果", "西瓜", "柠檬", "草莓", "芒果", "桃子")))
        says(ctx, QQ["西瓜"], SHERIFF)
        says(ctx, DIRECTOR, "【开门公告，可直接粘贴到论坛】\n"
                            "[b]第1天警长竞选结果：[/b]\n5号 西瓜 2票、2号 橘子 1票\n结果：5号 西瓜 当选警长\n"
                            "票型：\n1号 果果 → 2号 橘子\n5号 西瓜 → 5号 西瓜\n7号 草莓 → 5号 西瓜\n弃权：9号 桃子\n"
                            f"未投票：{labels(others('果果', '西瓜', '柠檬', '草莓', '芒果', '桃子'))}\n"
                            "无效票：6号 柠檬（缺少“投票理由：”，格式有误）、8号 芒果（没有“投票对象：”，格式有误）\n\n"
                            "[b]第1天公示[/b]\n昨晚出局：无人出局（平安夜）\n当日警长：5号 西瓜" + CLOSES)
        says(ctx, DIRECTOR, "计票完成：5号 西瓜 2票、2号 橘子 1票；结果：5号 西瓜。可公示的计票结果见上。\n"
                            "无效：柠檬：缺少“投票理由：”，格式有误，此票无效\n"
                            "无效：芒果：没有“投票对象：”，格式有误，此帖无效")
    await director(app, election, "未计票：今天的警长竞选已经统计过\n"
                                  "无效：柠檬：缺少“投票理由：”，格式有误，此票无效\n"
                                  "无效：芒果：没有“投票对象：”，格式有误，此帖无效")
    await director(app, "开门", "【开门公告，可直接粘贴到论坛】\n[b]开门，第2天（放逐投票）[/b]\n前一天投票出局：无\n当日警长：5号 西瓜" + CLOSES,
                   PROPOSED_CLOSE)
    exile = (
        "投票\n"
        "10楼 果果\n投票对象：菠萝\n投票理由：划水\n"
        "11楼 西瓜\n投票对象：果果\n投票理由：查杀\n"
        "12楼 果果\n改票对象：西瓜\n改票理由：悍跳\n"
        "13楼 果果\n改票对象：菠萝\n改票理由：再改\n"  # a second change is void
        "14楼 橘子\n投票对象：西瓜\n投票理由：跟\n"
        "15楼 橘子\n投票对象：果果\n投票理由：重复\n"  # a second vote is void
        "16楼 菠萝\n投票对象：路人甲\n投票理由：？\n"  # not a character of the game
    )
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, exile))
        # the sheriff's vote counts 1.5; the 票型 shows the 改票; the exile is announced once, by itself
        says(ctx, DIRECTOR, "【可公示】第2天放逐投票结果：\n5号 西瓜 2票、1号 果果 1.5票\n结果：5号 西瓜\n票型：\n"
                            "1号 果果 → 5号 西瓜（改票，原投 10号 菠萝）\n5号 西瓜 → 1号 果果（1.5票）\n2号 橘子 → 5号 西瓜\n"
                            f"未投票：{labels(others('果果', '西瓜', '橘子', '菠萝'))}\n"
                            "无效票：10号 菠萝（投票对象“路人甲”不是本局角色）\n计票说明：警长 5号 西瓜 的票计为1.5票")
        says(ctx, DIRECTOR, unvoted(2, "放逐投票", others("果果", "西瓜", "橘子", "菠萝")))
        says(ctx, DIRECTOR, "5号 西瓜 出局（投票）")
        # the sheriff went out: he is asked at once to hand over the badge
        says(ctx, QQ["西瓜"], "你已出局，可以<殉职>：发送“殉职 座位号”移交警徽，或“殉职 撕”撕毁警徽（关门后30分钟内有效）。")
        says(ctx, DIRECTOR, "等待 5号 西瓜 发动<殉职>")
        says(ctx, DIRECTOR, "【可公示】放逐投票：5号 西瓜 出局")
        says(ctx, QQ["西瓜"], "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。")
        says(ctx, DIRECTOR, "时限开始：西瓜<殉职>，截止 12-02 21:30")  # 关门 (12-02 21:00) + 30 minutes
        says(ctx, DIRECTOR, "计票完成：5号 西瓜 2票、1号 果果 1.5票；结果：5号 西瓜。可公示的计票结果见上。\n"
                            "无效：果果：改票只允许一次，第二次改票无效\n"
                            "无效：橘子：重复投票，以第一次为准（改票请使用“改票对象：”）\n"
                            "无效：菠萝：投票对象“路人甲”不是本局角色，此票无效\n"
                            "注意：果果：改票没有发帖时间，无法核对“关门前一小时不允许改票或代投，执行加速时不允许改票。”，已按有效计，请核对")


async def test_votes_as_a_compact_list(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t, kill="龙眼")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "投票 果果:菠萝 橘子:菠萝 西瓜:果果 柠檬:果果 草莓:弃权 龙眼:果果 路人:果果 菠萝:路人"))
        # 橘子 is the sheriff (1.5); 龙眼 went out in the night: his ballot is void
        says(ctx, DIRECTOR, "【可公示】第2天放逐投票结果：\n10号 菠萝 2.5票、1号 果果 2票\n结果：10号 菠萝\n票型：\n"
                            "1号 果果 → 10号 菠萝\n2号 橘子 → 10号 菠萝（1.5票）\n5号 西瓜 → 1号 果果\n6号 柠檬 → 1号 果果\n"
                            "弃权：7号 草莓\n未投票：3号 香蕉、4号 葡萄、8号 芒果、9号 桃子、11号 樱桃、12号 荔枝\n"
                            "无效票：13号 龙眼、10号 菠萝（投票对象“路人”不是本局角色）\n计票说明：警长 2号 橘子 的票计为1.5票")
        says(ctx, DIRECTOR, unvoted(2, "放逐投票", ["香蕉", "葡萄", "芒果", "桃子", "樱桃", "荔枝"]))
        says(ctx, DIRECTOR, "10号 菠萝 出局（投票）")
        says(ctx, DIRECTOR, "【可公示】放逐投票：10号 菠萝 出局")
        says(ctx, QQ["菠萝"], "你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。")
        says(ctx, DIRECTOR, "注意：龙眼 的票无效：龙眼 已出局，不能投票")
        says(ctx, DIRECTOR, "计票完成：10号 菠萝 2.5票、1号 果果 2票；结果：10号 菠萝。可公示的计票结果见上。\n"
                            "无效：“路人”不是本局角色，此票无效\n"
                            "无效：菠萝：投票对象“路人”不是本局角色，此票无效")
    await director(app, "投票 看不懂", "没有读到票。请按“投票人:投票对象”书写，多张票用空格或换行分隔，如“果果:橘子 橘子:弃权”。")


# --- 发牌 ---------------------------------------------------------------------------------------------
async def test_cards(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await director(app, "发牌 绿牌 菠萝", "请发送“发牌 蓝牌|黄牌|红牌 角色名”")
    await director(app, "发牌 黄牌", "请发送“发牌 蓝牌|黄牌|红牌 角色名”")
    await director(app, "发牌 黄牌 路人", "未执行：没有找到角色「路人」，请发送座位号或角色名")
    for text, color in (("发牌 黄牌 菠萝", "黄牌"), ("发牌 蓝牌 10", "蓝牌")):
        async with chat(app) as (ctx, bot):  # every card is told to its player
            ctx.receive_event(bot, private(DIRECTOR, text))
            says(ctx, DIRECTOR, f"10号 菠萝 获得{color}")
            says(ctx, QQ["菠萝"], f"导演判罚：你获得一张{color}。")
            says(ctx, DIRECTOR, "已执行。")
    await director(app, "状态", "\n".join(
        ["#1 [M131]粽子", "阶段：第1夜；警长：无"] + status_lines(cards={"菠萝": "蓝牌1黄牌1"})
        + ["等待行动：狼群<杀人>、柠檬<女巫>、西瓜<预言>、草莓<诽谤>、芒果<最后的守护>"] + NIGHT_ONE_DEADLINES))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "发牌 红牌 菠萝"))
        says(ctx, DIRECTOR, "10号 菠萝 获得红牌")
        says(ctx, DIRECTOR, "10号 菠萝 出局（红牌）")
        says(ctx, DIRECTOR, "【可公示】红牌罚下：10号 菠萝 出局")
        says(ctx, QQ["菠萝"], "你已出局（红牌罚下），没有遗言。")
        says(ctx, DIRECTOR, "村民阵营累计红牌 1 张；导演可决定是否判负该阵营")
        says(ctx, DIRECTOR, "已执行。")
    assert not t.game.state.player("菠萝").alive


async def test_a_red_card_after_the_count_is_told_to_the_director_change_by_change(app: App, banshabot):
    """"白天红牌罚下在被投票出局之前"; "红牌罚下出局的角色没有遗言权利，不能发动警长<殉职>": the sheriff 橘子, voted
    out, is red-carded the same day; his 殉职 and last words go, the director hears each change."""
    from engine import Ballots

    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("西瓜", "橘子"), ("柠檬", "橘子"))))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "发牌 红牌 橘子"))
        says(ctx, DIRECTOR, "2号 橘子 获得红牌")
        says(ctx, DIRECTOR, "【可公示】红牌罚下：2号 橘子（白天红牌罚下在被投票出局之前：按红牌罚下出局，不再按投票出局）")
        says(ctx, DIRECTOR, "【可公示】2号 橘子 被红牌罚下，不能发动<殉职>，本局不再有警长")
        says(ctx, QQ["橘子"], "你被红牌罚下（白天红牌罚下在被投票出局之前），按红牌罚下出局：你不再有遗言权利、<殉职>。")
        says(ctx, DIRECTOR, "2号 橘子 今天被投票出局后又被红牌罚下，改为红牌罚下出局：\n"
                            "· 出局原因：投票 → 红牌\n"
                            "· 取消<殉职>（尚未答复）\n"
                            "· 取消遗言权利\n"
                            "· 本局不再有警长")
        says(ctx, DIRECTOR, "狼人阵营累计红牌 1 张；导演可决定是否判负该阵营")
        says(ctx, DIRECTOR, "已执行。")
    assert t.game.state.player("橘子").death == ("day", 2, "红牌")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["橘子"], "殉职 1"))
        says(ctx, QQ["橘子"], "未执行：橘子 现在不能发动<殉职>。发送“帮助”查看你现在能做什么和怎样发送")


# --- 替补 ---------------------------------------------------------------------------------------------
async def test_substitute_takes_over_a_character(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await director(app, "替补 果果", "请发送“替补 角色名 新QQ号”")
    await director(app, "替补 路人 30001", "没有角色“路人”")
    await director(app, "替补 果果 20003", "QQ 20003 已经在本局游戏中")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "替补 果果 30001"))
        says(ctx, 20001, "你的角色 果果 已由替补接手，你不再能以该角色行动。")
        says(ctx, 30001, "你作为替补接手了本局角色。\n" + brief("果果"))
        kicks(ctx, GROUP, 20001)  # the old QQ loses its team group seat
        says(ctx, 30001, f"你属于【狼群】，成员：1号 果果、2号 橘子、3号 香蕉、4号 葡萄。请申请加入QQ群 {GROUP}，我会通过你的申请。")
        ctx.should_call_api("get_friend_list", {}, result=[{"user_id": qq, "nickname": n} for n, qq, _ in PLAYERS])
        # the new QQ is not the bot's friend: the director is told at once
        says(ctx, DIRECTOR, "1号 果果 由 30001 接手（原 20001）。\n注意：QQ 30001 还没有加我为好友，私聊可能失败：请让他加我为好友（可发送“检查”核对）。")
    # "每名角色仅限更换一次替补" is M131's rule
    await director(app, "替补 果果 30002", "1号 果果 已经更换过替补。本局规则：每名角色仅限更换一次替补。无法继续进行游戏的角色无法更换替补时红牌罚下。")

    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(20001, "刀 5"))  # the old QQ: told why he no longer plays
        says(ctx, 20001, "你在 #1 [M131]粽子 的角色 果果 已由替补接手，你不再能以该角色行动。如有疑问请联系导演。")
        ctx.receive_event(bot, in_group(GROUP, 20001, "刀 5"))  # ignored in the group
        ctx.receive_event(bot, private(30001, "状态"))  # the new QQ plays 果果
        says(ctx, 30001, "第1夜。你是 1号 果果，存活。\n座位：" + "、".join(
            f"{i}号{n}" for i, (n, _, _) in enumerate(PLAYERS, 1)) + "\n警长：无")
    assert "杀人" not in t.game.night.actions


# --- 协助 ---------------------------------------------------------------------------------------------
async def test_co_director_runs_the_game(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await director(app, "协助 小王", "请发送“协助 QQ号”")
    heard = other_plugins()
    async with chat(app) as (ctx, bot):  # before being added: a friend the bot has nothing to do with
        ctx.receive_event(bot, private(CO_DIRECTOR, "状态"))
    assert [event.get_user_id() for event in heard] == [str(CO_DIRECTOR)]  # passed on, unanswered
    await director(app, f"协助 {CO_DIRECTOR}", f"{CO_DIRECTOR} 已成为 #1 的协助导演。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(CO_DIRECTOR, "关门"))
        for qq in (DIRECTOR, CO_DIRECTOR):  # every director hears what the game tells directors
            says(ctx, qq, "【可公示】关门，第1夜开始")
        posts(ctx, GROUP, pack_night(1))
        says(ctx, QQ["柠檬"], "第1夜：狼群行动后你会收到<通灵>反馈，之后30分钟内决定是否使用药。")
        for name, skill in (("西瓜", "预言"), ("草莓", "诽谤"), ("芒果", "最后的守护")):
            says(ctx, QQ[name], f"第1夜：你可以发动<{skill}>（发送“{skill} 座位号”），关门后1小时内有效；不发动请发送“放弃”。")
        for qq in (DIRECTOR, CO_DIRECTOR):
            says(ctx, qq, NIGHT_LIMITS)  # one message for every limit begun
        says(ctx, CO_DIRECTOR, "已执行。")
    assert t.game.state.phase == "night"


async def test_a_co_director_keeps_a_finished_games_log(app: App, banshabot):
    """The game over, its co-director still reads its 日志 (and may correct it); a stranger still may not."""
    service = banshabot.service
    t = await running_game(service, pool=False)
    await director(app, f"协助 {CO_DIRECTOR}", f"{CO_DIRECTOR} 已成为 #1 的协助导演。")
    await service.submit(t, FactionLoss("狼人阵营"), source="test")
    await drain()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(CO_DIRECTOR, "日志"))
        says_with(ctx, CO_DIRECTOR, "#1 [M131]粽子（M131）", f"种子：{t.row.seed}", "判负 狼人阵营", "结果：村民阵营获胜")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(CO_DIRECTOR, "发牌 红牌 果果"))
        says_with(ctx, CO_DIRECTOR, "游戏已经结束")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(CO_DIRECTOR + 1, "日志", friend=False))
        says(ctx, CO_DIRECTOR + 1, STRANGER_TEXT)


# --- 状态 ---------------------------------------------------------------------------------------------
async def test_status_at_night_shows_who_is_awaited_and_until_when(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    from bot_helpers import act

    await act(service, t, "果果", "杀人", "菠萝")
    await act(service, t, "西瓜", "预言", "1")
    await director(app, "状态", "\n".join(
        ["#1 [M131]粽子", "阶段：第1夜；警长：无"] + status_lines()
        + ["等待行动：柠檬<女巫>、草莓<诽谤>、芒果<最后的守护>",
           "时限：草莓<诽谤> 截止 12-01 21:00",
           "时限：芒果<最后的守护> 截止 12-01 21:00",
           "时限：柠檬<女巫> 截止 12-01 20:30"]))


# --- 代 -----------------------------------------------------------------------------------------------
async def test_proxy_acts_for_a_player(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await director(app, "代 西瓜", "请发送“代 角色名 技能 [目标]”")
    await director(app, "代 路人 预言 1", "没有角色“路人”")
    await director(app, "代 西瓜 状态", "代行动只接受技能、放弃、遗言、投降")
    await director(app, "代 西瓜 飞 1", "不认识“飞”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    await director(app, "代 菠萝 预言 1", "未执行：菠萝 的身份没有<预言>")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "代 5 预言 1"))
        says(ctx, QQ["西瓜"], "预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")
        says(ctx, DIRECTOR, "已执行。")
    async with chat(app) as (ctx, bot):  # the pack's pending kill, sent for it by the director
        ctx.receive_event(bot, private(DIRECTOR, "代 葡萄 刀 菠萝"))
        posts(ctx, GROUP, "葡萄 提交了今晚的指杀：10号 菠萝。已确认，不能更改。")
        says(ctx, DIRECTOR, "4号 葡萄：杀人 菠萝")
        says(ctx, QQ["柠檬"], "通灵：今晚被指杀的角色是 10号 菠萝。")
        says(ctx, DIRECTOR, "已发给 6号 柠檬 的反馈：通灵：今晚被指杀的角色是 10号 菠萝。")
        says(ctx, QQ["柠檬"], "请在30分钟内决定：救药 座位号 / 毒药 座位号 / 放弃。")
        says(ctx, DIRECTOR, "时限开始：柠檬<女巫>，截止 12-01 20:30")
        says(ctx, DIRECTOR, "已执行。")


# --- 超时 / 结算 ----------------------------------------------------------------------------------------
async def test_timeout_lets_a_players_limit_pass(app: App, banshabot, clean):
    service = banshabot.service
    scheduler = clean
    t = await running_game(service)
    await night_one(service, t)
    assert any(job.startswith("deadline:") for job in scheduler.jobs)
    await director(app, "超时 菠萝", "“菠萝”没有进行中的时限")
    await director(app, "超时 草莓", "已按时限到期处理：草莓<诽谤>")
    assert t.game.decided("草莓", "诽谤")
    await director(app, "结算", "未执行：还有行动未收齐：狼群<杀人>、柠檬<女巫>、西瓜<预言>、芒果<最后的守护>")


async def test_a_missed_time_limit_is_reported_and_settled(app: App, banshabot, clean):
    from service.models import DeadlineRow

    service = banshabot.service
    scheduler = clean
    t = await running_game(service)
    await night_one(service, t)
    row = await DeadlineRow.get(key="night1:预言:西瓜")
    async with chat(app) as (ctx, bot):  # 21:00: the seer never wrote
        says(ctx, DIRECTOR, "时限已到：西瓜<预言>，按规则处理")
        says(ctx, QQ["西瓜"], "<预言>的时限已到，已按规则处理。")  # the player is told too
        await scheduler.run(f"deadline:{row.id}")
    assert t.game.decided("西瓜", "预言")
    await row.refresh_from_db()
    assert row.done
    await director(app, "超时 西瓜", "“西瓜”没有进行中的时限")


async def test_time_limits_run_through_apscheduler():
    """The plugin's scheduler really runs a time limit at its time, and at once one whose time
    passed while the bot was down ("ones that passed while the bot was down fire at once")."""
    import asyncio
    from datetime import datetime, timedelta, timezone

    from plugins.banshabot.runtime import AsyncScheduler

    ran: list[str] = []

    async def record(name: str) -> None:
        ran.append(name)

    scheduler = AsyncScheduler()
    now = datetime.now(timezone.utc)
    # jobs as the service hands them over: a plain callable that returns the coroutine to await
    scheduler.at("test:soon", now + timedelta(seconds=0.1), lambda: record("soon"))
    scheduler.at("test:missed", now - timedelta(hours=2), lambda: record("missed"))
    scheduler.at("test:cancelled", now + timedelta(seconds=0.1), lambda: record("cancelled"))
    scheduler.cancel("test:cancelled")
    scheduler.cancel("test:unknown")  # nothing to cancel: no error
    for _ in range(100):
        if len(ran) == 2:
            break
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.1)
    assert sorted(ran) == ["missed", "soon"]


# --- 日志 ---------------------------------------------------------------------------------------------
async def test_log_lists_the_seed_and_every_command(app: App, banshabot):
    from bot_helpers import act

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await act(service, t, "果果", "杀人", "菠萝")
    # entries numbered from 1, each with who sent it: a player by seat, a director by QQ
    await director(app, "日志", treehole(t.row, "[第1条] 12-01 20:00 test：桃子 认亲 西瓜",
                                         "[第2条] 12-01 20:00 导演 10000：关门",
                                         "[第3条] 12-01 20:00 test：果果 杀人 菠萝"))


async def test_the_log_shows_each_substitute_and_closing_time_change_with_who_when_and_what_before(app: App, banshabot):
    """The 树洞 keeps what a director changed beside the game's commands: a 替补 (the seat, its old and
    new QQ) and each change of the day's closing time (关门时间, and a 延时's day more), from what to what.
    They are entries of the log like any other, numbered in turn, and the game is not replayed from them."""
    from service import director as directing
    from service import handling

    service = banshabot.service
    t = await running_game(service, pool=False)
    await day_two(service, t)

    async def friends() -> set[str]:
        return {"30001"}

    async def send(text: str) -> str:
        handling.begin(None, ("private", str(DIRECTOR)))
        reply = await directing.handle(service, str(DIRECTOR), text, friends)
        await drain()
        return reply

    assert (await send("替补 果果 30001")).startswith("1号 果果 由 30001 接手（原 20001）")
    planned = t.row.planned_close
    assert (await send("关门时间 12-03 21:30")).startswith("本日关门时间改为 12-03 21:30")
    assert (await send("关门时间 12-03 22:00")).startswith("本日关门时间改为 12-03 22:00")
    await director(app, "日志", treehole(
        t.row, "[第1条] 12-01 20:00 test：桃子 认亲 西瓜", "[第2条] 12-01 20:00 导演 10000：关门",
        "[第3条] 12-01 20:00 test：果果 杀人", *(f"[第{n}条] 12-01 20:00 test：{who} 放弃" for n, who in
                                                 enumerate(("柠檬", "西瓜", "芒果", "草莓"), 4)),
        "[第8条] 12-01 20:00 自动：结算夜晚", "[第9条] 12-01 20:00 导演 10000：开门",
        "[第10条] 12-01 20:00 导演 10000：竞选 果果:橘子 橘子:橘子", "[第11条] 12-01 20:00 导演 10000：开门",
        "[第12条] 12-01 20:00 导演 10000：替补 1号 果果：QQ 20001 → QQ 30001",
        f"[第13条] 12-01 20:00 导演 10000：关门时间 {clock(planned) if planned else '未设定'} → 12-03 21:30",
        "[第14条] 12-01 20:00 导演 10000：关门时间 12-03 21:30 → 12-03 22:00",
    ).replace("1号 果果：狼人，狼人阵营", "1号 果果：狼人，狼人阵营（替补接手 1 次）"))
    service.tables.clear()  # rebuilt from the log: the two entries change nothing of the game
    rebuilt = await service.table(t.row.id)
    assert rebuilt.next_seq == 14 and (rebuilt.game.phase, rebuilt.game.state.day_no) == ("day", 2)


# --- 判负 ---------------------------------------------------------------------------------------------
async def test_faction_loss_ends_the_game(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service, pool=False)
    await night_one(service, t)
    await director(app, "判负 外星人阵营", "本局没有“外星人阵营”。请发送“判负 阵营”，阵营：狼人阵营、村民阵营")
    log = treehole(t.row, "[第1条] 12-01 20:00 test：桃子 认亲 西瓜", "[第2条] 12-01 20:00 导演 10000：关门",
                   "[第3条] 12-01 20:00 导演 10000：判负 狼人阵营", result="村民阵营")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "判负 狼人阵营"))
        # every player is told, with the seed; then the director gets the whole log, ready to post, last
        director_hears(ctx, "狼人阵营判负", "【可公示】游戏结束，村民阵营获胜")
        for _, qq, _ in PLAYERS:
            says(ctx, qq, game_over("村民阵营", t.row.seed))
        director_hears(ctx, log, "已执行。")
    await director(app, "判负 村民阵营", "未执行：游戏已经结束")
    await director(app, "日志", log)
    await director(app, "游戏", "#1 [M131]粽子（M131，已结束）")


# --- 群池 ---------------------------------------------------------------------------------------------
async def test_group_pool(app: App):
    await director(app, "群池", "群池：\n（空）")
    await director(app, "群池 添加 九零零", "请发送“群池”、“群池 添加 群号 [原群名]”或“群池 移除 群号”")
    await add_to_pool(app, GROUP, GROUP_NAME)
    await director(app, f"群池 添加 {GROUP}", f"群 {GROUP} 已经在群池中")
    await add_to_pool(app, 900002, "")
    await director(app, "群池", f"群池：\n{GROUP} {GROUP_NAME} 空闲\n900002  空闲")
    await director(app, "群池 移除 900002", "群 900002 已移出群池")
    await director(app, "群池 移除 900002", "群 900002 不在群池中")
    await director(app, "群池", f"群池：\n{GROUP} {GROUP_NAME} 空闲")
    async with chat(app) as (ctx, bot):  # not a director's
        ctx.receive_event(bot, private(STRANGER, f"群池 移除 {GROUP}", friend=False))
        says(ctx, STRANGER, STRANGER_TEXT)
    await director(app, "群池", f"群池：\n{GROUP} {GROUP_NAME} 空闲")


async def test_a_group_in_use_stays_in_the_pool(app: App, banshabot):
    await running_game(banshabot.service)
    await director(app, f"群池 移除 {GROUP}", f"群 {GROUP} 正在被一局游戏使用，不能移出")
    await director(app, "群池", f"群池：\n{GROUP} {GROUP_NAME} 使用中（#1 狼群）")  # which game's team holds it


# --- a message seen twice ------------------------------------------------------------------------------
async def test_a_director_command_seen_twice_is_carried_out_once(app: App, banshabot):
    """"a message event seen twice (same message id) is handled once": OneBot may deliver an event
    again (a reconnect); a card must not be given twice."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "发牌 蓝牌 菠萝", 4242))
        says(ctx, DIRECTOR, "10号 菠萝 获得蓝牌")
        says(ctx, QQ["菠萝"], "导演判罚：你获得一张蓝牌。")
        says(ctx, DIRECTOR, "已执行。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "发牌 蓝牌 菠萝", 4242))  # the same event again: nothing
    assert t.game.state.player("菠萝").cards["蓝牌"] == 1


# --- what is no command -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text, reply", [
    ("网站", "不认识的导演指令“网站”。你是不是想发送：“网页”？发送“帮助”查看全部导演指令。"),
    ("你好", "不认识的导演指令“你好”。发送“帮助”查看全部导演指令。"),
    ("关门时见 12-05 22:00", "不认识的导演指令“关门时见”。你是不是想发送：“关门时间”、“关门”？发送“帮助”查看全部导演指令。"),
    ("开门12-05 22:00", "不认识的导演指令“开门12-05”。你是不是想发送：“开门”？发送“帮助”查看全部导演指令。"),
])
async def test_a_directors_unknown_command_is_called_so_with_the_nearest_commands(app: App, banshabot, text, reply):
    """Not the stranger's text: a director is told the command is unknown, what he may have meant, and 帮助."""
    await running_game(banshabot.service)
    await director(app, text, reply)


async def test_a_game_number_the_director_does_not_have_is_named(app: App, banshabot):
    await running_game(banshabot.service)
    await director(app, "#9 状态", "你没有编号为 #9 的游戏。发送“游戏”查看你的游戏和它们的编号。")
