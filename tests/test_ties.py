"""A tie as the post settles it (`ties:` of a rule-post file, docs/rule-files.md): a PK round between the tied, with
what the thread is told, who may vote in it and what a missing ballot costs there, and where it meets the post's
other rules of the day (an exile counted on the election day, night 1's list published after the election)."""
from __future__ import annotations

from pathlib import Path

import yaml

from engine import Act, Ballots, CloseDay, Game, OpenDay
from engine.events import Notice
from engine.rulecheck import load_text

POST = Path(__file__).parent / "scenarios" / "posts" / "pk.yaml"
NAMES = [("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "预言家"), ("戊", "女巫"), ("己", "村民"), ("庚", "村民"), ("辛", "村民")]


def game(**changes) -> Game:
    data = yaml.safe_load(POST.read_text(encoding="utf-8"))
    for key, value in changes.items():
        data.setdefault(key, {}).update(value)
    return Game(load_text(yaml.safe_dump(data, allow_unicode=True)), NAMES, seed=1)


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
