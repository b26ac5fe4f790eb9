"""146 创造营2021: what the scenario checker cannot express — groups, who is told what and when, time
limits, a night settlement held while the hunter decides — and the engine's day-scoped limits an event
will use, checked on the engine's own events."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from engine import Act, Ballots, Card, CloseDay, Game, OpenDay, ResolveNight, SpeedUp, Timeout, check, deal
from engine.events import DeadlineStart, Feedback, Notice, TeamChange
from rulesets import get

R146 = get("146")
ROSTER = [
    ("甲", "狼王"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "狼人"), ("戊", "狼人"), ("己", "狼人"),
    ("庚", "女巫"), ("辛", "预言家"), ("壬", "医生"), ("癸", "长老"), ("子", "吉普赛人"), ("丑", "猎人"),
    ("寅", "白痴"), ("卯", "丘比特"), ("辰", "两姐妹"), ("巳", "两姐妹"), ("午", "村民"), ("未", "村民"),
    ("申", "村民"), ("酉", "村民"), ("戌", "村民"), ("亥", "村民"),
]
NAMES = [n for n, _ in ROSTER]


def new_game(seed: int = 0) -> Game:
    """A game without new moons: the rules of 2L–5L alone (the events: tests/test_r146_moons.py)."""
    return Game(R146, ROSTER, seed=seed, options={"moons": "none"})


def run(g: Game, *cmds):
    outs = [g.apply(c) for c in cmds]
    for c, o in zip(cmds, outs):
        assert o.ok, (c, o.error)
    return outs


def events(outs, kind) -> list:
    return [e for o in outs for e in o.of(kind)]


def notices(outs, audience: str) -> list[str]:
    return [e.text for e in events(outs, Notice) if e.audience == audience]


def teams(outs) -> dict[str, tuple[str, ...]]:
    return {e.team: e.members for e in events(outs, TeamChange)}


def started(lovers=("午", "未")) -> Game:
    """Day 1 after the election: 辛 is sheriff with 子 as deputy."""
    g = new_game()
    run(g, Act("卯", "丘比特之箭", list(lovers)), OpenDay(),
        Ballots("election", tuple((n, "辛") for n in NAMES)), Act("辛", "任命", "子"))
    return g


def quiet_night(g: Game, **acts):
    """Close the day; every night slot passes except the actions given (slot name -> (by, target))."""
    run(g, CloseDay())
    for skill, (by, target) in acts.items():
        run(g, Act(by, skill, target))


# --- line-up and groups ------------------------------------------------------------------------------
def test_the_post_line_up_is_22_and_a_dealt_game_follows_it():
    check(R146, ROSTER)
    assert R146.size == 22
    dealt = deal(R146, NAMES, seed=5)
    assert Counter(r for _, r in dealt) == Counter(r for _, r in ROSTER)


def test_the_game_opens_on_day_one_with_the_election_only():
    g = new_game()
    assert not g.apply(CloseDay()).ok  # "3、开始第一天讨论日" comes before the first night
    run(g, Act("卯", "丘比特之箭", ["午", "未"]), OpenDay())
    assert g.state.day.votes == frozenset({"election"})
    assert not g.apply(Ballots("exile", (("甲", "乙"),))).ok


@pytest.mark.parametrize("lovers, expect", [
    # two villagers: "情侣共群", the single cupid outside it; the sisters keep theirs
    (("午", "未"), {"狼群": ("甲", "乙", "丙", "丁", "戊", "己"), "情侣群": ("午", "未"), "姐妹群": ("辰", "巳")}),
    # a wolf and a villager elope: "黑情侣中的狼和狼人不共群"
    (("乙", "午"), {"狼群": ("甲", "丙", "丁", "戊", "己"), "情侣群": ("乙", "午"), "姐妹群": ("辰", "巳")}),
    # two wolves: "情侣在成为情侣后互知共群（双狼情侣除外）"
    (("乙", "丙"), {"狼群": ("甲", "乙", "丙", "丁", "戊", "己"), "姐妹群": ("辰", "巳")}),
    # a sister in love: "两姐妹不互知也不共群"
    (("辰", "午"), {"狼群": ("甲", "乙", "丙", "丁", "戊", "己"), "情侣群": ("辰", "午")}),
])
def test_groups_are_formed_when_the_game_starts(lovers, expect):
    g = new_game()
    outs = run(g, Act("卯", "丘比特之箭", list(lovers)), OpenDay())
    assert teams(outs) == expect


def test_lovers_learn_each_other_and_the_wolves_learn_nothing_of_them():
    g = new_game()
    outs = run(g, Act("卯", "丘比特之箭", ["乙", "午"]), OpenDay())
    assert any("17号 午" in t for t in notices(outs, "player:乙"))
    assert any("2号 乙" in t for t in notices(outs, "player:午"))
    assert not any("午" in t or "情侣" in t for t in notices(outs, "team:狼群"))
    assert g.state.player("卯").faction == "黑情侣阵营"  # "丘比特的阵营转变为与情侣相同的阵营"
    assert not any(n.audience == "public" and "情侣" in n.text for n in events(outs, Notice))


def test_a_cupid_who_never_chose_gets_two_lovers_from_the_seed():
    chosen = []
    for seed in range(6):
        g = new_game(seed)
        outs = run(g, OpenDay())
        chosen.append(tuple(g.state.carry["lovers"]))
        assert any("强制" in t for t in notices(outs, "player:卯"))
    assert len(set(chosen)) > 1  # drawn, not fixed


def test_the_arrow_takes_two_different_players_and_only_at_the_start():
    g = new_game()
    assert "两名不同" in g.apply(Act("卯", "丘比特之箭", ["午", "午"])).error
    assert "两名角色" in g.apply(Act("卯", "丘比特之箭", "午")).error
    assert "没有<丘比特之箭>" in g.apply(Act("午", "丘比特之箭", ["午", "未"])).error
    run(g, Act("卯", "丘比特之箭", ["午", "未"]))
    assert "已经发动过" in g.apply(Act("卯", "丘比特之箭", ["申", "未"])).error


# --- the night -------------------------------------------------------------------------------------
def test_night_limits_one_hour_after_close_and_the_witch_thirty_minutes_after_her_feedback():
    g = started()
    outs = run(g, CloseDay())
    starts = {e.what: (e.anchor, e.minutes) for e in events(outs, DeadlineStart)}
    assert starts == {"救治": ("close", 60), "杀人": ("close", 60), "冲锋": ("close", 60), "预言": ("close", 60)}
    outs = run(g, Act("乙", "杀人", "午"), Act("甲", "冲锋", "申"))
    feedback = events(outs, Feedback)
    assert [(f.to, f.result) for f in feedback] == [("庚", ["午", "申"])]
    assert [(e.what, e.anchor, e.minutes) for e in events(outs, DeadlineStart)] == [("女巫", "now", 30)]


def test_the_black_lovers_kill_only_after_the_wolves_have_lost():
    g = started(lovers=("乙", "午"))
    run(g, CloseDay())
    assert "寡妇刀" in g.apply(Act("乙", "杀人", "申")).error  # "它失去<杀人>技能"
    for wolf in ("甲", "丙", "丁", "戊", "己"):
        run(g, Act(wolf, "投降"))
    assert g.state.lost == ["狼人阵营"]
    assert g.apply(Act("丙", "杀人", "申")).error == "狼人阵营已经判负，失去了<杀人>"
    # "从下一个夜晚起": tonight's 通灵 may already be out
    assert "下一个夜晚起" in g.apply(Act("午", "杀人", "申")).error
    run(g, OpenDay(), CloseDay())
    outs = run(g, Act("午", "杀人", "申"))
    assert any("提交了今晚的指杀" in t for t in notices(outs, "team:情侣群"))


def test_a_hunter_killed_at_night_shoots_at_once_and_his_victim_follows_him():
    g = started()
    quiet_night(g, 杀人=("乙", "丑"), 毒药=("庚", "戌"))
    for who in ("壬", "甲", "辛"):
        run(g, Act(who, "放弃"))
    outs = run(g, ResolveNight())
    # the settlement holds at the hunter: the poison waits for his shot
    assert [d["name"] for d in g.state.deaths] == ["丑"]
    asked = [e for e in events(outs, DeadlineStart) if e.what == "最后一枪"]
    assert [(e.anchor, e.minutes) for e in asked] == [("now", 30)]
    assert not g.apply(Act("甲", "冲锋", "亥")).ok  # the night's actions are closed
    run(g, Act("丑", "最后一枪", "亥"))
    assert [d["name"] for d in g.state.deaths] == ["丑", "亥", "戌"]
    outs = run(g, OpenDay())
    assert g.state.announcements[-1]["deaths"] == ["丑", "亥", "戌"]


def test_a_hunter_who_lets_his_time_pass_releases_the_settlement():
    g = started()
    quiet_night(g, 杀人=("乙", "丑"), 毒药=("庚", "戌"))
    for who in ("壬", "甲", "辛"):
        run(g, Act(who, "放弃"))
    outs = run(g, ResolveNight())
    key = next(e.key for e in events(outs, DeadlineStart) if e.what == "最后一枪")
    run(g, Timeout(key))
    assert [d["name"] for d in g.state.deaths] == ["丑", "戌"]


def test_the_hunter_sheriff_shoots_then_hands_over():
    # "猎人警长并非因红牌罚下而出局后，依次发动<最后一枪>、<殉职>。"
    g = new_game()
    run(g, Act("卯", "丘比特之箭", ["午", "未"]), OpenDay(),
        Ballots("election", tuple((n, "丑") for n in NAMES)), Act("丑", "任命", "子"), CloseDay(), OpenDay())
    outs = run(g, Ballots("exile", tuple((n, "丑") for n in NAMES if n != "丑")))
    assert [p.skill for p in g.state.pending] == ["最后一枪"]
    assert [(e.what, e.anchor, e.minutes) for e in events(outs, DeadlineStart) if e.what == "最后一枪"] == [("最后一枪", "close", 30)]
    assert "不能发动<殉职>" in g.apply(Act("丑", "殉职", "辛")).error  # the shot comes first
    run(g, Act("丑", "最后一枪", "亥"))
    assert [p.skill for p in g.state.pending] == ["殉职"]
    assert "强制" in g.apply(Act("丑", "殉职", None)).error
    run(g, Act("丑", "殉职", "辛"))
    # "警长或执警其中任意一个出局，警长需要重新任命一个执警"
    assert [(p.who, p.skill) for p in g.state.pending] == [("辛", "任命")]
    assert "不能任命自己" in g.apply(Act("辛", "任命", "辛")).error


def test_a_sheriff_who_misses_the_hand_over_passes_the_badge_at_random_never_to_the_fooled_idiot():
    heirs = set()
    for seed in range(8):
        g = new_game(seed)
        run(g, Act("卯", "丘比特之箭", ["午", "未"]), OpenDay(),
            Ballots("election", tuple((n, "辛") for n in NAMES)), Act("辛", "任命", "子"), CloseDay(), OpenDay())
        run(g, Ballots("exile", tuple((n, "寅") for n in NAMES)), Act("寅", "装傻"))
        run(g, CloseDay(), OpenDay())
        run(g, Ballots("exile", tuple((n, "辛") for n in NAMES if n != "寅")))
        key = next(p.key for p in g.state.pending if p.skill == "殉职")
        run(g, Timeout(key))
        heirs.add(g.state.sheriff)
        assert g.state.sheriff != "寅" and g.state.player(g.state.sheriff).alive
    assert len(heirs) > 1


# --- the day ---------------------------------------------------------------------------------------------
def test_the_idiot_stays_and_is_then_out_of_every_vote():
    g = started()
    run(g, CloseDay(), OpenDay())
    outs = run(g, Ballots("exile", tuple((n, "寅") for n in NAMES)))
    assert g.state.player("寅").alive and [p.skill for p in g.state.pending] == ["装傻"]
    assert [(e.anchor, e.minutes) for e in events(outs, DeadlineStart) if e.what == "装傻"] == [("close", 30)]
    outs = run(g, Act("寅", "装傻"))
    assert any("装傻" in t for t in notices(outs, "public"))
    run(g, CloseDay(), OpenDay())
    outs = run(g, Ballots("exile", (("寅", "甲"), ("乙", "寅"), ("丙", "甲"))))
    assert g.state.tallies[-1]["counts"] == {"甲": 1}
    assert len(outs[0].warnings) == 2


def test_an_idiot_who_lets_the_limit_pass_goes_out_by_the_vote_of_his_day():
    g = started()
    run(g, CloseDay(), OpenDay(), Ballots("exile", tuple((n, "寅") for n in NAMES)))
    key = g.state.pending[0].key
    run(g, CloseDay(), Timeout(key))
    assert g.state.deaths[-1] == {"name": "寅", "phase": "day", "number": 2, "cause": "投票"}
    outs = run(g, OpenDay())
    assert any("前一天投票出局：13号 寅" in t for t in notices(outs, "public"))


def test_the_sisters_vote_as_one():
    g = started()
    run(g, CloseDay(), OpenDay())
    outs = run(g, Ballots("exile", (("辰", "甲"), ("巳", "乙"), ("午", "甲"))))
    assert g.state.tallies[-1]["counts"] == {"甲": 1}
    assert all("默契" in w for w in outs[0].warnings)


def test_a_tie_sends_out_whom_the_sheriff_voted_for_and_nobody_without_his_vote():
    # "平票时警长投票的角色出局，警长未投票则无人出局。" — his candidate need not be among the tied.
    g = started()
    run(g, CloseDay(), OpenDay())
    run(g, Ballots("exile", (("辛", "丙"), ("甲", "乙"), ("乙", "甲"), ("丁", "乙"), ("戊", "甲"), ("己", "乙"), ("午", "甲"))))
    assert g.state.tallies[-1] == {"phase": "day", "number": 2, "kind": "exile",
                                   "counts": {"丙": 2.5, "乙": 3, "甲": 3}, "result": "丙"}
    assert [n for n in NAMES if not g.state.player(n).alive] == ["丙"]
    run(g, CloseDay(), OpenDay())
    run(g, Ballots("exile", (("辛", "弃权"), ("甲", "乙"), ("乙", "甲"))))  # abstained: nobody
    assert g.state.tallies[-1]["result"] is None
    run(g, CloseDay(), OpenDay())
    run(g, Ballots("exile", (("甲", "乙"), ("乙", "甲"))))  # did not vote: nobody
    assert g.state.tallies[-1]["result"] is None
    assert [n for n in NAMES if not g.state.player(n).alive] == ["丙"]


# --- the shape an event uses: limits and skills for one day ------------------------------------------------
def test_a_day_can_bar_voters_and_targets_and_narrow_whom_a_voter_may_name():
    g = started()
    run(g, CloseDay(), OpenDay())
    day = g.state.day
    # as 王对王 would: the two kings vote for each other, everyone else for a king
    day.only_for = {"甲": frozenset({"癸"}), "癸": frozenset({"甲"}), "*": frozenset({"甲", "癸"})}
    day.may_not_vote["午"] = "事件"
    outs = run(g, Ballots("exile", (("甲", "乙"), ("癸", "甲"), ("乙", "癸"), ("丙", "午"), ("午", "甲"))))
    assert g.state.tallies[-1]["counts"] == {"甲": 1, "癸": 1}
    assert len(outs[0].warnings) == 3


def test_a_day_can_hold_a_second_exile_vote():
    g = started()
    run(g, CloseDay(), OpenDay())
    g.state.day.rounds["exile"] = 2  # as 不满情绪 would
    run(g, Ballots("exile", (("甲", "午"),)), Ballots("exile", (("甲", "未"),)))
    assert [d["name"] for d in g.state.deaths] == ["午", "未"]
    assert "已经统计过" in g.apply(Ballots("exile", (("甲", "申"),))).error


def test_a_skill_can_be_given_or_taken_for_one_night_only():
    g = started()
    run(g, CloseDay())
    g.night.suspended["辛"] = {"预言"}
    g.night.granted["午"] = {"预言"}  # as 神经错乱 would
    assert "今晚失去了<预言>" in g.apply(Act("辛", "预言", "甲")).error
    outs = run(g, Act("午", "预言", "甲"))
    assert [f.result for f in events(outs, Feedback)] == ["狼王"]  # a <预言> 神经错乱 gives: "获得具体身份结果"
    run(g, OpenDay(), CloseDay())
    assert g.apply(Act("午", "预言", "乙")).error == "午 的身份没有<预言>"
    assert g.apply(Act("辛", "预言", "乙")).ok


# --- cards ------------------------------------------------------------------------------------------------
def test_a_red_carded_sheriff_passes_the_badge_at_random_and_the_lover_follows():
    g = started(lovers=("辛", "午"))
    outs = run(g, Card("红牌", "辛"))
    assert [(d["name"], d["cause"]) for d in g.state.deaths] == [("辛", "红牌"), ("午", "殉情")]
    assert g.state.sheriff not in (None, "辛", "午")
    assert "辛" not in g.state.last_words  # "红牌罚下出局的角色没有遗言权利"
    assert g.state.lost == []  # "导演有权视情况决定是否直接使该玩家所在的阵营判负" — never by itself
    assert [(p.who, p.skill) for p in g.state.pending] == [(g.state.sheriff, "任命")]
    assert any("随机移交" in t for t in notices(outs, "public"))
    assert any("红牌罚下：8号 辛、17号 午（殉情） 出局" in t for t in notices(outs, "public"))


def test_weights_are_exact():
    assert R146.sheriff_weight == Fraction(5, 2)


# --- questions that meet: the idiot sheriff, 放弃, red cards, surrender -------------------------------------
def idiot_sheriff_voted_out() -> Game:
    g = new_game(seed=3)
    run(g, Act("卯", "丘比特之箭", ["午", "未"]), OpenDay(),
        Ballots("election", tuple((n, "寅") for n in NAMES)), Act("寅", "任命", "子"), CloseDay(), OpenDay(),
        Ballots("exile", tuple((n, "寅") for n in NAMES)))
    return g


def test_an_idiot_sheriff_who_lets_his_time_pass_goes_out_and_the_badge_moves_at_once():
    # "猎人、警长、白痴被投票出局，关门三十分钟后仍未与导演取得联系，白痴、猎人视为放弃发动技能，警长随机移交"
    g = idiot_sheriff_voted_out()
    run(g, CloseDay(), Timeout(g.pending_for("寅", "装傻").key))
    assert not g.state.player("寅").alive
    assert g.state.sheriff not in (None, "寅") and g.state.player(g.state.sheriff).alive
    assert not g.pending_for("寅", "殉职")


def test_a_red_carded_idiot_who_still_owes_the_hand_over_leaves_the_badge_to_chance():
    # "红牌罚下出局的角色……不能发动……警长<殉职>……红牌罚下的警长警徽随机移交。"
    g = idiot_sheriff_voted_out()
    run(g, Act("寅", "装傻"))
    assert g.pending_for("寅", "殉职")
    run(g, Card("红牌", "寅"))
    assert not g.pending_for("寅", "殉职")
    assert g.state.sheriff not in (None, "寅") and g.state.player(g.state.sheriff).alive
    assert not g.apply(Act("寅", "殉职", "甲")).ok


def test_declining_a_shot_keeps_the_last_words():
    g = started()
    run(g, CloseDay(), OpenDay(), Ballots("exile", tuple((n, "丑") for n in NAMES if n != "丑")))
    run(g, Act("丑", "放弃"))
    assert not g.pending_for("丑", "最后一枪")
    run(g, Act("丑", "遗言", text="我是猎人"))  # "在次日游戏日开始前" is still his to use
    assert g.state.last_words["丑"] == "我是猎人"


def test_a_hunter_may_name_one_gone_out_tonight_and_learns_nothing():
    # "已经公示的出局角色……不允许被选为技能或投票的目标": one not yet announced may be named; the shot is spent
    g = started()
    run(g, CloseDay(), Act("壬", "救治", "午"), OpenDay(), CloseDay())
    run(g, Act("壬", "救治", "午"), Act("乙", "杀人", "丑"), Act("甲", "放弃"), Act("庚", "放弃"), Act("辛", "放弃"))
    run(g, ResolveNight())
    assert not g.state.player("午").alive  # the second empty heal, before the hunter in (8)
    outs = run(g, Act("丑", "最后一枪", "午"))
    assert not any("出局" in t for t in notices(outs, "player:丑"))
    assert [d["name"] for d in g.state.deaths] == ["午", "未", "丑"]  # 未 follows his lover


def test_a_single_cupid_who_proposes_a_surrender_is_not_named():
    g = new_game()
    run(g, Act("卯", "丘比特之箭", ["乙", "午"]), OpenDay())
    outs = run(g, Act("卯", "投降"))
    told = notices(outs, "player:乙") + notices(outs, "player:午")
    assert told and not any("卯" in t for t in told)


def test_those_asked_learn_how_a_surrender_stands_and_that_it_took_effect():
    g = new_game()
    run(g, Act("卯", "丘比特之箭", ["乙", "午"]), OpenDay())
    outs = run(g, Act("乙", "投降"))
    assert notices(outs, "player:午") == ["乙 提议黑情侣阵营投降（已同意 1/2）：发送“投降”同意，发送“投降 拒绝”拒绝"]
    outs = run(g, Act("午", "投降"))
    assert notices(outs, "player:乙") == ["黑情侣阵营全员同意投降，投降有效：黑情侣阵营判负。"]
    assert not notices(outs, "player:卯") and not notices(outs, "public")  # "不公示"


# --- a red card the day of the vote ----------------------------------------------------------------------
def test_a_red_card_after_the_vote_frees_the_last_words_it_held_for_the_next_out():
    # "遗言数量等于狼人的数量，靠前出局且可以留下遗言的角色会收到可以留下遗言的通知"; "红牌罚下出局的角色没有遗言权利"
    g = started(lovers=("午", "未"))
    for victim in ("甲", "乙", "丙", "丁", "戊"):  # five rights used
        run(g, CloseDay(), OpenDay(), Ballots("exile", (("辛", victim),)))
    run(g, CloseDay(), OpenDay())
    run(g, Ballots("exile", (("辛", "午"),)))  # 午 takes the sixth, 未 follows (殉情) with none
    assert list(g.state.last_words)[-1] == "午" and "未" not in g.state.last_words
    outs = run(g, Card("红牌", "午"))
    assert "未" in g.state.last_words and "午" not in g.state.last_words
    assert any("可以留下遗言" in t for t in notices(outs, "player:未"))
    [told] = [t for t in notices(outs, "director") if "改为红牌罚下出局" in t]
    assert "· 遗言权利改由 18号 未 获得" in told


def test_the_cupid_is_not_told_his_faction_changed_when_it_did_not():
    # "情侣产生后，丘比特的阵营转变为与情侣相同的阵营": two villagers leave him where he was
    g = new_game()
    outs = run(g, Act("卯", "丘比特之箭", ["午", "未"]), OpenDay())
    assert "情侣已产生，你的阵营仍为【村民阵营】。" in notices(outs, "player:卯")


def test_not_voting_costs_two_blue_cards_before_a_speed_up_and_one_after():
    # ★ "3、加速前的讨论日不投票者，判两张蓝牌 4、加速后（包括强制加速）的讨论日不投票者，判一张蓝牌" (the file's
    # votes.no_vote_card with its sped_up cards)
    g = started()
    run(g, CloseDay(), OpenDay())
    assert R146.no_vote_cards(g) == ("蓝牌", "蓝牌")
    assert R146.no_vote_card(g) == "加速前的讨论日不投票者，判两张蓝牌"
    run(g, SpeedUp(forced=True))
    assert R146.no_vote_cards(g) == ("蓝牌",)
    assert R146.no_vote_card(g) == "加速后（包括强制加速）的讨论日不投票者，判一张蓝牌"

