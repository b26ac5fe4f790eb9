"""146's new moons (6L 新月扩展) on the engine: what the scenario files cannot say — who is told what and
when, with which time limit, what stays secret, and what does not happen.

The scenarios in tests/scenarios/146-moon-*.yaml pin each event's outcome; here the same games are
played command by command and their events (notices, feedback, time limits) are read.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Act, Ballots, Breach, Card, CloseDay, Configure, Game, Moon, OpenDay, ResolveNight, SpeedUp, Timeout
from engine.events import DeadlineEnd, DeadlineStart, Feedback, Notice
from rulesets import get
from rulesets.r146 import moons
from test_r146 import R146, ROSTER, notices, run

PACK = ["甲", "乙", "丙", "丁", "戊", "己"]


def starts(outs) -> dict[str, DeadlineStart]:
    return {e.key: e for o in outs for e in o.of(DeadlineStart)}


def game(events: list[str] | str = "none", seed: int = 0) -> Game:
    return Game(R146, ROSTER, seed=seed, options={"moons": events})


def to_day_one(g: Game):
    """Day 1 after the election: 辛 is the sheriff, 午 the deputy; returns the election's outcomes."""
    return run(g, Act("卯", "丘比特之箭", ["酉", "戌"]), OpenDay(), Ballots("election", (("辛", "辛"), ("午", "辛"))),
               Act("辛", "任命", "午"))


def to_day_two(event: str, seed: int = 0) -> tuple[Game, list]:
    """A game where `event` alone is in play, drawn by the sheriff; the outcomes of night 1 and day 2's 开门."""
    g = game([event], seed)
    to_day_one(g)
    outs = run(g, Act("辛", "决策", 1), CloseDay())
    return g, outs + run(g, OpenDay())


# --- the draws -----------------------------------------------------------------------------------------
def test_the_sheriff_is_asked_for_a_card_without_being_told_what_is_on_it():
    g = game("猎人的愤怒 魔法水晶球 王对王 英语考试".split())
    outs = to_day_one(g)
    asked = [t for t in notices(outs, "player:辛") if t.startswith("请<决策>")]
    assert asked == ["请<决策>第2天的大新月：桌上有 3 张背面朝上的牌，发送“决策 1”到“决策 3”选择一张（关门后30分钟内，否则由导演随机抽取）。"]
    limit = starts(outs)["决策:辛:day1"]
    assert (limit.anchor, limit.minutes) == ("close", 30)  # "警长、执警在关门半小时内需要发动抽取新月技能"
    outs = run(g, Act("辛", "决策", 2))
    event = g.state.carry["draw"]["event"]
    assert notices(outs, "player:辛") == ["已收到：决策 第2张。新月将在开门时公布。"]  # the event is not named to him
    assert any(f"第2天的大新月：{event}" in t for t in notices(outs, "director"))
    assert not notices(outs, "public")


def test_a_game_without_new_moons_draws_nothing():
    g = game("none")
    outs = to_day_one(g) + run(g, CloseDay(), OpenDay(), Ballots("exile", (("甲", "午"),)))
    assert not any("决策" in t or "辅策" in t for o in outs for e in o.of(Notice) for t in [e.text])
    assert g.state.moons == [] and g.state.day.moon is None
    assert g.apply(Moon("王对王")).error == "本局没有新月事件"


def test_the_post_configuration_is_the_default_and_an_unknown_event_is_refused():
    assert Game(R146, ROSTER).state.options["moons"] == [m.name for m in moons.EVENTS]
    assert len([m for m in moons.EVENTS if m.big]) == 12 and len([m for m in moons.EVENTS if not m.big]) == 5
    with pytest.raises(ValueError, match="假面舞会"):
        game(["王对王", "假面舞会"])


def test_a_scenario_naming_an_event_not_in_the_post_is_unusable(tmp_path):
    path = tmp_path / "bad.yaml"
    players = "\n".join(f"  - {{name: {n}, role: {r}}}" for n, r in ROSTER)
    path.write_text(f'ruleset: "146"\nmoons: [假面舞会]\nplayers:\n{players}\nsteps: [day]\n', encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                          encoding="utf-8", cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 2 and "假面舞会" in proc.stderr and proc.stdout == ""


def test_the_director_draws_when_the_sheriffs_half_hour_passes_and_the_gypsy_learns_it_that_night():
    g = game(["王对王"])
    to_day_one(g)
    run(g, CloseDay())
    outs = run(g, Timeout("决策:辛:day1"))
    assert any("未在关门后30分钟内抽取" in t and "导演随机抽取" in t for t in notices(outs, "director"))
    peek = [e for o in outs for e in o.of(Feedback) if e.skill == "窥月"]
    assert [(f.to, f.result) for f in peek] == [("子", "王对王")]


def test_the_gypsy_is_told_the_sheriffs_pick_not_her_own_redraw():
    g = game(["王对王", "魔法水晶球"])
    run(g, Moon("王对王"))
    to_day_one(g)
    outs = run(g, Act("辛", "决策", 1), CloseDay())
    assert [e.text for o in outs for e in o.of(Feedback) if e.to == "子"] == [
        "窥月：警长今晚选择的新月是【王对王】。你可以发送“占卜”重新抽取（限定，全局一次），关门后1小时内有效；不占卜请发送“放弃”。"]
    assert (starts(outs)["night1:占卜:子"].anchor, starts(outs)["night1:占卜:子"].minutes) == ("close", 60)
    outs = run(g, Act("子", "占卜"))
    assert notices(outs, "player:子") == ["已收到：占卜。新月已重新抽取，将在开门时公布。"]
    assert any("原为王对王" in t and "魔法水晶球" in t for t in notices(outs, "director"))


def test_the_night_waits_for_the_sheriffs_draw_while_the_gypsy_may_still_redraw():
    g = game(["王对王", "魔法水晶球"])
    to_day_one(g)
    run(g, CloseDay())
    assert ("辛", "决策") in R146.awaiting(g)
    run(g, Act("辛", "决策", 1))
    assert ("子", "占卜") in R146.awaiting(g) and ("辛", "决策") not in R146.awaiting(g)
    run(g, Act("子", "放弃"))
    assert ("子", "占卜") not in R146.awaiting(g)


# --- the 开门 announcement ---------------------------------------------------------------------------------
def test_day_one_is_announced_without_a_night_or_a_day_before_it():
    g = game()
    outs = run(g, Act("卯", "丘比特之箭", ["酉", "戌"]), OpenDay())
    assert "开门，第1天（警长竞选）\n当日警长：无\n当日执警：无" in notices(outs, "public")  # one heading, no day before it
    assert g.state.announcements == [{"phase": "day", "number": 1, "deaths": []}]


def test_the_day_opens_with_its_event_and_the_posts_words():
    g, outs = to_day_two("王对王")
    post = "\n".join(notices(outs, "public"))
    assert "今日大新月：【王对王】（有效期：从公布时间到下一个游戏日开始。）" in post
    assert "力争将对方PK下去" in post and "今天的“王”是 1号 甲、10号 癸" in post
    assert g.state.day.moon == "王对王"


# --- 猎人的愤怒 --------------------------------------------------------------------------------------------
def test_the_hunter_has_an_hour_after_the_day_opens_and_his_victims_words_come_out_the_same_day():
    g, outs = to_day_two("猎人的愤怒")
    limit = starts(outs)["猎人的愤怒:丑:day2"]
    assert (limit.anchor, limit.minutes, limit.who) == ("opened", 60, ("丑",))
    assert g.state.day.private_votes  # "必须通过QQ私聊给法官自己想要投票的对象与理由"
    run(g, Act("丑", "猎人的愤怒", "午"))
    outs = run(g, Act("午", "遗言", text="我是村民"))
    assert notices(outs, "player:午") == ["已收到遗言，当天公示。"]
    assert "午 的遗言：\n我是村民" in notices(outs, "public")
    outs = run(g, CloseDay(), OpenDay())
    assert not any("午 的遗言" in t for t in notices(outs, "public"))  # not a second time at the next 开门


def test_a_hunter_who_lets_his_hour_pass_is_carded_by_the_director_and_one_drawn_goes_out():
    g, _ = to_day_two("猎人的愤怒")
    outs = run(g, Timeout("猎人的愤怒:丑:day2"))
    assert any("规则记黄牌一张（请发送“发牌 黄牌 丑”）" in t for t in notices(outs, "director"))
    assert g.state.player("丑").cards["黄牌"] == 0  # the card is the director's to give
    gone = [d for d in g.state.deaths if d["cause"] == "猎人的愤怒"]
    assert len(gone) == 1 and gone[0]["name"] != "丑"
    assert g.state.day.vote_held is None
    assert run(g, Ballots("exile", (("甲", "午"),)))[0].ok


# --- 魔法水晶球, 招魂术 ------------------------------------------------------------------------------------
def test_the_crystal_ball_shows_nothing_the_morning_after_a_night_without_a_check():
    g, _ = to_day_two("魔法水晶球")
    run(g, CloseDay(), OpenDay())
    assert "crystal" not in g.state.announcements[-1]
    run(g, CloseDay(), Act("辛", "预言", "乙"))
    outs = run(g, OpenDay())
    assert g.state.announcements[-1]["crystal"] == "狼人"
    post = "\n".join(notices(outs, "public"))
    assert "魔法水晶球：预言家昨晚<预言>对象的身份是【狼人】。" in post and "乙" not in post  # the identity, not who holds it


def test_the_witch_of_the_seance_hears_no_attacks_and_is_told_her_new_skill():
    g, outs = to_day_two("招魂术")
    assert any("获得<灵媒>" in t for t in notices(outs, "player:庚"))
    outs = run(g, CloseDay(), Act("乙", "杀人", "午"), Act("甲", "放弃"))
    assert not [e for o in outs for e in o.of(Feedback) if e.skill == "通灵"]
    assert ("庚", "灵媒") in R146.awaiting(g)


# --- 神经错乱 ----------------------------------------------------------------------------------------------
def test_confusion_tells_each_wolf_and_the_seer_what_they_hold_tonight_and_ends_with_the_night():
    g, _ = to_day_two("神经错乱")
    outs = run(g, CloseDay())
    for wolf in PACK:
        assert any("你今晚失去<杀人>，获得<预言>" in t for t in notices(outs, f"player:{wolf}"))
    assert any("你今晚失去<预言>，获得<杀人>" in t for t in notices(outs, "player:辛"))
    assert not any("狼群可以<杀人>" in t for t in notices(outs, "team:狼群"))
    assert sorted(s for w, s in R146.awaiting(g) if w in PACK) == ["冲锋"] + ["预言"] * 6
    run(g, OpenDay(), CloseDay())
    assert ("狼群", "杀人") in R146.awaiting(g) and not any(s == "预言" and w in PACK for w, s in R146.awaiting(g))


# --- 狼王的生日 ----------------------------------------------------------------------------------------------
def test_the_birthday_asks_the_pack_for_an_hour_and_unstarted_changes_nothing():
    g, outs = to_day_two("狼王的生日")
    limit = starts(outs)["狼王的生日:day2"]
    assert (limit.anchor, limit.minutes, limit.who) == ("opened", 60, tuple(PACK))
    assert any("狼群可以在开门后1小时内决定是否启动" in t for t in notices(outs, "team:狼群"))
    outs = run(g, Timeout("狼王的生日:day2"))
    assert notices(outs, "team:狼群") == ["<狼王的生日>未在1小时内启动：什么也不发生。"]
    assert "published" not in g.state.moons[-1]
    assert not g.apply(Act("乙", "狼王的生日")).ok


def test_a_started_birthday_publishes_the_living_pack_and_ends_its_hour():
    g, _ = to_day_two("狼王的生日")
    run(g, Card("红牌", "己"))
    outs = run(g, Act("乙", "狼王的生日"))
    assert any(isinstance(e, DeadlineEnd) and e.key == "狼王的生日:day2" for o in outs for e in o.events)
    assert "狼王的生日：狼群启动了此新月。名单：1号 甲、2号 乙、3号 丙、4号 丁、5号 戊。" in notices(outs, "public")[0]


# --- 狼族首领 ------------------------------------------------------------------------------------------------
def test_the_leaders_mark_is_kept_from_the_thread():
    g, _ = to_day_two("狼族首领")
    run(g, Act("乙", "狼族首领", "丙"))
    outs = run(g, Ballots("exile", (("甲", "午"), ("乙", "午"), ("丁", "午"), ("午", "丙"), ("未", "丙"), ("申", "丙"), ("酉", "丙"))))
    public = notices(outs, "public")
    assert any(t.startswith("第2天放逐投票结果：\n3号 丙 4票、17号 午 3票\n结果：17号 午\n") for t in public)
    assert not any("暗记" in t or "统领" in t for t in public)
    assert any("实际计数（含暗记）：17号 午 3票、3号 丙 2票\n暗记：3号 丙 <统领>减少两票" in t for t in notices(outs, "director"))
    assert g.state.tallies[-1]["counts"] == {"午": 3, "丙": 2}


def test_a_leader_out_at_night_holds_the_settlement_for_his_revenge():
    g, _ = to_day_two("狼族首领")
    run(g, Act("乙", "狼族首领", "丙"), CloseDay())
    run(g, Act("庚", "毒药", "丙"))
    while R146.awaiting(g):
        who, slot = R146.awaiting(g)[0]
        run(g, Act(who if who != "狼群" else "乙", "杀人" if who == "狼群" else "放弃", "午" if who == "狼群" else None))
    run(g, ResolveNight())
    asked = [p for p in g.state.pending if p.skill == "报复"]
    assert len(asked) == 1 and asked[0].who == "丙" and asked[0].holds_night


# --- 神秘的UFO, 试验鸳鸯 -----------------------------------------------------------------------------------------
def test_the_three_under_the_ufo_are_asked_by_closing_and_the_one_taken_has_no_last_words():
    g = game(["神秘的UFO"])
    run(g, Moon("神秘的UFO", "午"))
    to_day_one(g)
    outs = run(g, Act("辛", "决策", 1), CloseDay(), OpenDay())
    for name in ("午", "未", "申"):
        assert (starts(outs)[f"数字:{name}:day2"].anchor, starts(outs)[f"数字:{name}:day2"].minutes) == ("close", 0)
    outs = run(g, CloseDay())
    assert [d["name"] for d in g.state.deaths] == ["午"]
    # "出局的玩家将没有遗言，也不占用遗言次数": he is told he is out, and offered nothing
    assert "午" not in g.state.last_words and notices(outs, "player:午") == ["你已出局（神秘的UFO），没有遗言。"]
    assert sum(1 for t in notices(outs, "director") if "未在关门前提交数字，自动为0" in t) == 3


def test_the_trial_lovers_are_told_nothing_and_the_stand_in_is_public():
    g, _ = to_day_two("试验鸳鸯")
    outs = run(g, Act("寅", "试验鸳鸯", ["午", "申"]))
    assert not notices(outs, "player:午") and not notices(outs, "player:申") and not notices(outs, "public")
    outs = run(g, Ballots("exile", (("甲", "午"), ("乙", "午"))))
    assert "试验鸳鸯生效：19号 申 代替 17号 午 出局" in notices(outs, "public")
    assert "放逐投票：19号 申（试验鸳鸯） 出局" in notices(outs, "public")


def test_an_idiot_who_lets_his_hour_pass_is_carded_by_the_director():
    g, outs = to_day_two("试验鸳鸯")
    assert (starts(outs)["试验鸳鸯:寅:day2"].anchor, starts(outs)["试验鸳鸯:寅:day2"].minutes) == ("opened", 60)
    outs = run(g, Timeout("试验鸳鸯:寅:day2"))
    assert any("规则记黄牌一张（请发送“发牌 黄牌 寅”）" in t and "试验品情侣不产生" in t for t in notices(outs, "director"))
    assert "trial" not in moons.held(g)


# --- 信用担保, 文明的狼人 -------------------------------------------------------------------------------------------
def test_guarantees_are_public_and_each_guarantor_is_asked_in_turn():
    g, outs = to_day_two("信用担保")
    assert any("轮到你担保" in t for t in notices(outs, "player:辛"))
    outs = run(g, Act("辛", "担保", "甲"))
    assert "信用担保：8号 辛 担保 1号 甲" in notices(outs, "public")
    assert any("轮到你担保" in t for t in notices(outs, "player:甲"))
    outs = run(g, Act("甲", "担保", "甲"))  # "如果投票对象错误，由导演随机指定对象完成投票"
    assert any("担保对象错误，由导演随机指定" in t for t in notices(outs, "public"))


def test_with_fewer_than_five_alive_the_guarantee_does_nothing():
    g = game(["信用担保"])
    to_day_one(g)
    for name in ("乙", "丙", "丁", "戊", "己", "庚", "壬", "子", "丑", "寅", "卯", "辰", "巳", "未", "申", "酉", "戌", "亥"):
        run(g, Card("红牌", name))
    assert [p.name for p in g.state.alive()] == ["甲", "辛", "癸", "午"]
    outs = run(g, Act("辛", "决策", 1), CloseDay(), OpenDay())
    assert "信用担保：存活角色少于5人（4人），什么也不发生。" in notices(outs, "public")
    assert run(g, Ballots("exile", (("辛", "甲"),)))[0].ok  # the day's ordinary vote


def test_the_civilised_wolves_hear_of_the_nights_victims_in_their_group_once():
    g, _ = to_day_two("文明的狼人")
    outs = run(g, CloseDay(), Act("乙", "杀人", "庚"), OpenDay())
    assert notices(outs, "team:狼群")[-1] == "文明的狼人：7号 庚 的身份是【女巫】。"
    assert len([f for f in g.state.feedback if f["skill"] == "文明的狼人"]) == 6


def test_the_transcript_lists_the_announced_events():
    path = Path(__file__).resolve().parent / "scenarios" / "146-moon-gypsy.yaml"
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                          encoding="utf-8", cwd=path.parents[2])
    assert [m["event"] for m in json.loads(proc.stdout)["moons"]] == ["王对王", "神经错乱", "魔法水晶球"]


def test_a_stand_in_at_night_is_published_at_the_next_dawn_not_before():
    g, _ = to_day_two("试验鸳鸯")
    run(g, Act("寅", "试验鸳鸯", ["午", "申"]), CloseDay())
    outs = run(g, Act("乙", "杀人", "午"), Act("甲", "放弃"), Act("庚", "放弃"), Act("辛", "放弃"), Act("壬", "放弃"), ResolveNight())
    assert not [t for t in notices(outs, "public") if "试验鸳鸯" in t]  # "夜晚期间需要公示的内容全部在下一个白天开始时公布"
    assert "试验鸳鸯生效：19号 申 代替 17号 午 出局（开门时公示）" in notices(outs, "director")
    outs = run(g, OpenDay())
    assert any("昨晚出局：19号 申" in t and "试验鸳鸯生效：19号 申 代替 17号 午 出局" in t for t in notices(outs, "public"))


# --- private votes, and breaking an event's rule ------------------------------------------------------
def test_private_ballots_come_after_the_hunters_shot_may_change_and_are_counted_at_closing():
    g, _ = to_day_two("猎人的愤怒")
    assert g.apply(Act("甲", "投票", "午", text="他很可疑")).error == "猎人的愤怒：猎人开枪之后才进入投票阶段"
    run(g, Act("丑", "猎人的愤怒", "戊"))
    assert g.apply(Act("甲", "投票", "午")).error == "请附上投票理由：发送“投票 角色 理由”"
    assert "已出局" in g.apply(Act("甲", "投票", "戊", text="x")).error
    outs = run(g, Act("甲", "投票", "午", text="他很可疑"), Act("乙", "投票", "午", text="跟票"), Act("辛", "投票", "甲", text="狼王"))
    assert notices(outs, "player:甲") == ["已收到：投票 17号 午（理由：他很可疑）。关门前可以改票：重新发送即可。"]
    outs = run(g, Act("甲", "投票", "弃权", text="想想"))
    assert notices(outs, "player:甲") == ["已改为：投票 弃权（理由：想想）。关门前可以改票：重新发送即可。"]
    outs = run(g, CloseDay())
    assert g.state.tallies[-1] == {"phase": "day", "number": 2, "kind": "exile", "counts": {"午": 1, "甲": 2.5}, "result": "甲"}
    summary = next(t for t in notices(outs, "public") if "私聊投票汇总" in t)
    assert summary == "第2天私聊投票汇总：\n2号 乙 → 17号 午：跟票\n8号 辛 → 1号 甲：狼王\n1号 甲 → 弃权：想想"


def test_a_private_ballot_on_an_ordinary_day_is_refused():
    g, _ = to_day_two("王对王")
    assert g.apply(Act("甲", "投票", "癸", text="王对王")).error == "今天不是私聊投票日：请在投票帖投票"


def test_a_ballot_posted_in_the_thread_on_a_private_day_is_void_and_the_bot_gives_the_card():
    g, _ = to_day_two("猎人的愤怒")
    run(g, Act("丑", "猎人的愤怒", "戊"), Act("甲", "投票", "午", text="x"))
    outs = run(g, Breach("甲"))
    assert notices(outs, "player:甲") == ["你在投票帖回帖投票：今天须私聊导演投票，你今天的投票作废。",
                                        "导演判罚：你获得一张黄牌（在投票帖回帖投票者算作废票，并记作一张黄牌）。"]
    assert g.state.player("甲").cards["黄牌"] == 1  # "并记作一张黄牌": the bot gives it
    assert any("已记黄牌一张" in t for t in notices(outs, "director"))
    assert g.state.day.private_ballots == {}
    assert "作废" in g.apply(Act("甲", "投票", "午", text="再投")).error


def test_breaking_a_small_events_rule_is_the_directors_card_or_a_void_ballot():
    g = game(["无我无狼", "英语考试"])
    to_day_one(g)
    run(g, CloseDay(), OpenDay())
    assert "没有可以违反的新月规则" in g.apply(Breach("乙")).error  # day 2 has no event
    run(g, Ballots("exile", (("甲", "亥"),)), Moon("无我无狼"), Act("午", "辅策", 1), CloseDay(), OpenDay())
    assert g.state.day.moon == "无我无狼"
    outs = run(g, Breach("乙"))
    assert notices(outs, "player:乙") == ["你在讨论中使用了“我”或“狼”（无我无狼）：你今天的投票无效。"]
    run(g, Ballots("exile", (("乙", "申"), ("丙", "申"))))
    assert g.state.tallies[-1]["counts"] == {"申": 1}


def test_breaking_the_english_exam_doubles_the_time_then_costs_a_blue_card():
    g = game(["英语考试"])
    run(g, Moon("英语考试"))
    to_day_one(g)
    run(g, CloseDay(), OpenDay(), Ballots("exile", (("甲", "亥"),)), Act("午", "辅策", 1), CloseDay(), OpenDay())
    first, second = run(g, Breach("乙"), Breach("乙"))
    assert "初次违反英语考试：规则令其时间翻倍至12小时（开门后12小时内）" in first.events[0].text
    assert "再次违反英语考试：规则处蓝牌一张（请发送“发牌 蓝牌 乙”）且禁言直至12小时结束" in second.events[0].text
    # "（加速则为6小时）": once sped up, the doubled time is six hours
    run(g, SpeedUp(forced=True))
    (third,) = run(g, Breach("丙"))
    assert "初次违反英语考试：规则令其时间翻倍至6小时（开门后6小时内）" in third.events[0].text


def test_help_lists_what_an_event_lets_a_player_send_today():
    g, _ = to_day_two("狼王的生日")
    assert R146.day_options(g, "乙") == ["狼群可以启动<狼王的生日>：发送“狼王的生日”（开门后1小时内）"]
    assert R146.day_options(g, "午") == []
    g, _ = to_day_two("信用担保")
    assert R146.day_options(g, "辛") == ["轮到你担保：发送“担保 座位号”"]
    g, _ = to_day_two("猎人的愤怒")
    run(g, Act("丑", "猎人的愤怒", "戊"))
    assert R146.day_options(g, "甲") == ["私聊投票：发送“投票 角色 理由”（关门前可以改票）"]


def test_the_events_in_play_may_be_set_before_the_first_day_only():
    g = Game(R146, ROSTER)
    run(g, Configure("moons", ["王对王"]))
    assert g.state.options["moons"] == ["王对王"]
    assert "假面舞会" in g.apply(Configure("moons", ["假面舞会"])).error
    run(g, Configure("moons", "none"), Act("卯", "丘比特之箭", ["酉", "戌"]), OpenDay())
    assert g.state.options["moons"] == []
    assert g.apply(Configure("moons", "none")).error == "第一个白天或夜晚开始后不能再改设置"
    m131 = [("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "感染白痴"), ("戊", "预言家"), ("己", "女巫"), ("庚", "乌鸦"),
            ("辛", "锈盾守卫"), ("壬", "混血儿"), ("癸", "村民"), ("子", "村民"), ("丑", "村民"), ("寅", "村民")]
    assert "没有这些设置：moons" in Game(get("M131"), m131).apply(Configure("moons", "none")).error


def test_the_day_after_the_birthday_the_count_names_the_ransoms_extra_vote():
    """绑票<强制>: "该角色的投票多计一票" — the thread is told why the ballot weighs two, as it is told the
    sheriff's 2.5."""
    g, _ = to_day_two("狼王的生日")
    run(g, Act("乙", "狼王的生日"), CloseDay(lapse=True))
    while R146.awaiting(g):
        who, _ = R146.awaiting(g)[0]
        run(g, Act(who, "放弃"))
    run(g, OpenDay(lapse=True))
    outs = run(g, Ballots("exile", (("乙", "辛"), ("辛", "乙"), ("午", "乙"))))
    text = notices(outs, "public")[0]
    assert text.startswith("第3天放逐投票结果：\n2号 乙 3.5票、8号 辛 2票\n结果：2号 乙\n票型：\n2号 乙 → 8号 辛（2票）\n"
                           "8号 辛 → 2号 乙（2.5票）\n17号 午 → 2号 乙\n")
    assert text.endswith("\n计票说明：警长 8号 辛 的票计为2.5票；2号 乙 <绑票>：投票多计一票")


def test_sisters_whose_private_ballots_differ_are_told_before_closing_and_the_summary_marks_no_pair():
    """<默契>: "两姐妹不能弃票，且必须投票给同一名角色" (辰 and 巳). Told privately the moment their ballots differ,
    they may still change; left as they are, both are void in the count, listed as any void ballot, and
    the 私聊投票汇总 ("汇总所有玩家的投票及理由") gives every ballot with its reason and no mark that
    would show the thread the pair."""
    g, _ = to_day_two("猎人的愤怒")
    run(g, Act("丑", "猎人的愤怒", "戊"))
    outs = run(g, Act("辰", "投票", "午", text="跟票"))
    assert notices(outs, "player:巳") == []  # nothing differs yet
    outs = run(g, Act("巳", "投票", "甲", text="狼王"))
    warned = "注意：两姐妹<默契>：必须投票给同一名角色，两票不同，均无效。关门时仍是如此，这张票就不计入（公示的计票只列为无效票，不写原因）；关门前改票即可。"
    assert notices(outs, "player:辰") == [warned]
    assert notices(outs, "player:巳")[-1] == warned
    outs = run(g, Act("乙", "投票", "午", text="跟票"), CloseDay())
    summary = next(t for t in notices(outs, "public") if "私聊投票汇总" in t)
    assert summary == "第2天私聊投票汇总：\n15号 辰 → 17号 午：跟票\n16号 巳 → 1号 甲：狼王\n2号 乙 → 17号 午：跟票"
    count = next(t for t in notices(outs, "public") if "放逐投票结果" in t)
    assert "无效票：15号 辰、16号 巳\n" in count + "\n" and "默契" not in count


def test_on_a_private_vote_day_the_reminder_points_to_the_director_and_skips_who_has_voted():
    """"并在投票结束前一个半至两个小时之间提醒玩家投票": two hours before 关门; on a day the ballots go to the
    director privately, whoever has sent his is not reminded, and the rest are told how to send one."""
    g, outs = to_day_two("猎人的愤怒")
    assert starts(outs)["提醒投票:day2"].anchor == "close" and starts(outs)["提醒投票:day2"].minutes == -120
    run(g, Act("丑", "猎人的愤怒", "戊"), Act("甲", "投票", "午", text="他很可疑"))
    outs = run(g, Timeout("提醒投票:day2"))
    reminded = {a.removeprefix("player:") for a, _ in ((n.audience, n.text) for n in outs[0].events
                                                       if getattr(n, "audience", "").startswith("player:"))}
    assert "甲" not in reminded and "戊" not in reminded and "乙" in reminded
    assert notices(outs, "player:乙") == ["提醒投票：今天的放逐投票在关门时截止（约2小时后），请私聊我投票：发送“投票 角色 理由”。"]
