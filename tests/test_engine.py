"""The engine's promises beyond single rules: purity, refusals that change nothing, determinism,
exact vote weights, time limits, last words, and who is told what."""
from __future__ import annotations

import copy
import subprocess
import sys
from fractions import Fraction

import pytest

from engine import Act, Ballots, Card, CloseDay, Game, OpenDay, ResolveNight, Timeout, deal
from engine.events import DeadlineStart, Death, Feedback, Notice
from engine.votes import count, first_to_reach, nobody
from rulesets import get

M131 = get("M131")
NAMES = "甲 乙 丙 丁 戊 己 庚 辛 壬 癸 子 丑 寅".split()
ROLES = ["狼人", "狼人", "狼人", "感染白痴", "预言家", "女巫", "乌鸦", "锈盾守卫", "混血儿", "村民", "村民", "村民", "村民"]
IDENTITIES = {"狼人", "感染白痴", "预言家", "女巫", "乌鸦", "锈盾守卫", "混血儿"}


def new_game() -> Game:
    return Game(M131, list(zip(NAMES, ROLES)), seed=7)


def run(g: Game, *cmds):
    outs = [g.apply(c) for c in cmds]
    for c, o in zip(cmds, outs):
        assert o.ok, (c, o.error)
    return outs


def notices(outs, audience: str) -> list[str]:
    return [e.text for o in outs for e in o.of(Notice) if e.audience == audience]


def first_night(g: Game):
    return run(g, Act("壬", "认亲", "癸"), CloseDay())


def test_importing_the_engine_loads_no_nonebot():
    code = "import sys, engine, engine.replay, rulesets; print([m for m in sys.modules if m.startswith('nonebot')])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_a_refused_command_changes_nothing_and_says_why_in_chinese():
    g = new_game()
    first_night(g)
    run(g, Act("甲", "杀人", "癸"))
    before = copy.deepcopy(g.state)
    for cmd, reason in [
        (Act("乙", "杀人", "子"), "今晚已经发动过<杀人>"),
        (Act("戊", "毒药", "甲"), "戊 的身份没有<毒药>"),
        (Act("己", "救药", "己"), "不能自救"),
        (Act("戊", "预言", "无名氏"), "没有找到角色「无名氏」"),
        (Act("癸", "预言", "甲"), "癸 的身份没有<预言>"),
    ]:
        out = g.apply(cmd)
        assert not out.ok and reason in out.error
        assert out.events == []
        assert g.state == before


def test_same_seed_same_game_and_a_different_seed_deals_differently():
    assert deal(M131, NAMES, 3) == deal(M131, NAMES, 3)
    assert any(deal(M131, NAMES, 3) != deal(M131, NAMES, s) for s in range(4, 10))

    def play(seed: int) -> Game:
        g = Game(M131, deal(M131, NAMES, seed), seed=seed)
        g.apply(CloseDay())  # the half-blood did not choose: the seed chooses
        return g

    assert play(11).state == play(11).state
    assert {play(s).state.player(p.name).marks["认亲"] for s in range(20) for p in play(s).state.with_role("混血儿")} != set()


def test_weights_are_exact_fractions():
    ballots = [("a", "x", Fraction(3, 2)), ("b", "y", Fraction(1)), ("c", "y", Fraction(1, 2))]
    counts, result = count(ballots, {}, nobody)
    assert counts == {"x": Fraction(3, 2), "y": Fraction(3, 2)} and result is None
    counts, result = count([("a", "x", Fraction(1, 10))] * 10 + [("b", "y", Fraction(1))], {}, nobody)
    assert counts["x"] == 1 and result is None  # ten tenths tie exactly with one vote
    # 最先高票者: of the tied, whoever reached the top count first in posting order
    order = [("a", "y", Fraction(1)), ("b", "x", Fraction(1)), ("c", "x", Fraction(1)), ("d", "y", Fraction(1))]
    assert count(order, {}, first_to_reach)[1] == "x"


def test_night_time_limits_start_at_close_and_after_feedback():
    g = new_game()
    outs = first_night(g)
    starts = {e.key: e for o in outs for e in o.of(DeadlineStart)}
    assert starts["night1:预言:戊"].anchor == "close" and starts["night1:预言:戊"].minutes == 60
    assert starts["night1:杀人:狼群"].who == ("甲", "乙", "丙", "丁")
    assert "night1:女巫:己" not in starts  # the witch's limit waits for her feedback
    out = g.apply(Act("甲", "杀人", "子"))
    witch = [e for e in out.of(DeadlineStart) if e.key == "night1:女巫:己"]
    assert witch and witch[0].anchor == "now" and witch[0].minutes == 30


def test_a_missed_time_limit_is_a_pass_with_the_post_consequence():
    g = new_game()
    first_night(g)
    out = g.apply(Timeout("night1:杀人:狼群"))  # "狼队在关门一个小时后仍未提交刀人目标，视为放弃出刀"
    assert out.ok
    [fb] = out.of(Feedback)
    assert fb.to == "己" and fb.result == []  # 通灵 is 强制: she learns nobody was attacked
    assert not g.apply(Act("乙", "杀人", "子")).ok
    assert not g.apply(Timeout("night1:杀人:狼群")).ok  # nothing left under that key


def test_the_night_resolves_early_only_when_every_action_is_in():
    g = new_game()
    first_night(g)
    assert not g.apply(ResolveNight()).ok
    run(g, Act("甲", "杀人", "子"), Act("己", "放弃"), Act("戊", "预言", "甲"), Act("庚", "放弃"), Act("辛", "放弃"))
    assert g.night_complete()
    out = g.apply(ResolveNight())
    assert out.ok and g.night.deaths == ["子"]
    assert g.state.player("子").alive  # night 1's list goes out after the election
    assert not g.apply(Act("戊", "预言", "乙")).ok


def test_last_words_first_night_and_day_only_never_after_a_red_card():
    g = new_game()
    first_night(g)
    run(g, Act("甲", "杀人", "子"), OpenDay())
    out = g.apply(Ballots("election", (("甲", "甲"),)))
    assert "你已出局，可以留下遗言" in "".join(notices([out], "player:子"))
    out = g.apply(Act("子", "遗言", text="我是好人\n[color=red]狼是甲[/color]"))
    assert out.ok
    assert any("Discuz!代码" in t for t in notices([out], "director"))
    assert not g.apply(Act("子", "遗言", text="再来一次")).ok
    assert not g.apply(Act("丑", "遗言", text="我还活着")).ok
    out = g.apply(OpenDay())  # day 2 opens: the words are published
    assert any("我是好人" in t for t in notices([out], "public"))
    run(g, Ballots("exile", tuple((n, "丑") for n in NAMES if n != "子")))
    assert g.state.last_words["丑"] is None  # voted out by day: may leave words
    run(g, CloseDay(), Act("甲", "杀人", "寅"), OpenDay())
    assert "寅" not in g.state.last_words  # "之后夜晚出局的人无遗言"
    assert g.state.last_words["丑"] == ""  # the limit passed at 开门: given up
    run(g, Card("红牌", "癸"))
    assert not g.state.player("癸").alive and "癸" not in g.state.last_words


def test_the_slandered_player_is_published_an_hour_before_close():
    g = new_game()
    first_night(g)
    run(g, Act("庚", "诽谤", "乙"), OpenDay(lapse=True))
    run(g, Ballots("election", ()), OpenDay(), CloseDay(), Act("庚", "诽谤", "甲"))
    outs = run(g, OpenDay())
    [start] = [e for o in outs for e in o.of(DeadlineStart) if e.key.startswith("公示:诽谤")]
    assert start.anchor == "close" and start.minutes == -60
    assert not any("甲" in t and "诽谤" in t for t in notices(outs, "public"))  # not before its time
    out = g.apply(Timeout(start.key))
    assert any("乌鸦诽谤的角色：1号 甲" in t for t in notices([out], "public"))


def test_a_sheriff_who_misses_the_hand_over_leaves_no_sheriff():
    g = new_game()
    first_night(g)
    run(g, OpenDay(), Ballots("election", (("甲", "丑"), ("乙", "丑"))), OpenDay())
    assert g.state.sheriff == "丑"
    outs = run(g, Ballots("exile", (("甲", "丑"), ("乙", "丑"))))
    [ask] = [e for o in outs for e in o.of(DeadlineStart) if e.what == "殉职"]
    assert ask.who == ("丑",) and ask.anchor == "close" and ask.minutes == 30
    assert g.state.sheriff is None and g.state.pending
    run(g, Timeout(ask.key))
    assert g.state.sheriff is None and not g.state.pending
    assert not g.apply(Act("丑", "殉职", "甲")).ok


def test_secrets_stay_private():
    g = new_game()
    outs = first_night(g)
    outs += run(g, Act("甲", "杀人", "子"), Act("戊", "预言", "甲"), Act("己", "放弃"), Act("辛", "最后的守护", "子"))
    outs += run(g, OpenDay(), Ballots("election", (("甲", "戊"),)), OpenDay())
    outs += run(g, Ballots("exile", tuple((n, "丁") for n in NAMES if n != "子")), CloseDay())
    outs += run(g, Act("乙", "附加刀", "庚"))
    feedback = [e for o in outs for e in o.of(Feedback)]
    assert {(f.skill, f.audience) for f in feedback} == {
        ("通灵", "player:己"), ("预言", "player:戊"), ("最后的守护", "player:辛")}
    for text in notices(outs, "public"):
        assert not any(identity in text for identity in IDENTITIES), text
    for text in notices(outs, "team:狼群"):
        assert "预言" not in text and "通灵" not in text


@pytest.mark.parametrize("cmd", [OpenDay(), Ballots("exile", ()), Act("甲", "杀人", "乙")])
def test_before_the_first_night_only_start_choices_are_taken(cmd):
    g = new_game()
    assert not g.apply(cmd).ok
    assert g.apply(Act("壬", "认亲", "甲")).ok
    assert not g.apply(Act("壬", "认亲", "乙")).ok  # 限定


# --- night 1's victims and the election -------------------------------------------------------------
def test_night_ones_victims_are_told_nothing_before_the_election_and_one_elected_hands_over():
    # "第一个夜晚需要公示的信息以及出局名单在警长竞选完毕之后公布"; "所有玩家都可以投票和被投票";
    # "警长被投票出局或在第一夜出局，关门三十分钟后仍未与导演取得联系，视为放弃移交警长"
    g = new_game()
    outs = first_night(g)
    outs += run(g, Act("甲", "杀人", "子"), OpenDay(lapse=True))
    assert g.state.player("子").alive and not any(o.of(Death) for o in outs)
    assert notices(outs, "player:子") == [] and not any("子" in t for t in notices(outs, "public"))
    out = g.apply(Ballots("election", (("子", "子"), ("丑", "子"), ("甲", "甲"))))
    assert out.ok and g.state.tallies[-1]["counts"] == {"子": 2, "甲": 1}
    assert [(d.name, d.phase, d.number, d.cause) for d in out.of(Death)] == [("子", "night", 1, "杀人")]
    told = notices([out], "player:子")
    assert told[0] == "你当选了警长。<带队>：你的投票计为1.5票。<殉职>：你非因红牌出局后可以选择一名未出局的角色继任警长（发送“殉职 座位号”，或“殉职 撕”撕毁警徽）。" and "可以<殉职>" in told[1] and "可以留下遗言" in told[2]
    [ask] = [e for e in out.of(DeadlineStart) if e.what == "殉职"]
    assert (ask.anchor, ask.minutes) == ("close", 30)
    assert g.state.sheriff is None
    run(g, Act("子", "殉职", "丑"))
    assert g.state.sheriff == "丑"


def test_night_ones_list_at_day_two_when_the_election_was_never_counted_names_night_one_not_last_night():
    # "每个游戏日白天开始时，都会公示……夜晚出局角色名单": night 1's list, held for the election, goes out at day
    # 2's 开门 if the election was never counted: in that 开门's one post, and as night 1's (day 1 lies
    # between), not "昨晚"
    g = new_game()
    first_night(g)
    run(g, Act("甲", "杀人", "子"), OpenDay(lapse=True))
    out = g.apply(OpenDay())
    assert out.ok and [d.name for d in out.of(Death)] == ["子"]
    [listed] = [t for t in notices([out], "public") if "子" in t]
    assert listed == "开门，第2天（放逐投票）\n前一天投票出局：无\n第1夜出局：11号 子\n当日警长：无", listed


def test_a_red_card_before_night_ones_list_takes_the_victim_out_first():
    # "红牌罚下出局的角色没有遗言权利": he is in the game until the list is published, so the card takes him out
    g = new_game()
    first_night(g)
    run(g, Act("甲", "杀人", "子"), Act("己", "毒药", "丑"), OpenDay(lapse=True))
    out = g.apply(Card("红牌", "子"))
    assert out.ok and g.state.player("子").death == ("day", 1, "红牌")
    run(g, Ballots("election", (("丑", "丑"),)))
    assert g.state.announcements[-1] == {"phase": "day", "number": 1, "deaths": ["丑"]}
    assert "子" not in g.state.last_words and g.state.last_words["丑"] is None


# --- a red card the day of the vote --------------------------------------------------------------------
def test_a_red_card_after_the_count_tells_the_director_each_change():
    # "白天红牌罚下在被投票出局之前"; "红牌罚下出局的角色没有遗言权利，不能发动警长<殉职>"
    g = new_game()
    first_night(g)
    run(g, OpenDay(lapse=True), Ballots("election", (("丁", "丁"),)), OpenDay())
    run(g, Ballots("exile", (("戊", "丁"), ("己", "丁"))), Act("丁", "遗言", text="我是好人"))
    out = g.apply(Card("红牌", "丁"))
    assert out.ok
    assert notices([out], "public") == ["红牌罚下：4号 丁（白天红牌罚下在被投票出局之前：按红牌罚下出局，不再按投票出局）",
                                        "4号 丁 被红牌罚下，不能发动<殉职>，本局不再有警长"]
    assert notices([out], "player:丁") == ["你被红牌罚下（白天红牌罚下在被投票出局之前），按红牌罚下出局：你不再有遗言权利、<殉职>。"]
    assert "4号 丁 今天被投票出局后又被红牌罚下，改为红牌罚下出局：\n" \
           "· 出局原因：投票 → 红牌\n" \
           "· 取消<殉职>（尚未答复）\n" \
           "· 取消遗言权利（已提交的遗言不会公示）\n" \
           "· 取消<假痴不癫>：狼群下一个夜晚没有附加刀或查验\n" \
           "· 本局不再有警长" in notices([out], "director")
    assert not g.state.pending and "丁" not in g.state.last_words
    outs = run(g, CloseDay(), OpenDay(lapse=True))
    assert not any("我是好人" in t for t in notices(outs, "public"))
    assert any("前一天投票出局：无" in t for t in notices(outs, "public"))  # he was not voted out


def test_a_red_card_the_day_after_the_vote_changes_nothing_of_it():
    g = new_game()
    first_night(g)
    run(g, OpenDay(lapse=True), Ballots("election", ()), OpenDay(), Ballots("exile", (("戊", "丁"),)), CloseDay())
    out = g.apply(Card("红牌", "丁"))
    assert out.ok and g.state.player("丁").death == ("day", 2, "投票")
    assert g.state.carry.get("extra_tonight") == "附加刀"


# --- counts worth posting, and the end ---------------------------------------------------------------------
def night_passes(g: Game, kill: str | None = None, **acts) -> None:
    """Everyone awaited this night lets it go, but the pack (`kill`) and `acts` (name -> (skill, target))."""
    for name, (skill, target) in acts.items():
        run(g, Act(name, skill, target))
    while g.rules.awaiting(g) and not g.night.resolved:
        who, slot = g.rules.awaiting(g)[0]
        if who == "狼群":
            run(g, Act("甲", "杀人", kill))
        else:
            run(g, Act(who, "放弃"))


def test_a_tally_shows_the_count_sorted_its_ballots_and_every_weight_that_changed_it():
    """The sheriff's 1.5 and the crow's 诽谤 ("其在下一个游戏日投票时被投票数多计一票") are named in the count; each
    ballot is shown, with the 改票 it was; 弃权 and those who did not vote are listed; the director alone is
    told the card the post gives those who did not vote."""
    g = new_game()
    first_night(g)
    night_passes(g)
    run(g, OpenDay(), Ballots("election", (("甲", "戊"), ("戊", "戊"))), OpenDay(), Ballots("exile", ()), CloseDay())
    night_passes(g, 庚=("诽谤", "丁"))
    run(g, OpenDay())
    outs = run(g, Ballots("exile", (("戊", "丁"), ("甲", "己"), ("乙", "己"), ("己", "弃权")), changed=(("戊", "甲"),)))
    assert notices(outs, "public")[0] == (
        "第3天放逐投票结果：\n4号 丁 2.5票、6号 己 2票\n结果：4号 丁\n票型：\n5号 戊 → 4号 丁（1.5票，改票，原投 1号 甲）\n"
        "1号 甲 → 6号 己\n2号 乙 → 6号 己\n弃权：6号 己\n未投票：3号 丙、4号 丁、7号 庚、8号 辛、9号 壬、10号 癸、11号 子、12号 丑、13号 寅\n"
        "计票说明：警长 5号 戊 的票计为1.5票；乌鸦诽谤：4号 丁 多计一票")
    assert notices(outs, "public")[1] == "放逐投票：4号 丁 出局"  # announced once: the count does not say 出局
    assert "第3天放逐投票（仅导演可见）：\n未投票：3号 丙、4号 丁、7号 庚、8号 辛、9号 壬、10号 癸、11号 子、12号 丑、13号 寅。" \
           "规则：讨论结束时，未回复投票帖者将被判罚黄牌（执行加速时不判罚），请决定是否发牌" in notices(outs, "director")



def test_a_void_post_is_listed_as_void_with_why_not_as_no_vote():
    """Who posted only void ballots ("投票格式或投票对象有误的票无效") did reply to the vote thread: the count lists
    him under 无效票 with why, and neither the thread nor the director's card list has him under 未投票. One whose
    other ballot counts is not listed again; a name of no character is refused, and the count with it."""
    g = new_game()
    first_night(g)
    night_passes(g)
    run(g, OpenDay())
    assert g.apply(Ballots("election", (("甲", "戊"),), void=(("路人", "格式有误"),))).error == "没有角色「路人」"
    outs = run(g, Ballots("election", (("甲", "戊"), ("戊", "戊")),
                          void=(("乙", "缺少“投票理由：”，格式有误"), ("甲", "重复投票"), ("丙", "改票前没有有效的投票"))))
    assert notices(outs, "public")[0] == (
        "第1天警长竞选结果：\n5号 戊 2票\n结果：5号 戊 当选警长\n票型：\n1号 甲 → 5号 戊\n5号 戊 → 5号 戊\n"
        "未投票：4号 丁、6号 己、7号 庚、8号 辛、9号 壬、10号 癸、11号 子、12号 丑、13号 寅\n"
        "无效票：2号 乙（缺少“投票理由：”，格式有误）、3号 丙（改票前没有有效的投票）")
    assert "第1天警长竞选（仅导演可见）：\n未投票：4号 丁、6号 己、7号 庚、8号 辛、9号 壬、10号 癸、11号 子、12号 丑、13号 寅。" \
           "规则：讨论结束时，未回复投票帖者将被判罚黄牌（执行加速时不判罚），请决定是否发牌" in notices(outs, "director")


def test_a_counts_void_posts_are_kept_in_the_stored_log():
    from engine.commands import from_dict, to_dict

    cmd = Ballots("exile", (("甲", "乙"),), (("甲", "丙"),), (("丁", "没有“投票对象：”，格式有误"),))
    assert from_dict(to_dict(cmd)) == cmd
    assert from_dict({"type": "Ballots", "kind": "exile", "ballots": [["甲", "乙"]]}).void == ()  # stored before void existed


def test_the_end_withdraws_what_it_asked_and_tells_every_player():
    """The sheriff voted out on the day the wolves win is neither asked for <殉职> nor offered last words: the
    game is over. A question asked before the end is called off. Every player learns the end and the seed."""
    g = new_game()
    run(g, Act("壬", "认亲", "甲"), CloseDay())  # the half-blood sides with the wolves: five of thirteen
    night_passes(g, kill="子")
    run(g, OpenDay(), Ballots("election", (("戊", "戊"),)), OpenDay(), Ballots("exile", ()), CloseDay())
    night_passes(g, kill="丑")
    run(g, OpenDay())
    outs = run(g, Ballots("exile", (("甲", "戊"), ("乙", "戊"))))
    assert g.state.winner == "狼人阵营" and not g.state.pending
    assert not [e for e in outs[0].events if isinstance(e, DeadlineStart)]
    # the identities were given, not dealt from the seed: the message does not say the seed decided them
    seed = "本局的随机种子是 7：每一次随机结果都由它决定（身份由导演指定），可以在导演公布的完整记录（树洞）中核对。"
    assert notices(outs, "player:戊") == [f"游戏结束，狼人阵营获胜。感谢参与！{seed}"]
    assert all(notices(outs, f"player:{n}") == [f"游戏结束，狼人阵营获胜。感谢参与！{seed}"] for n in NAMES)


def test_a_question_asked_before_the_end_is_called_off():
    g = new_game()
    first_night(g)
    night_passes(g)
    run(g, OpenDay(), Ballots("election", (("戊", "戊"),)), OpenDay(), Ballots("exile", (("甲", "戊"),)))
    assert [p.skill for p in g.state.pending] == ["殉职"] and g.owes_last_words("戊")
    from engine import FactionLoss

    outs = run(g, FactionLoss("狼人阵营"))
    assert notices(outs, "player:戊")[:2] == ["游戏已经结束，你不必再发动<殉职>。", "游戏已经结束，你不必再留遗言。"]
    assert not g.state.pending and not g.owes_last_words("戊")


def test_night_victims_are_told_they_are_out_when_the_night_is_published():
    """M131: night 1's victim hears nothing until the list after the election, then is offered last words;
    one who goes out on a later night ("之后夜晚出局的人无遗言") is told he is out, privately."""
    g = new_game()
    first_night(g)
    night_passes(g, kill="子")
    outs = run(g, OpenDay())
    assert notices(outs, "player:子") == []
    outs = run(g, Ballots("election", (("戊", "戊"),)))
    assert notices(outs, "player:子") == ["你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效。遗言中禁止使用Discuz!代码。"]
    run(g, OpenDay(), Ballots("exile", ()), CloseDay())
    night_passes(g, kill="丑")
    outs = run(g, OpenDay())
    assert notices(outs, "player:丑") == ["你已出局（第2夜），没有遗言。"]
    assert notices(outs, "public")[0] == "开门，第3天（放逐投票）\n前一天投票出局：无\n昨晚出局：12号 丑\n当日警长：5号 戊"


def test_a_dealt_game_says_the_seed_decided_the_deal():
    from engine import deal
    from engine.lineup import seed_decides

    players = deal(M131, NAMES, 7)
    assert seed_decides(M131, players, 7) == "身份分配和每一次随机结果都由它决定"
    assert seed_decides(M131, players, 8) == "每一次随机结果都由它决定（身份由导演指定）"
