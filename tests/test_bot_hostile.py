"""What a message carries cannot break a game, through NoneBot.

- Numbers: digits `str.isdigit()` takes and `int()` does not ("①", "³"), numbers past Python's
  4,300-digit limit, QQ numbers of 21 digits or of no digits: each refused with a clear answer,
  nothing stored; full-width digits, which Chinese input methods type, still count.
- A change is made in memory only together with the database, and whatever breaks unexpectedly is
  answered: the sender in Chinese, the director told, the game as stored.
- Player text bound for the forum shows its Discuz! code instead of applying it; what a player can
  store is capped; a refusal never repeats more than a few characters of what was sent.
- A vote paste is bounded; a finished game takes no change and never touches the group its team had.
"""
from __future__ import annotations

import pytest
from nonebug import App

from bot_helpers import (
    DIRECTOR,
    GROUP,
    PLAYERS,
    QQ,
    STRANGER_TEXT,
    WOLVES,
    chat,
    day_two,
    director_does,
    drain,
    in_group,
    night_one,
    posts,
    private,
    quiet_night,
    running_game,
    says,
    says_with,
)
from engine import Act, Ballots, CloseDay, FactionLoss, OpenDay
from engine.discuz import discuz_code
from service import parse
from service.models import CommandRow, GameRow, OutboxRow, PoolGroupRow, SeatRow, TeamRow
from service.texts import TROUBLE, forum_safe

pytestmark = pytest.mark.usefixtures("clean")

NOT_FOUND = "，请发送座位号或角色名"
TWENTY_ONE_DIGITS = "123456789012345678901"


async def sends(app: App, qq: int, text: str, *replies: str) -> None:
    """`qq` sends `text` privately and reads exactly `replies` (nobody else hears anything)."""
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(qq, text))
        for reply in replies:
            says(ctx, qq, reply)


async def stored(game_id: int = 1) -> tuple:
    """What the database holds of a game: its row, seats, commands, teams."""
    row = await GameRow.get(id=game_id)
    seats = [(s.seat, s.name, s.qq, s.role, tuple(s.former_qq)) for s in await SeatRow.filter(game_id=game_id).order_by("seat")]
    commands = [c.payload for c in await CommandRow.filter(game_id=game_id).order_by("seq")]
    teams = [(r.team, tuple(r.members), r.group_id) for r in await TeamRow.filter(game_id=game_id).order_by("team")]
    return (row.title, row.status, tuple(row.directors), row.planned_close), seats, commands, teams


# --- numbers -----------------------------------------------------------------------------------------------
async def test_digits_int_cannot_read_are_refused_like_any_unknown_target(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await sends(app, QQ["草莓"], "诽谤 ①", f"未执行：没有找到角色「①」{NOT_FOUND}")
    await sends(app, DIRECTOR, "发牌 黄牌 " + "9" * 5000, f"未执行：没有找到角色「{'9' * 20}…」{NOT_FOUND}")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 ³"))
        posts(ctx, GROUP, f"未执行：没有找到角色「³」{NOT_FOUND}")
    assert t.game.night.actions == {}
    async with chat(app) as (ctx, bot):  # full-width digits are digits
        ctx.receive_event(bot, private(QQ["草莓"], "诽谤 ３"))
        says(ctx, QQ["草莓"], "已收到：诽谤 3号 香蕉。夜晚结算前可以更改。")
        says(ctx, DIRECTOR, "7号 草莓：诽谤 ３")


async def test_a_co_director_must_be_a_qq_number_and_the_game_goes_on(app: App, banshabot):
    """`协助 ①` was stored, and from then on every message to the directors failed: every action of
    the game, also after a restart."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    for bad in ("①", TWENTY_ONE_DIGITS, "１２３", "-10086"):
        await sends(app, DIRECTOR, f"协助 {bad}", "请发送“协助 QQ号”")
    await sends(app, DIRECTOR, "协助 １２３４５６", "123456 已成为 #1 的协助导演。")  # typed full-width
    assert (await GameRow.get(id=1)).directors == [str(DIRECTOR), "123456"]
    service.tables.clear()  # a restart: the game is rebuilt from the database
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["草莓"], "诽谤 1"))
        says(ctx, QQ["草莓"], "已收到：诽谤 1号 果果。夜晚结算前可以更改。")
        says(ctx, DIRECTOR, "7号 草莓：诽谤 1")
        says(ctx, 123456, "7号 草莓：诽谤 1")


async def test_numbers_that_are_no_qq_are_refused_wherever_a_qq_is_asked(app: App, banshabot):
    service = banshabot.service
    await sends(app, DIRECTOR, "新游戏 M131", "已创建游戏 #1（M131）。下一步：发送“名单”，之后每行“角色名 QQ号”。")
    lines = [f"{name} {qq}" for name, qq, _ in PLAYERS]
    await sends(app, DIRECTOR, "名单\n" + "\n".join(lines[:12] + [f"龙眼 {TWENTY_ONE_DIGITS}"]),
                f"“龙眼”后面的QQ号“{TWENTY_ONE_DIGITS[:20]}…”不是QQ号：QQ号是5到11位数字")
    await sends(app, DIRECTOR, "名单\n" + "\n".join(lines[:12] + ["龙眼 ①②③④⑤"]), "“龙眼”后面的QQ号“①②③④⑤”不是数字")
    assert await SeatRow.all().count() == 0
    usage = "请发送“群池”、“群池 添加 群号 [原群名]”或“群池 移除 群号”"
    for bad in (TWENTY_ONE_DIGITS, "①", "9" * 5000):
        await sends(app, DIRECTOR, f"群池 添加 {bad}", usage)
    assert await PoolGroupRow.all().count() == 0

    t = await running_game(service, pool=False)  # game #2
    for bad in ("①", TWENTY_ONE_DIGITS, "³³³³³"):
        await sends(app, DIRECTOR, f"#2 替补 果果 {bad}", "请发送“替补 角色名 新QQ号”")
    assert t.seat_of("果果").qq == str(QQ["果果"])
    assert await OutboxRow.filter(sent_at=None).count() == 0


async def test_over_long_titles_and_names_are_refused(app: App, banshabot):
    await sends(app, DIRECTOR, "新游戏 M131 " + "长" * 31, "标题太长：31字，最多30字。")
    assert await GameRow.all().count() == 0
    await sends(app, DIRECTOR, "新游戏 M131 " + "长" * 30, "已创建游戏 #1（M131）。下一步：发送“名单”，之后每行“角色名 QQ号”。")
    lines = [f"{name} {qq}" for name, qq, _ in PLAYERS]
    name = "龙" * 50
    await sends(app, DIRECTOR, "名单\n" + "\n".join(lines[:12] + [f"{name} 20013"]), f"角色名“{'龙' * 20}…”太长：最多16字。")
    assert await SeatRow.all().count() == 0


# --- a change is whole or not at all ------------------------------------------------------------------------
async def test_a_substitution_that_fails_changes_nothing(app: App, banshabot, monkeypatch):
    """A 替补 that failed half-way changed the game in memory but not in the database: receipts went
    to the wrong QQ until a restart."""
    from service import groups

    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    before = await stored()

    async def broken(*args, **kwargs):
        raise RuntimeError("the group could not be changed")

    with monkeypatch.context() as patched:
        patched.setattr(groups, "replaced", broken)
        await sends(app, DIRECTOR, "替补 果果 30001", "出错了：“替补”没有执行，游戏保持原样（RuntimeError，详见日志）。请稍后再试。")
    assert await stored() == before
    assert (await service.table(1)).seat_of("果果").qq == str(QQ["果果"])
    assert not await OutboxRow.filter(sent_at=None).exists()
    async with chat(app) as (ctx, bot):  # the player still plays, and the substitution can be made
        ctx.receive_event(bot, private(QQ["果果"], "状态"))
        says_with(ctx, QQ["果果"], "第1夜。你是 1号 果果，存活。")
        ctx.receive_event(bot, private(DIRECTOR, "替补 果果 30001"))
        says(ctx, QQ["果果"], "你的角色 果果 已由替补接手，你不再能以该角色行动。")
        says_with(ctx, 30001, "你作为替补接手了本局角色。")
        ctx.should_call_api("set_group_kick", {"group_id": GROUP, "user_id": QQ["果果"], "reject_add_request": False}, result=None)
        says_with(ctx, 30001, "你属于【狼群】")
        ctx.should_call_api("get_friend_list", {}, result=[{"user_id": 30001, "nickname": "替补"}])
        says(ctx, DIRECTOR, "1号 果果 由 30001 接手（原 20001）。")


async def test_an_unexpected_error_answers_the_player_tells_the_director_and_keeps_the_game(app: App, banshabot, monkeypatch):
    """A ruleset that breaks in the middle of a command has already changed the game in memory:
    the game is rebuilt from what is stored."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    rules = type(t.game.rules)
    route = rules.route_feedback

    def broken(self, g):
        route(self, g)
        raise RuntimeError("a bug")

    with monkeypatch.context() as patched:
        patched.setattr(rules, "route_feedback", broken)
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(QQ["西瓜"], "预言 1"))
            says(ctx, QQ["西瓜"], TROUBLE)
            says(ctx, DIRECTOR, "出错了：5号 西瓜（QQ 20005）的私聊消息未能处理，没有生效，游戏保持原样。消息开头：预言 1")
    assert (await service.table(1)).game.night.actions == {}
    async with chat(app) as (ctx, bot):  # nothing of it was kept: the seer can check now
        ctx.receive_event(bot, private(QQ["西瓜"], "预言 1"))
        says(ctx, QQ["西瓜"], "预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "已发给 5号 西瓜 的反馈：预言结果：1号 果果 是<非村民阵营>")
        says(ctx, DIRECTOR, "5号 西瓜：预言 1")


async def test_an_unexpected_error_in_the_group_is_answered_there(app: App, banshabot, monkeypatch):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(parse, "player_text", broken)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 5"))
        posts(ctx, GROUP, TROUBLE)
        says(ctx, DIRECTOR, "出错了：1号 果果（QQ 20001）在队伍群里的消息未能处理，没有生效，游戏保持原样。消息开头：杀人 5")


async def test_an_error_before_any_game_is_found_still_answers(app: App, banshabot, monkeypatch):
    """Where the service cannot even find the sender's game (the database, a bug), the handler
    itself answers, straight through OneBot, and tells the directors. The matcher's rule, which
    cannot tell either whether the message is the bot's, takes it so that it is answered."""

    async def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(banshabot.service, "playing", broken)
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["草莓"], "诽谤 1"))
        says(ctx, QQ["草莓"], TROUBLE)
        says(ctx, DIRECTOR, "出错了：QQ 20007 的私聊消息（开头：诽谤 1）未能处理，没有生效。请查看日志。")


async def test_an_unexpected_error_in_a_director_command_is_answered(app: App, banshabot, monkeypatch):
    from service import director as directing

    service = banshabot.service
    await running_game(service)
    before = await stored()

    async def broken(service, t, *args):
        t.row.closed_at = t.row.created_at  # half a change, in memory only
        raise RuntimeError("a bug")

    monkeypatch.setitem(directing.COMMANDS, "关门", broken)
    await sends(app, DIRECTOR, "关门", "出错了：“关门”没有执行，游戏保持原样（RuntimeError，详见日志）。请稍后再试。")
    assert await stored() == before
    assert (await service.table(1)).row.closed_at is None


# --- what reaches the forum, what a player stores, what is repeated ---------------------------------------------
@pytest.mark.parametrize("words, shown", [
    ("[url=http://evil.example]点我看真相[/url]\n[IMG]http://evil.example/a.png[/IMG] [size=7]投果果[/size]",
     "［url=http://evil.example]点我看真相［/url]\n［IMG]http://evil.example/a.png［/IMG] ［size=7]投果果［/size]"),
    # codes no list of names had: a forum's own ([postbg], [swf]...) or one its administrator added
    ("[postbg]bg.jpg[/postbg][swf]http://evil.example/a.swf[/swf][hide]只有回帖可见[/hide][sell=5]付费[/sell]"
     "[wmv]http://evil.example/v.wmv[/wmv][xyz=1,2]自定义[/xyz]",
     "［postbg]bg.jpg［/postbg]［swf]http://evil.example/a.swf［/swf]［hide]只有回帖可见［/hide]［sell=5]付费［/sell]"
     "［wmv]http://evil.example/v.wmv［/wmv]［xyz=1,2]自定义［/xyz]"),
])
async def test_discuz_code_in_last_words_is_shown_not_applied_in_the_forum_post(app: App, banshabot, words, shown):
    """遗言中禁止使用Discuz!代码: the director is told, and the 开门 post shows the code as text."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "菠萝"), ("橘子", "菠萝"), ("西瓜", "菠萝"))))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["菠萝"], "遗言 " + words))
        says(ctx, QQ["菠萝"], "已收到遗言，将在下一个白天开始时公示。")
        says(ctx, DIRECTOR, f"10号 菠萝 的遗言：\n{words}")  # the director reads what was sent
        says(ctx, DIRECTOR, "注意：10号 菠萝 的遗言含有Discuz!代码，规则禁止")
    await director_does(service, t, CloseDay())
    await quiet_night(service, t)
    await director_does(service, t, OpenDay())
    posted = [p["text"] for a, p in await OutboxRow.all().order_by("id").values_list("action", "params")
              if p.get("user_id") == DIRECTOR and p["text"].startswith("【开门公告")]
    post = posted[-1]  # the second morning's
    assert "[b]菠萝 的遗言：[/b]" in post  # the post's own bold stays code
    assert shown in post
    assert not discuz_code(post.partition("[b]菠萝 的遗言：[/b]")[2])  # nothing of the words is code


@pytest.mark.parametrize("text, shown", [
    ("[flash=400,300]http://x.example/a.swf[/flash]", "［flash=400,300]http://x.example/a.swf［/flash]"),
    ("[media=x,500,375]http://x.example/v[/media][qq]12345[/qq][free]免费[/free]",
     "［media=x,500,375]http://x.example/v［/media]［qq]12345［/qq]［free]免费［/free]"),
    ("[i=s]被编辑[/i] [*]一项 [Color=Red]红[/COLOR]", "［i=s]被编辑［/i] ［*]一项 ［Color=Red]红［/COLOR]"),
    # a tag inside another's value is a tag too: Discuz! would read [i] once [font=… is taken
    ("[font=x[i]]斜体[/i]", "［font=x［i]]斜体［/i]"),
    # a code the forum's administrator added, named by letters or by digits: its closing tag takes both
    ("[ruby=yī]一[/ruby] [3]号是狼[/3] [X9 ]a[/x9]", "［ruby=yī]一［/ruby] ［3]号是狼［/3] ［X9 ]a［/x9]"),
])
def test_every_tag_shape_discuz_could_read_is_neutralised_for_the_forum(text, shown):
    assert forum_safe(text) == shown and discuz_code(text)


@pytest.mark.parametrize("text, shown", [
    ("证据看 http://evil.example/log.png 或者 www.evil.example", "证据看 http：//evil.example/log.png 或者 www．evil.example"),
    ("HTTPS://EVIL.example?q=1#x，thunder://abc，投果果www.x.cn", "HTTPS：//EVIL.example?q=1#x，thunder：//abc，投果果www．x.cn"),
    # an address Discuz! does not link stays as written: inside a tag's value or right after one, in a word
    ("［url=http://x.example]a［/url] ［img]http://x.example/a.png［/img] xhttp://x www.", None),
])
def test_a_bare_address_is_shown_not_linked_in_the_forum(text, shown):
    """"禁止在除树洞以外的游戏相关帖内贴出……网址": Discuz! links a bare address as it stores a post, so what a player
    wrote is pasted with the address shown as text."""
    assert forum_safe(text) == (shown or text)


async def test_a_bare_address_in_last_words_is_not_a_link_in_the_opening_post(banshabot):
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    await director_does(service, t, Ballots("exile", (("果果", "菠萝"), ("橘子", "菠萝"), ("西瓜", "菠萝"))))
    await director_does(service, t, Act(by="菠萝", skill="遗言", text="真相在 https://evil.example/1"))
    await director_does(service, t, CloseDay())
    await quiet_night(service, t)
    await director_does(service, t, OpenDay())
    posted = [p["text"] for a, p in await OutboxRow.all().order_by("id").values_list("action", "params")
              if p.get("user_id") == DIRECTOR and p["text"].startswith("【开门公告")]
    assert "真相在 https：//evil.example/1" in posted[-1] and "https://" not in posted[-1]


@pytest.mark.parametrize("text", ["我是[3]号，投[笑]", "[3楼]", "数组a[1]", "半个[b", "【遗言】", "[]", "[ 我 ]",
                                  "[M131]粽子", "[ok] [x=1]"])
def test_a_bracket_that_can_be_no_code_is_left_as_written_and_not_flagged(text):
    """No Discuz! code is named in Chinese, and a name that is none of Discuz!'s own is code only with its
    closing tag: "[笑]", "[3]" and a thread's title stay as written."""
    assert forum_safe(text) == text and not discuz_code(text)


async def test_last_words_are_capped(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await quiet_night(service, t, kill="菠萝")
    await director_does(service, t, OpenDay())
    await director_does(service, t, Ballots("election", (("果果", "橘子"),)))  # the deaths are published after it
    await sends(app, QQ["菠萝"], "遗言 " + "长" * 2001, "未执行：遗言太长：2001字，最多2000字。请删减后重新发送“遗言 内容”")
    assert t.game.state.last_words["菠萝"] is None
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["菠萝"], "遗言 " + "长" * 2000))
        says(ctx, QQ["菠萝"], "已收到遗言，将在下一个白天开始时公示。")
        says(ctx, DIRECTOR, "10号 菠萝 的遗言：\n" + "长" * 2000)


async def test_a_refusal_never_repeats_a_long_message(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    huge = "啊" * 100_000
    await sends(app, QQ["草莓"], huge, f"不认识“{'啊' * 20}…”。请发送“技能 目标”（如“预言 3”或“预言 果果”），或发送“帮助”。")
    await sends(app, QQ["草莓"], "诽谤 " + huge, "消息太长：100003字，最多3000字。请删减后重新发送。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 " + "啊" * 2000))
        posts(ctx, GROUP, f"未执行：没有找到角色「{'啊' * 20}…」{NOT_FOUND}")
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], "杀人 " + huge))
        posts(ctx, GROUP, "消息太长：100003字，最多3000字。请删减后重新发送。")
        ctx.receive_event(bot, in_group(GROUP, QQ["果果"], huge))  # the pack's own chat: none of the bot's business
    await sends(app, DIRECTOR, "超时 " + "啊" * 50, f"“{'啊' * 20}…”没有进行中的时限")
    await sends(app, DIRECTOR, "判负 " + "啊" * 50, f"本局没有“{'啊' * 20}…”。请发送“判负 阵营”，阵营：狼人阵营、村民阵营")
    await sends(app, DIRECTOR, "状态 " + huge, "消息太长：100003字，最多20000字。请删减后重新发送。")
    assert t.game.night.actions == {}


async def test_in_relay_a_long_chat_is_not_forwarded(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service, pool=False)
    await night_one(service, t)
    await sends(app, QQ["香蕉"], "嗯" * 3001, "消息太长：3001字，最多3000字。请删减后重新发送。（未转发给队友）")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["香蕉"], "嗯" * 3000))
        for name in ("果果", "橘子", "葡萄"):
            says(ctx, QQ[name], "[狼群] 香蕉：" + "嗯" * 3000)
        says(ctx, QQ["香蕉"], "已转发给狼群队友。（这不是指令：行动请发送“技能 目标”）")


async def test_a_surrender_answer_is_agree_or_refuse(app: App, banshabot):
    """What follows 投降 was stored as it came, whatever it was: only its meaning is stored now."""
    service = banshabot.service
    t = await running_game(service)
    await night_one(service, t)
    await sends(app, QQ["果果"], "投降 " + "啊" * 2000, "请发送“投降”同意投降，或“投降 拒绝”拒绝。")
    assert all("啊" not in str(c.payload) for c in await CommandRow.filter(game_id=1))


# --- votes ----------------------------------------------------------------------------------------------------
async def test_a_vote_paste_longer_than_a_director_may_send_is_refused(app: App, banshabot):
    """A 30,000-character paste held the whole bot for 11 s of CPU: it is refused, and one that
    fits is read in one pass."""
    service = banshabot.service
    t = await running_game(service)
    await day_two(service, t)
    tallies = len(t.game.state.tallies)
    paste = "投票 " + "果" * 30_000
    await sends(app, DIRECTOR, paste, f"消息太长：{len(paste)}字，最多{parse.DIRECTOR_LIMIT}字。请删减后重新发送。")
    assert len(t.game.state.tallies) == tallies
    await sends(app, DIRECTOR, "投票 " + "果" * 19_000, "没有读到票。请按“投票人:投票对象”书写，多张票用空格或换行分隔，如“果果:橘子 橘子:弃权”。")


# --- a finished game ----------------------------------------------------------------------------------------------
async def test_a_finished_game_takes_no_change_and_leaves_the_next_games_group_alone(app: App, banshabot):
    """替补 on an ended game kicked a player of the game that now held its group and posted the old
    roster there; 协助 was accepted on ended games."""
    service = banshabot.service
    first = await running_game(service)
    await night_one(service, first)
    await director_does(service, first, FactionLoss("狼人阵营"))
    assert first.row.status == "over"
    second = await service.create(str(DIRECTOR), "M131", "第二局")  # #2 gets the group back
    t2 = await service.table(second.id)
    await service.set_roster(t2, [(name, str(qq + 100)) for name, qq, _ in PLAYERS])
    await service.assign(t2, [(name, role) for name, _, role in PLAYERS])
    await service.start(t2)
    await drain()
    assert (await PoolGroupRow.get(group_id=str(GROUP))).game_id == second.id
    before = await stored(1)
    for command in ("替补 果果 30001", "协助 30002", "开门 22:00", "名单\n甲 30003", "代 果果 杀人 5", "发牌 蓝牌 果果"):
        await sends(app, DIRECTOR, f"#1 {command}", "未执行：游戏已经结束")
    assert await stored(1) == before
    assert not await OutboxRow.filter(sent_at=None).exists()  # nothing for the group, nor anyone else
    async with chat(app) as (ctx, bot):  # reading it is still fine
        ctx.receive_event(bot, private(DIRECTOR, "#1 状态"))
        says_with(ctx, DIRECTOR, "#1 [M131]粽子", "已结束")
    assert [s.qq for s in t2.seats if s.name in WOLVES] == [str(QQ[n] + 100) for n in WOLVES]


async def test_while_the_database_fails_the_directors_are_told_once_and_again_when_it_is_back(app: App, banshabot, monkeypatch):
    """Every message fails while the database does (from people who are not the bot's friends, whose
    messages the bot takes without asking the database): each sender is answered, the directors hear of the
    first one only, and once more when a message is handled again."""
    from tortoise.exceptions import OperationalError

    async def down(*args, **kwargs):
        raise OperationalError("disk I/O error")

    with monkeypatch.context() as patched:
        patched.setattr(banshabot.service, "playing", down)
        async with chat(app) as (ctx, bot):
            ctx.receive_event(bot, private(QQ["草莓"], "诽谤 1", friend=False))
            says(ctx, QQ["草莓"], TROUBLE)
            says(ctx, DIRECTOR, "出错了：数据库无法使用，QQ 20007 的私聊消息（开头：诽谤 1）未能处理，没有生效。请查看日志。"
                                "数据库恢复之前的消息同样无法处理（每个发送者都会收到通知），恢复时会再告诉你。")
        for name in ("西瓜", "柠檬"):
            async with chat(app) as (ctx, bot):
                ctx.receive_event(bot, private(QQ[name], "帮助", friend=False))
                says(ctx, QQ[name], TROUBLE)  # and nothing to the directors
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["西瓜"], "帮助", friend=False))
        says(ctx, QQ["西瓜"], STRANGER_TEXT)
        says(ctx, DIRECTOR, "数据库已恢复，消息又能正常处理了。故障期间有 3 条消息未能处理，发送者都已收到通知，需要时请他们重新发送。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(QQ["柠檬"], "帮助", friend=False))
        says(ctx, QQ["柠檬"], STRANGER_TEXT)
