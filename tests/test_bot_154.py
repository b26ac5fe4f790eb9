"""154 in the bot: the ghost group and the brothers' group are formed from the pool, 宁采臣 joins the
ghost group when 小倩 finds him, and nothing about 宁采臣 reaches anyone not entitled to it."""
from __future__ import annotations

from bot_helpers import DIRECTOR, drain, texts_to

from engine import Act, CloseDay
from service import groups

# seat order: (name, QQ, identity)
PLAYERS = [
    ("姥姥", 30001, "树精姥姥"), ("小倩", 30002, "小倩"), ("鬼甲", 30003, "女鬼"), ("鬼乙", 30004, "女鬼"),
    ("鬼丙", 30005, "女鬼"), ("老妖", 30006, "黑山老妖"), ("道士", 30007, "除妖道士"), ("蛊女", 30008, "苗疆蛊女"),
    ("刀客", 30009, "绝命刀客"), ("郎中", 30010, "江湖郎中"), ("兄长", 30011, "兄弟考生"), ("小弟", 30012, "兄弟考生"),
    ("石头", 30013, "宁采臣"), ("书一", 30014, "赶考书生"), ("书二", 30015, "赶考书生"), ("书三", 30016, "赶考书生"),
    ("书四", 30017, "赶考书生"), ("书五", 30018, "赶考书生"), ("书六", 30019, "赶考书生"), ("书七", 30020, "赶考书生"),
]
QQ = {name: qq for name, qq, _ in PLAYERS}
COVEN_GROUP, BROTHERS_GROUP = 910001, 910002


async def started(service):
    await groups.add_to_pool(str(COVEN_GROUP), "闲聊一群")
    await groups.add_to_pool(str(BROTHERS_GROUP), "闲聊二群")
    row = await service.create(str(DIRECTOR), "154", "")
    t = await service.table(row.id)
    await service.set_roster(t, [(name, str(qq)) for name, qq, _ in PLAYERS])
    await service.assign(t, [(name, role) for name, _, role in PLAYERS])
    await service.start(t)
    return t, await drain()


async def test_the_ghosts_and_the_brothers_each_get_a_group(banshabot, clean):
    t, sent = await started(banshabot.service)
    renamed = {p["group_id"]: p["group_name"] for a, p in sent if a == "set_group_name"}
    assert renamed == {COVEN_GROUP: f"{t.row.title}·女鬼群"[:30], BROTHERS_GROUP: f"{t.row.title}·兄弟群"[:30]}
    for name in ("姥姥", "小倩", "鬼甲", "鬼乙", "鬼丙"):
        assert any(f"请申请加入QQ群 {COVEN_GROUP}" in text for text in texts_to(sent, QQ[name])), name
    for name in ("兄长", "小弟"):
        assert any(f"请申请加入QQ群 {BROTHERS_GROUP}" in text for text in texts_to(sent, QQ[name])), name
    assert await groups.may_join(str(COVEN_GROUP), str(QQ["鬼甲"]))
    assert not await groups.may_join(str(COVEN_GROUP), str(QQ["兄长"]))
    assert not await groups.may_join(str(COVEN_GROUP), str(QQ["石头"]))  # not before 小倩 finds him


async def test_ning_is_told_he_is_a_scholar_and_nobody_hears_of_him(banshabot, clean):
    t, sent = await started(banshabot.service)
    [brief] = [text for text in texts_to(sent, QQ["石头"]) if "你的身份" in text]
    assert "你的身份：赶考书生" in brief and "宁采臣" not in brief
    others = {qq for _, qq, _ in PLAYERS} - {QQ["石头"]}
    told_others = [p["text"] for a, p in sent if a.startswith("send_") and (p.get("user_id") in others or "group_id" in p)]
    assert not any("石头" in text for text in told_others)  # who he is reaches no one


async def test_ning_found_joins_the_ghost_group(banshabot, clean):
    service = banshabot.service
    t, _ = await started(service)
    await service.submit(t, CloseDay(), source="test")
    await drain()
    outcome = await service.submit(t, Act(by="小倩", skill="执子之手", target="石头"), source="test")
    assert outcome.ok, outcome.error
    sent = await drain()
    assert any(f"请申请加入QQ群 {COVEN_GROUP}" in text for text in texts_to(sent, QQ["石头"]))
    assert any("13号 石头" in text for text in texts_to(sent, COVEN_GROUP))  # the group's new roster
    assert await groups.may_join(str(COVEN_GROUP), str(QQ["石头"]))
    for name in ("兄长", "道士", "书一"):  # no one outside the ghosts learns of it
        assert not any("石头" in text for text in texts_to(sent, QQ[name])), name
    assert not any("石头" in text for text in texts_to(sent, BROTHERS_GROUP))
