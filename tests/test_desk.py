"""The director's desk without a browser: its links (`网页`, `网页 重置`), the pages NoneBot's own
FastAPI app serves (refused without a valid token, never cached), the game as the page reads it,
the command box, and the 揭秘 page. The page in Chromium: tests/test_desk_browser.py."""
from __future__ import annotations

import hashlib
import json
import re
import secrets

import nonebot
import pytest
from nonebug import App
from nonebot.adapters.onebot.v11 import Message

from bot_helpers import CO_DIRECTOR, DIRECTOR, OK, QQ, STRANGER_TEXT, act, chat, director_does, drain, night_one, private, running_game, says
from engine import Ballots, FactionLoss, OpenDay

pytestmark = pytest.mark.usefixtures("clean")


class Captured:
    """A one-text-segment message, whatever it says: the test reads it afterwards."""

    def __init__(self) -> None:
        self.text: str | None = None

    def __eq__(self, other) -> bool:
        if not isinstance(other, Message):
            return False
        self.text = "".join(seg.data["text"] for seg in other)
        return True


async def director_gets(app: App, text: str, who: int = DIRECTOR) -> str:
    reply = Captured()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(who, text))
        ctx.should_call_api("send_private_msg", {"user_id": who, "message": reply}, result=OK)
    return reply.text


def token_of(reply: str) -> str:
    found = re.search(r"http://127\.0\.0\.1:8080/desk#([A-Za-z0-9_-]{43})\n", reply)
    assert found, reply
    return found[1]


async def http(method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"") -> tuple[int, dict, bytes]:
    """One request to the bot's FastAPI app, as uvicorn hands it over."""
    sent = {"host": "127.0.0.1:8080", **(headers or {})}
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(k.lower().encode(), v.encode()) for k, v in sent.items()],
             "server": ("127.0.0.1", 8080), "client": ("127.0.0.1", 40000)}
    chunks, answer = [body], {}

    async def receive():
        return {"type": "http.request", "body": chunks.pop() if chunks else b"", "more_body": False}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {k.decode(): v.decode() for k, v in message["headers"]}
        else:
            answer["body"] = answer.get("body", b"") + message.get("body", b"")

    await nonebot.get_app()(scope, receive, send)
    return answer["status"], answer["headers"], answer.get("body", b"")


async def desk_state(token: str) -> tuple[int, dict]:
    status, headers, body = await http("GET", "/desk/state", {"x-desk-token": token})
    assert headers["cache-control"] == "no-store, private"
    return status, json.loads(body)


async def command(token: str, text: str, origin: str | None = "http://127.0.0.1:8080", sent: str | None = None) -> tuple[int, dict]:
    headers = {"x-desk-token": token, "content-type": "application/json"}
    if origin:
        headers["origin"] = origin
    body = json.dumps({"text": text, "id": sent or secrets.token_hex(16)}).encode()
    status, _, body = await http("POST", "/desk/command", headers, body)
    return status, json.loads(body)


async def test_a_link_opens_its_game_until_reset_and_only_its_hash_is_stored(app: App, banshabot):
    from service.models import DeskTokenRow

    await running_game(banshabot.service)
    first = token_of(await director_gets(app, "网页"))
    status, state = await desk_state(first)
    assert status == 200
    assert [(s["name"], s["qq"], s["identity"]) for s in state["seats"]][:2] == [
        ("果果", str(QQ["果果"]), "狼人，狼人阵营"), ("橘子", str(QQ["橘子"]), "狼人，狼人阵营")]
    stored = await DeskTokenRow.all().values_list("digest", flat=True)
    assert stored == [hashlib.sha256(first.encode()).hexdigest()]

    second = token_of(await director_gets(app, "网页"))  # another link: the first still works
    assert (await desk_state(first))[0] == 200 and (await desk_state(second))[0] == 200

    reply = await director_gets(app, "网页 重置")
    assert reply.startswith("已重置：你之前的本局网页链接都已失效。")
    third = token_of(reply)
    for old in (first, second):
        status, refused = await desk_state(old)
        assert status == 403 and "发送“网页”获取新链接" in refused["error"] and "seats" not in refused
    assert (await desk_state(third))[0] == 200


async def test_no_token_or_a_wrong_one_shows_nothing_and_a_player_gets_no_link(app: App, banshabot):
    await running_game(banshabot.service, recognise=None)
    for token in ("", "x" * 43, "short"):
        status, body = await desk_state(token)
        assert status == 403 and set(body) == {"error"}
    status, body = await command("x" * 43, "状态")
    assert status == 403 and set(body) == {"error"}
    async with chat(app) as (ctx, bot):  # a player's 网页 is no command of his
        ctx.receive_event(bot, private(QQ["果果"], "网页"))
        ctx.should_call_api("send_private_msg", {"user_id": QQ["果果"], "message": Captured()}, result=OK)
    from service.models import DeskTokenRow

    assert not await DeskTokenRow.exists()
    async with chat(app) as (ctx, bot):
        ctx.receive_event(bot, private(55555, "网页", friend=False))  # a stranger (not a friend) is told only how to join
        says(ctx, 55555, STRANGER_TEXT)


async def test_the_page_is_one_self_contained_file_no_cache_may_keep(app: App, banshabot):
    status, headers, body = await http("GET", "/desk")
    page = body.decode()
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert headers["cache-control"] == "no-store, private" and headers["referrer-policy"] == "no-referrer"
    assert "default-src 'none'" in headers["content-security-policy"]
    # nothing fetched from the internet: no address outside the bot, no external script, style or image
    assert not re.search(r"https?://", page)
    assert not re.search(r"<(script|link|img|iframe)[^>]*\s(src|href)=\"(?!data:)", page)
    assert "<style>" in page and "<script>" in page
    # the token never leaves the fragment but in the page's own header; player text goes in as text
    assert 'location.hash' in page and '"X-Desk-Token": token' in page and "innerHTML" not in page
    assert '<meta name="viewport" content="width=device-width,initial-scale=1">' in page


async def test_the_state_after_a_night_shows_who_acted_who_is_awaited_and_who_went_out(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    token = token_of(await director_gets(app, "网页"))
    await night_one(service, t)
    await act(service, t, "果果", "杀人", "菠萝")
    await act(service, t, "西瓜", "放弃")
    _, state = await desk_state(token)
    night = state["night"]
    assert night["label"] == "第1夜" and not night["resolved"]
    assert [(a["who"], a["slot"], a["state"], a["detail"]) for a in night["done"]] == [
        ("果果", "杀人", "已行动", "菠萝"), ("西瓜", "放弃", "放弃", "")]
    waiting = {(w["who"], w["slot"]): w for w in night["waiting"]}
    assert ("草莓", "诽谤") in waiting and ("西瓜", "预言") not in waiting
    assert waiting[("草莓", "诽谤")]["until"] == "12-01 21:00"  # 关门 at 20:00, an hour to act
    assert any(limit["what"].startswith("草莓") and limit["reminders"] == ["12-01 20:50"] for limit in state["limits"])

    for name in ("柠檬", "芒果", "草莓"):
        await act(service, t, name, "放弃")
    # M131: the first night's dead are published after the election, the next 开门
    for cmd in (OpenDay(), Ballots("election", (("果果", "橘子"), ("橘子", "橘子"), ("西瓜", "弃权"))), OpenDay()):
        await director_does(service, t, cmd)
    _, state = await desk_state(token)
    seats = {s["name"]: s for s in state["seats"]}
    assert not seats["菠萝"]["alive"] and seats["菠萝"]["out"] == "第1夜出局（杀人） 12-01 20:00"
    assert "警长" in seats["橘子"]["tags"] and "狼群" in seats["果果"]["tags"]
    assert state["night"] is None
    count = state["counts"]
    assert count["label"] == "第1天" and count["items"][0]["kind"] == "警长竞选"
    assert "票型：\n1号 果果 → 2号 橘子" in count["items"][0]["text"] and "弃权：5号 西瓜" in count["items"][0]["text"]
    phases = {e["phase"] for e in state["log"]}
    assert {"开局", "第1夜", "第1天"} <= phases
    # the log's filters: the entries naming 菠萝, each with the phase it was sent in
    assert [(e["phase"], e["text"]) for e in state["log"] if "菠萝" in e["names"]] == [
        ("第1夜", "[第3条] 12-01 20:00 test：果果 杀人 菠萝")]


async def test_the_command_box_runs_a_command_as_his_private_chat_does(app: App, banshabot, monkeypatch):
    from service.models import CommandRow, OutboxRow

    service = banshabot.service
    t = await running_game(service)
    token = token_of(await director_gets(app, "网页"))
    await drain()
    status, body = await command(token, "关门", origin="https://evil.example")
    assert status == 403 and "别的网站" in body["error"]
    assert t.game.phase == "setup" and not await OutboxRow.filter(sent_at=None).exists()

    # no OneBot connected: what the command sends waits in the outbox, the director's answer among it
    status, body = await command(token, "关门")
    assert status == 200 and body == {"reply": "已执行。"}
    assert t.game.phase == "night"
    to_director = [r.params["text"] for r in await OutboxRow.filter(sent_at=None).order_by("id") if r.params.get("user_id") == DIRECTOR]
    assert to_director[-1] == "已执行。"  # his QQ gets the answer too, as a QQ command's
    last = await CommandRow.filter(game_id=t.row.id).order_by("-seq").first()
    assert last.payload["type"] == "CloseDay" and last.source == f"director:{DIRECTOR}"
    status, body = await command(token, "#2 状态")
    assert status == 400 and "#1" in body["error"]
    # behind a reverse proxy the page's Origin is the links' address, whatever Host the proxy passes on
    monkeypatch.setattr(service.config, "banshabot_public_url", "https://desk.example.org")
    assert (await command(token, "状态", origin="https://desk.example.org"))[0] == 200
    assert (await command(token, "状态", origin="https://evil.example"))[0] == 403
    # the same command sent twice by the page (a request repeated on the way) runs once
    once = secrets.token_hex(16)
    assert (await command(token, "发牌 蓝牌 菠萝", sent=once))[1] == {"reply": "已执行。"}
    assert await command(token, "发牌 蓝牌 菠萝", sent=once) == (409, {"error": "重复的指令，已忽略。"})
    assert t.game.state.player("菠萝").cards["蓝牌"] == 1


async def test_the_reveal_page_is_public_only_once_the_game_is_over_and_made_public(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    assert (await http("GET", f"/reveal/{t.row.id}"))[0] == 404
    assert (await http("GET", "/reveal/99999999999999999999"))[0] == 404
    assert (await director_gets(app, "揭秘 公开")).startswith("游戏还没有结束，揭秘页不能公开")
    assert (await http("GET", f"/reveal/{t.row.id}"))[0] == 404
    outcome = await service.submit(t, FactionLoss("狼人阵营"), source=f"director:{DIRECTOR}")
    assert outcome.ok and t.row.status == "over"
    await drain()
    assert (await http("GET", f"/reveal/{t.row.id}"))[0] == 404  # over, not yet made public
    reply = await director_gets(app, "揭秘 公开")
    assert reply == f"本局揭秘页已公开，可贴到论坛的揭秘帖：\nhttp://127.0.0.1:8080/reveal/{t.row.id}"
    status, headers, body = await http("GET", f"/reveal/{t.row.id}")
    page = body.decode()
    assert status == 200 and headers["cache-control"] == "no-store, private"
    assert f"种子：{t.row.seed}" in page and "结果：村民阵营获胜" in page
    assert "<td>桃子</td><td>混血儿，村民阵营</td>" in page and "认亲 西瓜" in page
    assert "认亲 西瓜" in page and "导演：判负 狼人阵营" in page
    assert not any(str(qq) in page for qq in [*QQ.values(), DIRECTOR])  # nobody's QQ number is made public
    assert (await director_gets(app, "揭秘 撤回")) == "本局揭秘页已取消公开，链接不再能打开。"
    assert (await http("GET", f"/reveal/{t.row.id}"))[0] == 404


async def test_a_co_director_has_links_of_his_own_and_a_game_being_set_up_shows_its_roster(app: App, banshabot):
    service = banshabot.service
    await service.create(str(DIRECTOR), "M131", "")
    token = token_of(await director_gets(app, "网页"))
    _, state = await desk_state(token)
    assert state["game"]["phase"] == "筹备中（尚未开始）" and state["seats"] == [] and state["night"] is None
    status, body = await command(token, f"协助 {CO_DIRECTOR}")  # from the desk: his QQ gets the answer too
    assert (status, body) == (200, {"reply": f"{CO_DIRECTOR} 已成为 #1 的协助导演。"})
    assert [p["text"] for _, p in await drain()] == [body["reply"]]
    helper = token_of(await director_gets(app, "网页", who=CO_DIRECTOR))
    await director_gets(app, "网页 重置")  # the director's reset leaves the co-director's link alone
    assert (await desk_state(helper))[0] == 200 and (await desk_state(token))[0] == 403


async def test_a_correction_made_from_the_desk_is_shown_waiting_then_among_the_corrections(app: App, banshabot):
    service = banshabot.service
    t = await running_game(service)
    token = token_of(await director_gets(app, "网页"))
    await night_one(service, t)
    assert (await command(token, "发牌 蓝牌 菠萝"))[1] == {"reply": "已执行。"}
    _, state = await desk_state(token)
    assert {s["name"]: s for s in state["seats"]}["菠萝"]["cards"] == "蓝牌1"
    status, body = await command(token, "撤销 3")
    assert status == 200 and body["reply"].startswith("撤销第3条（12-01 20:00 导演 10000：发牌 蓝牌 菠萝）")
    assert (await desk_state(token))[1]["proposed"] is True
    status, body = await command(token, "确认")
    assert status == 200 and not body["reply"].startswith("未执行")
    _, state = await desk_state(token)
    assert not state["proposed"] and {s["name"]: s for s in state["seats"]}["菠萝"]["cards"] == ""
    assert [e["text"] for e in state["log"] if e["correction"]] == ["[第4条] 12-01 20:00 导演 10000：撤销第3条"]
    assert state["log"][2]["text"].endswith("发牌 蓝牌 菠萝（已由第4条撤销）")


async def test_146_shows_its_lovers_officers_and_new_moons_with_the_next_draw(app: App, banshabot):
    from engine import Act, CloseDay
    from test_bot_146 import does, quiet_night, started

    service = banshabot.service
    t = await started(service, moons=["王对王", "魔法水晶球"])
    token = token_of(await director_gets(app, "网页"))
    await does(service, t, OpenDay())
    await does(service, t, Ballots("election", (("阿福", "大勇"), ("大勇", "大勇"))))
    await does(service, t, Act("大勇", "任命", "20"))
    _, state = await desk_state(token)
    seats = {s["name"]: s for s in state["seats"]}
    assert "情侣" in seats["狗蛋"]["tags"] and "情侣" in seats["铁蛋"]["tags"] and "情侣" not in seats["大勇"]["tags"]
    assert "警长" in seats["大勇"]["tags"] and "执警" in seats["丫蛋"]["tags"]
    assert state["moons"] == {"in_play": ["王对王", "魔法水晶球"], "announced": [], "next": "第2天大新月：待抽取"}
    assert state["pending"][0]["who"] == "大勇" and state["pending"][0]["slot"] == "决策"
    await does(service, t, Act("大勇", "决策", 1))
    event = t.game.state.carry["draw"]["event"]
    _, state = await desk_state(token)
    assert state["moons"]["next"] == f"第2天大新月：{event}（17号 大勇 决策第1张）"
    await does(service, t, CloseDay())
    await quiet_night(service, t)
    await does(service, t, OpenDay())
    _, state = await desk_state(token)
    assert state["moons"]["announced"] == [f"第2天 {event}（17号 大勇 决策第1张）"] and state["moons"]["next"] is None
