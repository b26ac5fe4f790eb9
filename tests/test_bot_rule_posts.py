"""A rule post a director adds over QQ (service/rule_posts.py, plugins/banshabot/rule_posts.py): pasted after 规则帖,
or sent as a file the way NapCat / LLBot (a `file` segment, its url given or asked for) and go-cqhttp (the
`offline_file` notice) deliver one, its url served here by a local HTTP server. A sound post is kept, played by
新游戏 and read again after a restart; a wrong one is answered with its problems by line and key; an id that is
taken, a `code:` key, a file too large or of another kind are refused, and nothing is added."""
from __future__ import annotations

import base64
import itertools
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from nonebot.adapters.onebot.v11 import ActionFailed, Message, MessageSegment, NoticeEvent, PrivateMessageEvent
from nonebot.adapters.onebot.v11.event import Sender
from nonebug import App

import rulesets
from bot_helpers import BOT_ID, CO_DIRECTOR, DIRECTOR, TextWith, chat, director_hears, private, says
from service import rule_posts
from service.models import RulePostRow

pytestmark = pytest.mark.usefixtures("clean")

POST = (Path(__file__).parent / "scenarios" / "posts" / "nightmare-blood-moon.yaml").read_text(encoding="utf-8")
ID = "T-梦魇"
ADDED = f"已添加规则帖“{ID}”：梦魇与血月使徒，10人，6种身份。发送“新游戏 {ID} [标题]”用它开始一局。"
_message_ids = itertools.count(7001)
CREATED = f"已创建游戏 #1（{ID}）。下一步：发送“名单”，之后每行“角色名 QQ号”。"


@pytest.fixture(autouse=True)
def shipped_only():
    """Every test starts and ends with the shipped posts only."""
    before = set(rulesets.RULESETS)
    yield
    for added in set(rulesets.RULESETS) - before:
        del rulesets.RULESETS[added]


@pytest.fixture
def served():
    """A local HTTP server: `served(path, body)` serves `body` at the url it returns."""
    files: dict[str, bytes] = {}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            body = files.get(self.path)
            self.send_response(200 if body is not None else 404)
            self.end_headers()
            self.wfile.write(body or b"")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def serve(path: str, body: bytes) -> str:
        files[path] = body
        return f"http://127.0.0.1:{server.server_address[1]}{path}"

    yield serve
    server.shutdown()
    server.server_close()


def file_message(user: int, **data) -> PrivateMessageEvent:
    """A private message with one file, as NapCat and LLBot post it."""
    msg = Message(MessageSegment("file", data))
    return PrivateMessageEvent(
        time=1764590400, self_id=int(BOT_ID), post_type="message", sub_type="friend", user_id=user,
        message_type="private", message_id=next(_message_ids), message=msg, original_message=msg, raw_message="[CQ:file]", font=0,
        sender=Sender(user_id=user, nickname=str(user)), to_me=True)


def offline_file(user: int, **file) -> NoticeEvent:
    """go-cqhttp's notice of a file a friend sent."""
    return NoticeEvent(time=1764590400, self_id=int(BOT_ID), post_type="notice", notice_type="offline_file", user_id=user,
                       file=file)


async def director(app: App, event_or_text, *replies: str) -> None:
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, event_or_text) if isinstance(event_or_text, str) else event_or_text)
        director_hears(ctx, *replies)


async def test_a_pasted_post_is_added_played_by_new_game_and_read_again_after_a_restart(app: App):
    await director(app, "规则帖\n" + POST, ADDED)
    assert (await RulePostRow.get(id=ID)).owner == str(DIRECTOR)
    await director(app, f"新游戏 {ID}", CREATED)
    del rulesets.RULESETS[ID]  # a restart: the shipped posts only, then what the database keeps
    await rule_posts.load()
    assert rulesets.get(ID).title == "梦魇与血月使徒"


async def test_a_post_another_process_was_sent_is_read_when_new_game_or_a_game_names_it(app: App, banshabot):
    """Several processes on one database: a post sent to another one since this one started is in the
    database only. 新游戏 finds it there, and so does a game of it this process loads (a takeover)."""
    await RulePostRow.create(id=ID, owner=str(DIRECTOR), text=POST)  # as the other process kept it
    assert rulesets.get(ID) is None
    await director(app, f"新游戏 {ID}", CREATED)
    del rulesets.RULESETS[ID]
    banshabot.service.forget()  # the game is loaded again, as a process taking it over loads it
    t = await banshabot.service.table(1)
    assert t.row.ruleset == ID and rulesets.get(ID).title == "梦魇与血月使徒"
    await director(app, "游戏", f"#1 梦魇与血月使徒（{ID}，筹备中）")


async def test_a_wrong_post_is_answered_with_its_problems_by_line_and_key_and_not_added(app: App):
    wrong = POST.replace("night_order: [恐惧, 杀人, 女巫, 预言]", "night_order: [杀人, 恐惧, 女巫, 预言]")
    line = wrong.splitlines().index("night_order: [杀人, 恐惧, 女巫, 预言]") + 1
    await director(app, "规则帖\n" + wrong,
                   "规则帖文件有 1 处问题，没有添加：\n"
                   f"第{line}行「night_order.2」：「恐惧」应排在夜晚行动顺序的最前（梦魇每晚最先行动），不能排在「杀人」之后\n"
                   "改好后重新发送（用 python -m engine check 文件 可以先自己检查）。")
    assert rulesets.get(ID) is None and not await RulePostRow.exists()


async def test_a_post_with_many_problems_lists_the_first_fifteen_and_counts_the_rest(app: App):
    wrong = POST.replace("  - {name: 村民, faction: 村民阵营, count: 4}\n",
                         "".join(f"  - {{name: 无名{i}, faction: 村民阵营, count: 1}}\n" for i in range(20)))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(DIRECTOR, "规则帖\n" + wrong))
        ctx.should_call_api("send_private_msg", {"user_id": DIRECTOR, "message": TextWith("没有添加", "……另有 ")})
    assert rulesets.get(ID) is None


async def test_a_taken_id_and_a_code_key_are_refused(app: App):
    await director(app, "规则帖\n" + POST.replace(f"id: {ID}", "id: M131"),
                   "已经有编号为“M131”的规则帖，没有添加：改动过的规则帖请换一个新的 id（如“M131b”）再发送。")
    await director(app, "规则帖\n" + POST, ADDED)
    await director(app, "规则帖\n" + POST,
                   f"已经有编号为“{ID}”的规则帖，没有添加：改动过的规则帖请换一个新的 id（如“{ID}b”）再发送。")
    await director(app, "规则帖\n" + POST.replace(f"id: {ID}", "id: T2\ncode: os"),
                   "规则帖文件有 1 处问题，没有添加：\n"
                   "第7行「code」：从QQ发来的规则帖不能指定本帖独有的代码（code）：这样的帖子须由维护者放进 rulesets/\n"
                   "改好后重新发送（用 python -m engine check 文件 可以先自己检查）。")
    assert rulesets.get("T2") is None


async def test_an_id_new_game_could_not_name_is_refused(app: App):
    for bad in ('"T 梦魇"', '""'):
        await director(app, "规则帖\n" + POST.replace(f"id: {ID}", f"id: {bad}"),
                       "规则帖文件有 1 处问题，没有添加：\n第6行「id」：规则帖编号（id）不能为空，也不能含空格或换行：请写成一个词（如“S20”）\n"
                       "改好后重新发送（用 python -m engine check 文件 可以先自己检查）。")
    assert not await RulePostRow.exists()


async def test_only_a_configured_director_adds_a_post(app: App):
    """A co-director (`协助`) directs his game, but only those who may start one (新游戏) add a post."""
    await director(app, "新游戏 M131", "已创建游戏 #1（M131）。下一步：发送“名单”，之后每行“角色名 QQ号”。")
    await director(app, f"协助 {CO_DIRECTOR}", f"{CO_DIRECTOR} 已成为 #1 的协助导演。")
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(CO_DIRECTOR, "规则帖\n" + POST))
        says(ctx, CO_DIRECTOR, "只有配置的导演（SUPERUSERS）可以添加规则帖")
        ctx.receive_event(bot, file_message(CO_DIRECTOR, file="梦魇.yaml", file_id="f0", file_size="10", url="http://127.0.0.1:1/x"))
        says(ctx, CO_DIRECTOR, "只有配置的导演（SUPERUSERS）可以添加规则帖")
    assert rulesets.get(ID) is None


async def test_napcat_file_with_its_url_is_fetched_and_added(app: App, served):
    url = served("/post.yaml", POST.encode("utf-8"))
    await director(app, file_message(DIRECTOR, file="梦魇.yaml", file_id="f1", file_size=str(len(POST.encode())), url=url),
                   ADDED)
    assert rulesets.get(ID) is not None


async def test_napcat_file_without_a_url_is_asked_for_one(app: App, served):
    url = served("/asked.yaml", POST.encode("utf-8"))
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, file_message(DIRECTOR, file="梦魇.yaml", file_id="f2", file_size="100"))
        ctx.should_call_api("get_private_file_url", {"file_id": "f2"}, result={"url": url})
        director_hears(ctx, ADDED)


async def test_a_file_neither_linked_nor_downloadable_by_url_comes_by_get_file(app: App):
    """LLBot and a NapCat without its packet server: get_private_file_url fails, get_file answers the content."""
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, file_message(DIRECTOR, file="梦魇.yaml", file_id="f3", file_size="100"))
        ctx.should_call_api("get_private_file_url", {"file_id": "f3"},
                            exception=ActionFailed(status="failed", retcode=1404, data=None))
        ctx.should_call_api("get_file", {"file_id": "f3", "file": "f3"},
                            result={"file_name": "梦魇.yaml", "base64": base64.b64encode(POST.encode()).decode()})
        director_hears(ctx, ADDED)


async def test_a_path_in_the_message_is_never_read_only_one_get_file_answers(app: App, tmp_path):
    """A link in the message is downloaded over http(s) only: a path on the bot's machine is read where
    OneBot's own get_file answers with the file it saved, not where the message names one."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(POST, encoding="utf-8")
    await director(app, file_message(DIRECTOR, file="梦魇.yaml", file_size="100", url=secret.as_uri()),
                   "没有添加规则帖文件“梦魇.yaml”：这个 OneBot 没有给出文件的下载地址。也可以发送“规则帖”并换行，之后粘贴文件的内容。")
    assert rulesets.get(ID) is None
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, file_message(DIRECTOR, file="梦魇.yaml", file_id="f8", file_size="100"))
        ctx.should_call_api("get_private_file_url", {"file_id": "f8"}, result={})
        ctx.should_call_api("get_file", {"file_id": "f8", "file": "f8"}, result={"file": str(secret)})
        director_hears(ctx, ADDED)


async def test_go_cqhttp_offline_file_is_fetched_and_added(app: App, served):
    url = served("/offline.yaml", POST.encode("utf-8"))
    await director(app, offline_file(DIRECTOR, name="梦魇.yaml", size=len(POST.encode()), url=url), ADDED)


async def test_a_file_too_large_or_of_another_kind_or_not_text_is_refused(app: App, served):
    limit = rule_posts.DOWNLOAD_LIMIT
    await director(app, file_message(DIRECTOR, file="大.yaml", file_id="f4", file_size=str(limit + 1), url="http://127.0.0.1:1/x"),
                   f"没有添加规则帖文件“大.yaml”：文件太大：{limit + 1} 字节，规则帖文件最多 {limit} 字节。"
                   "也可以发送“规则帖”并换行，之后粘贴文件的内容。")
    # a size the message understates: the download stops past the limit
    url = served("/big.yaml", b"#" * (limit + 10))
    await director(app, file_message(DIRECTOR, file="大.yaml", file_id="f5", file_size="10", url=url),
                   f"没有添加规则帖文件“大.yaml”：文件太大：规则帖文件最多 {limit} 字节。也可以发送“规则帖”并换行，之后粘贴文件的内容。")
    await director(app, file_message(DIRECTOR, file="照片.jpg", file_id="f6", file_size="10", url=url),
                   f"收到文件“照片.jpg”：我只接收规则帖文件（.yaml）。{rule_posts.USAGE}")
    url = served("/gbk.yaml", "标题".encode("gbk"))
    await director(app, file_message(DIRECTOR, file="旧.yaml", file_id="f7", file_size="4", url=url),
                   "没有添加规则帖文件“旧.yaml”：它不是 UTF-8 编码的文本。请用 UTF-8 保存后重新发送。")
    assert not await RulePostRow.exists()


async def test_the_command_alone_says_how_to_send_a_post(app: App):
    await director(app, "规则帖", rule_posts.USAGE)


async def test_a_kept_post_that_no_longer_checks_is_left_out_at_start_and_the_others_load():
    """A library change may make a post sent earlier wrong: it is logged and left out, never stopping the start."""
    await RulePostRow.create(id="旧帖", owner=str(DIRECTOR), text=POST.replace(f"id: {ID}", "id: 旧帖").replace("梦魇", "夜魔"))
    await RulePostRow.create(id=ID, owner=str(DIRECTOR), text=POST)
    await rule_posts.load()
    assert rulesets.get("旧帖") is None and rulesets.get(ID) is not None
