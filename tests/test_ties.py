"""A tie as the post settles it (`ties:` of a rule-post file, docs/rule-files.md): a PK round between the tied, with
what the thread is told, who may vote in it and what a missing ballot costs there, and where it meets the post's
other rules of the day (an exile counted on the election day, night 1's list published after the election); and the
sheriff's pick among the tied (警长决定), by private message before 关门."""
from __future__ import annotations

from pathlib import Path

import yaml

import pytest

from engine import Act, Ballots, Card, CloseDay, Game, OpenDay
from engine.events import Notice
from engine.rulecheck import load_text
from engine.rulefile import RuleFileError

POSTS = Path(__file__).parent / "scenarios" / "posts"
NAMES = [("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "预言家"), ("戊", "女巫"), ("己", "村民"), ("庚", "村民"), ("辛", "村民")]
# posts/pick.yaml: the hunter and the 翻牌白痴 where the PK post has the witch and a villager
PICKING = [("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "预言家"), ("戊", "猎人"), ("己", "白痴"), ("庚", "村民"), ("辛", "村民")]


def game(post: str = "pk.yaml", names=NAMES, **changes) -> Game:
    data = yaml.safe_load((POSTS / post).read_text(encoding="utf-8"))
    for key, value in changes.items():
        data.setdefault(key, {}).update(value)
    return Game(load_text(yaml.safe_dump(data, allow_unicode=True)), names, seed=1)


def run(g: Game, *cmds):
    out = None
    for cmd in cmds:
        out = g.apply(cmd)
        assert out.ok, out.error
    return out


def public(out) -> str:
    return "\n".join(e.text for e in out.events if isinstance(e, Notice) and e.audience == "public")


def to_the_election(g: Game) -> None:
    run(g, CloseDay(), Act(by="甲", skill="杀人", target="辛"), OpenDay(lapse=True))


def test_a_tie_goes_to_a_pk_round_the_thread_is_told_of_and_only_the_others_vote_in_it():
    g = game()
    to_the_election(g)
    out = run(g, Ballots("election", (("甲", "丁"), ("乙", "戊"), ("丙", "丁"), ("己", "戊"))))
    text = public(out)
    assert "结果：平票（4号 丁、5号 戊 各2票），进入PK" in text
    assert "进入PK：4号 丁、5号 戊 上PK台发言，其他角色在投票帖重新投票，只能投给 4号 丁、5号 戊（PK台上的角色不参与投票）。再次平票则本局没有警长。" in text
    assert g.state.sheriff is None
    out = run(g, Ballots("election", (("甲", "丁"), ("乙", "己"), ("丁", "丁"), ("己", "戊"), ("庚", "丁"))))
    assert out.warnings == ["乙 的票无效：PK只能投给平票者：丁、戊", "丁 的票无效：丁 在PK台上，不参与PK投票"]
    text = public(out)
    assert text.startswith("第1天警长竞选PK结果：") and "4号 丁 当选警长" in text
    assert "无效票：2号 乙、4号 丁" in text
    assert g.state.sheriff == "丁"


def test_a_pk_round_gives_no_second_no_vote_card_and_does_not_list_the_tied_as_not_voting():
    # "没有投票（或弃票）的玩家将记作一张黄牌": the day's vote is its first round; the PK round is the same vote again
    g = game()
    to_the_election(g)
    run(g, Ballots("election", ()), OpenDay())
    first = (("丁", "甲"), ("戊", "甲"), ("甲", "戊"), ("乙", "戊"), ("丙", "庚"))
    run(g, Ballots("exile", first, whole=True))
    assert {p.name for p in g.state.players if p.cards["黄牌"]} == {"己", "庚"}
    out = run(g, Ballots("exile", (("丁", "甲"), ("己", "甲")), whole=True))
    assert {p.name for p in g.state.players if p.cards["黄牌"]} == {"己", "庚"}
    text = public(out)
    assert "未投票：2号 乙、3号 丙、7号 庚" in text  # 甲 and 戊 are on the PK: not voters of this round
    assert not g.state.player("甲").alive


def test_a_pk_round_that_ties_again_sends_nobody_and_the_day_has_no_third_count():
    g = game()
    to_the_election(g)
    run(g, Ballots("election", ()), OpenDay())
    run(g, Ballots("exile", (("丁", "甲"), ("戊", "乙"))))
    out = run(g, Ballots("exile", (("丙", "甲"), ("己", "乙"))))
    assert "结果：平票（1号 甲、2号 乙 各1票），无人出局" in public(out)
    assert all(p.alive for p in g.state.players if p.name != "辛")
    refused = g.apply(Ballots("exile", (("丁", "甲"),)))
    assert not refused.ok and refused.error == "今天的放逐投票已经统计过"


def test_an_exile_on_the_election_day_waits_for_the_elections_pk():
    # 154's "第一天讨论日结束，最先高票者当选警长，出人票最高者出局", with a PK for the election
    g = game(phases={"exile_on_election_day": True, "day_after_election": False})
    to_the_election(g)
    run(g, Ballots("election", (("甲", "丁"), ("乙", "戊"))))
    refused = g.apply(Ballots("exile", (("丁", "甲"),)))
    assert not refused.ok and "请先提交警长竞选的票" in refused.error
    run(g, Ballots("election", (("甲", "丁"),)))
    out = run(g, Ballots("exile", (("丁", "甲"), ("戊", "甲"))))  # the election's PK binds nobody in the exile
    assert "1号 甲" in public(out) and not g.state.player("甲").alive


def test_night_ones_list_published_after_the_election_waits_for_its_pk():
    # M131's "第一个夜晚需要公示的信息以及出局名单在警长竞选完毕之后公布"
    g = game(sheriff={"first_night_deaths_after_election": True})
    to_the_election(g)
    out = run(g, Ballots("election", (("甲", "丁"), ("乙", "戊"))))
    assert "昨晚出局" not in public(out) and g.state.player("辛").alive  # he still takes part, told nothing
    out = run(g, Ballots("election", (("甲", "丁"),)))
    assert "昨晚出局：8号 辛" in public(out) and not g.state.player("辛").alive


def picking(sheriff: str | None = "丁"):
    """posts/pick.yaml on day 2, `sheriff` elected on day 1 (None: nobody), and the count that ties 戊 and 己."""
    g = game("pick.yaml", PICKING)
    to_the_election(g)
    run(g, Ballots("election", (("甲", sheriff),) if sheriff else ()), OpenDay())
    return g, run(g, Ballots("exile", (("丁", "弃权"), ("甲", "戊"), ("乙", "己"), ("丙", "戊"), ("庚", "己"))))


def test_a_tie_is_the_sheriffs_to_decide_among_the_tied_by_private_message():
    g, counted = picking()
    text = public(counted)
    assert "结果：平票（5号 戊、6号 己 各2票），由警长决定其中一名出局" in text
    asked = [e.text for e in counted.events if isinstance(e, Notice) and e.audience == "player:丁"]
    assert asked and "请在 5号 戊、6号 己 中决定放逐一名，发送“决定 座位号”" in asked[0]
    assert all(p.alive for p in g.state.players if p.name != "辛")
    for by, target, error in (("丁", "乙", "只能在平票者中决定：5号 戊、6号 己"), ("丁", None, "请发送“决定 座位号”"),
                              ("甲", "戊", "甲 现在不能发动<决定>")):
        refused = g.apply(Act(by=by, skill="决定", target=target))
        assert not refused.ok and refused.error.startswith(error), refused.error
    out = run(g, Act(by="丁", skill="决定", target="戊"))
    assert "放逐投票平票，警长 4号 丁 决定放逐 5号 戊。" in public(out)
    assert "放逐投票：5号 戊 出局" in public(out)
    # what an exile brings comes at once: the hunter is asked for his shot by day
    assert any(e.audience == "player:戊" and "<开枪>" in e.text for e in out.events if isinstance(e, Notice))
    assert g.state.player("戊").death == ("day", 2, "投票")
    again = g.apply(Act(by="丁", skill="决定", target="己"))
    assert not again.ok


def test_the_idiot_the_sheriff_picks_shows_his_card_as_by_any_exile():
    g, _ = picking()
    out = run(g, Act(by="丁", skill="平票", target="己"))
    assert "6号 己 被放逐，<翻牌>：身份是白痴，免于出局。" in public(out)
    assert g.state.player("己").alive and "己" in g.state.day.may_not_vote


def test_a_tie_the_sheriff_does_not_decide_before_closing_sends_nobody():
    g, _ = picking()
    out = run(g, CloseDay())
    assert "警长关门前没有决定平票者中谁出局，平票无人出局。" in public(out)
    refused = g.apply(Act(by="丁", skill="决定", target="戊"))
    assert not refused.ok and g.state.player("戊").alive


def test_the_sheriffs_pass_and_his_going_out_first_send_nobody():
    g, _ = picking()
    out = run(g, Act(by="丁", skill="放弃"))
    assert "警长没有决定平票者中谁出局，平票无人出局。" in public(out)
    g, _ = picking()
    out = run(g, Card("红牌", "丁"))
    told = [e.text for e in out.events if isinstance(e, Notice) and e.audience == "public"]
    lapsed = told.index("警长已出局，平票无人出局。")
    assert any("4号 丁" in t and "出局" in t for t in told[:lapsed]), told  # after his going out is published
    assert g.state.player("戊").alive and g.state.player("己").alive


def test_with_no_sheriff_a_tie_sends_nobody_and_nobody_is_asked():
    g, counted = picking(sheriff=None)
    assert "结果：平票（5号 戊、6号 己 各2票），无人出局（没有警长决定）" in public(counted)
    assert not g.state.pending


def test_where_a_day_follows_the_day_its_end_ends_the_sheriffs_time():
    # 154's "最先高票者当选警长，出人票最高者出局" on a day after which another day comes: no 关门 between them
    g = game("pick.yaml", PICKING, phases={"exile_on_election_day": True})
    to_the_election(g)
    run(g, Ballots("election", (("甲", "丁"),)), Ballots("exile", (("甲", "戊"), ("乙", "己"))))
    assert g.pending_for("丁", "决定")
    out = run(g, OpenDay())
    assert "警长当天结束前没有决定平票者中谁出局，平票无人出局。" in public(out)
    refused = g.apply(Act(by="丁", skill="决定", target="戊"))
    assert not refused.ok and g.state.player("戊").alive


def test_a_time_limit_before_closing_is_a_sheriffs_time_and_one_after_it_is_refused():
    game("pick.yaml", PICKING, limits={"tie_pick": {"anchor": "close", "minutes": -30, "text": "关门前30分钟"}})
    for limit in ({"anchor": "close", "minutes": 30, "text": "关门后30分钟"}, {"anchor": "open", "minutes": 0, "text": "下次开门"}):
        with pytest.raises(RuleFileError) as caught:
            game("pick.yaml", PICKING, limits={"tie_pick": limit})
        assert "警长须在当天结束前决定平票：这个时限不能在关门之后" in str(caught.value)


def test_a_recount_that_ties_others_makes_the_sheriffs_pick_moot():
    # 重新计票 replays the day with the new count: a 决定 naming one no longer tied lost its grounds, it is no error
    from service.corrections import _lost_right

    g, _ = picking()
    g.state.pending[0].context = ("己", "庚")  # as the recount's tie would ask it
    assert _lost_right(g, Act(by="丁", skill="决定", target="戊")) == "平票者已不同"
    assert _lost_right(g, Act(by="丁", skill="决定", target="己")) is None
