"""The posts made only of the library in the bot (rulesets/s12.yaml, rulesets/s16.yaml): 新游戏 starts them like
any other; the pack's group holds who the file puts in it (not the 石像鬼); what their players send is read by the
bot's parser with the posts' own words (a swap of two numbers, the 白狼王 taking one) and played. A post whose sheriff
decides a tied exile (tests/scenarios/posts/pick.yaml): the director's count says whom the bot asked, and the
sheriff's private “决定” sends the one he names out."""
from __future__ import annotations

from pathlib import Path

import pytest
from bot_helpers import DIRECTOR, drain, texts_to

import rulesets
from engine import Ballots, CloseDay, OpenDay
from engine.rulecheck import load_text
from rulesets import get
from service import director as directing
from service import groups
from service.parse import player_text

PACK_GROUP = 920001
S16 = [("狼一", "狼人"), ("狼二", "狼人"), ("美人", "狼美人"), ("隐者", "隐狼"), ("石像", "石像鬼"), ("先知", "预言家"),
       ("巫婆", "女巫"), ("骑士", "骑士"), ("梦者", "摄梦人"), ("魔师", "魔术师"), ("墓人", "守墓人"), ("长老", "禁言长老"),
       ("猎手", "猎人"), ("民一", "村民"), ("民二", "村民"), ("笛手", "吹笛者")]
S12 = [("狼一", "狼人"), ("狼二", "狼人"), ("狼三", "狼人"), ("白狼", "白狼王"), ("先知", "预言家"), ("巫婆", "女巫"),
       ("猎手", "猎人"), ("白痴", "白痴"), ("守卫", "守卫"), ("民一", "村民"), ("民二", "村民"), ("民三", "村民")]


def qq(players, name: str) -> int:
    return 40001 + [n for n, _ in players].index(name)


async def started(service, post: str, players):
    await groups.add_to_pool(str(PACK_GROUP), "闲聊群")
    row = await service.create(str(DIRECTOR), post, "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq(players, name))) for name, _ in players])
    await service.assign(t, players)
    await service.start(t)
    return t, await drain()


async def sent(service, t, post: str, name: str, text: str):
    outcome = await service.submit(t, player_text(text, get(post), name), source="test")
    assert outcome.ok, outcome.error
    return await drain()


async def test_s16_pack_group_and_two_number_skills(banshabot, clean):
    service = banshabot.service
    t, out = await started(service, "S16", S16)
    for name in ("狼一", "狼二", "美人", "隐者"):
        assert any(f"请申请加入QQ群 {PACK_GROUP}" in text for text in texts_to(out, qq(S16, name))), name
    assert not any(f"请申请加入QQ群 {PACK_GROUP}" in text for text in texts_to(out, qq(S16, "石像")))
    await service.submit(t, CloseDay(), source="test")
    await drain()
    told = await sent(service, t, "S16", "魔师", "交换 14 6")
    assert any("已收到：交换 14号 民一 与 6号 先知" in text for text in texts_to(told, qq(S16, "魔师")))
    told = await sent(service, t, "S16", "笛手", "吹笛 1 2")
    assert any("已收到：吹笛 1号 狼一、2号 狼二" in text for text in texts_to(told, qq(S16, "笛手")))


async def test_s12_white_wolf_king_takes_one_through_the_parser(banshabot, clean):
    service = banshabot.service
    t, _ = await started(service, "S12", S12)
    for cmd in (CloseDay(), OpenDay(), Ballots("election", (("先知", "先知"),)), OpenDay()):
        outcome = await service.submit(t, cmd, source="test")
        assert outcome.ok, outcome.error
    await drain()
    told = await sent(service, t, "S12", "白狼", "白狼自爆 9")
    assert any("4号 白狼 自爆出局，并带走 9号 守卫" in text for text in texts_to(told, DIRECTOR)), texts_to(told, DIRECTOR)
    assert {p.name for p in t.game.state.players if not p.alive} == {"白狼", "守卫"}
    assert t.game.state.day.called_off  # "然后当天不再进行投票"


PICKING = [("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "预言家"), ("戊", "猎人"), ("己", "白痴"), ("庚", "村民"),
           ("辛", "村民")]


@pytest.fixture
def pick_post():
    post = load_text((Path(__file__).parent / "scenarios" / "posts" / "pick.yaml").read_text(encoding="utf-8"))
    rulesets.add(post)
    yield post.id
    del rulesets.RULESETS[post.id]


async def test_the_sheriff_decides_a_tied_exile_by_private_message(banshabot, clean, pick_post):
    service = banshabot.service
    t, _ = await started(service, pick_post, PICKING)
    for cmd in (CloseDay(), OpenDay(), Ballots("election", (("甲", "丁"),)), OpenDay()):
        outcome = await service.submit(t, cmd, source="test")
        assert outcome.ok, outcome.error
    await drain()

    async def no_friends():
        return set()

    reply = await directing.handle(service, str(DIRECTOR), "投票 甲:戊 乙:己 丙:戊 庚:己", no_friends)
    assert "结果：平票，由警长 4号 丁 决定谁出局（已私聊他）" in reply and "请等他决定或时限过后再关门" in reply
    asked = texts_to(await drain(), qq(PICKING, "丁"))
    assert any("请在 5号 戊、6号 己 中决定放逐一名，发送“决定 座位号”" in text for text in asked), asked
    told = await sent(service, t, pick_post, "丁", "决定 5")
    assert "【可公示】放逐投票平票，警长 4号 丁 决定放逐 5号 戊。" in texts_to(told, DIRECTOR)
    assert any("<开枪>" in text for text in texts_to(told, qq(PICKING, "戊")))
    assert not t.game.state.player("戊").alive
