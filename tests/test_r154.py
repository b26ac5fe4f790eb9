"""154 舟帝后宫: what the scenario checker cannot express — line-ups, who is told what and when, group
membership, time limits, absences, the director's 判负 — checked on the engine's own events."""
from __future__ import annotations

from collections import Counter

import pytest

from engine import Act, Ballots, Card, CloseDay, FactionLoss, Game, LineupError, OpenDay, Timeout, check, deal
from engine.events import DeadlineStart, Feedback, Notice, TeamChange
from rulesets import get

R154 = get("154")
ROSTER = [
    ("甲", "树精姥姥"), ("乙", "小倩"), ("丙", "女鬼"), ("丁", "女鬼"), ("戊", "女鬼"), ("己", "黑山老妖"),
    ("庚", "除妖道士"), ("辛", "苗疆蛊女"), ("壬", "绝命刀客"), ("癸", "江湖郎中"), ("子", "兄弟考生"), ("丑", "兄弟考生"),
    ("寅", "宁采臣"), ("卯", "赶考书生"), ("辰", "赶考书生"), ("巳", "赶考书生"), ("午", "赶考书生"), ("未", "赶考书生"),
    ("申", "赶考书生"), ("酉", "赶考书生"),
]
NAMES = [n for n, _ in ROSTER]
COVEN = "女鬼群"


def new_game(seed: int = 0) -> Game:
    return Game(R154, ROSTER, seed=seed)


def run(g: Game, *cmds):
    outs = [g.apply(c) for c in cmds]
    for c, o in zip(cmds, outs):
        assert o.ok, (c, o.error)
    return outs


def events(outs, kind) -> list:
    return [e for o in outs for e in o.of(kind)]


def notices(outs, audience: str) -> list[str]:
    return [e.text for e in events(outs, Notice) if e.audience == audience]


# --- line-up: "8赶考书生" of whom one is secretly 宁采臣, never a 兄弟考生 --------------------------------
def test_the_post_line_up_counts_ning_among_the_eight_scholars():
    check(R154, ROSTER)
    assert R154.size == 20
    assert R154.role("宁采臣").hidden_as == "赶考书生"  # "收到身份为【赶考书生】"


@pytest.mark.parametrize("swap, words", [
    ({"寅": "赶考书生"}, "宁采臣（赶考书生之一）应为1人，实为0人"),  # nine plain 赶考书生, no 宁采臣
    ({"子": "宁采臣", "寅": "赶考书生"}, "兄弟考生 应为2人"),  # "兄弟赶考书生不存在宁采臣"
    ({"卯": "宁采臣"}, "宁采臣（赶考书生之一）应为1人，实为2人"),
])
def test_line_ups_the_post_forbids_are_refused(swap, words):
    with pytest.raises(LineupError, match=words.replace("（", ".").replace("）", ".")):
        check(R154, [(n, swap.get(n, r)) for n, r in ROSTER])


def test_a_dealt_game_hides_one_ning_among_the_scholars():
    seats = set()
    for seed in range(40):
        dealt = deal(R154, NAMES, seed)
        have = Counter(r for _, r in dealt)
        assert have["宁采臣"] == 1 and have["赶考书生"] == 7 and have["兄弟考生"] == 2
        seats.add(next(i for i, (_, r) in enumerate(dealt) if r == "宁采臣"))
    assert len(seats) > 5 and deal(R154, NAMES, 9) == deal(R154, NAMES, 9)


# --- groups ------------------------------------------------------------------------------------------
def test_the_ghost_group_and_the_brothers_group_are_formed_at_the_start():
    # "导演会为女鬼阵营，兄弟赶考书生各自建立一个QQ群"
    out = new_game().apply(CloseDay())
    groups = {e.team: e.members for e in out.of(TeamChange)}
    assert groups == {COVEN: ("甲", "乙", "丙", "丁", "戊"), "兄弟群": ("子", "丑")}


def test_ning_joins_the_ghost_group_when_found_and_the_dead_stay_in_it():
    g = new_game()
    run(g, CloseDay(), OpenDay(), Ballots("election", (("子", "子"),)), Ballots("exile", (("子", "戊"), ("丑", "戊"))))
    out = g.apply(CloseDay())
    assert not out.of(TeamChange)
    [out] = run(g, Act("乙", "执子之手", "寅"))
    [change] = out.of(TeamChange)
    # "已经出局的女鬼群中的角色仍然留在女鬼群"; "搜寻成功，则宁采臣加入女鬼阵营，入群"
    assert change.team == COVEN and change.members == ("甲", "乙", "丙", "丁", "戊", "寅")
    assert any("你就是宁采臣" in t for t in notices([out], "player:寅"))
    assert g.state.player("寅").faction == "女鬼阵营"


def test_nothing_says_ning_to_anyone_not_entitled_before_he_is_found():
    g = new_game()
    outs = run(g, CloseDay(), Act("乙", "执子之手", "卯"), Act("庚", "预言", "寅"), Act("丙", "吸精", "寅"),
               Act("癸", "针灸", "寅"), OpenDay())
    outs += run(g, Ballots("exile", (("寅", "卯"),)), CloseDay())  # 天命 made him sheriff: no election
    for e in events(outs, Notice):
        if e.audience not in ("director", "player:乙", "player:庚"):
            assert "宁采臣" not in e.text, e
    # 小倩 is told she is looking for him, and whether she found him; nothing more
    assert all("宁采臣" not in t or "寻找宁采臣" in t or "不是宁采臣" in t for t in notices(outs, "player:乙"))


# --- who is told what, and when ----------------------------------------------------------------------
def test_the_taoist_result_waits_for_yao_and_qian_even_on_an_ordinary_target():
    g = new_game()
    run(g, CloseDay())
    [out] = run(g, Act("庚", "预言", "卯"))
    assert not out.of(Feedback)  # 黑山老妖 (2) and 小倩 (3) act before him
    [out] = run(g, Act("己", "妖隐"))
    assert not out.of(Feedback)
    [out] = run(g, Act("乙", "执子之手", "辰"))
    assert [(f.to, f.skill) for f in out.of(Feedback)] == [("乙", "执子之手"), ("庚", "预言")]


def test_tongling_waits_for_every_suck_and_comes_once():
    g = new_game()
    run(g, CloseDay())
    got = []
    for cmd in (Act("丙", "吸精", "卯"), Act("己", "吸精", "辰"), Act("甲", "冲锋", "巳")):
        got += [f for f in run(g, cmd)[0].of(Feedback) if f.skill == "通灵"]
        if cmd.by != "甲":
            assert not got
    assert [f.result for f in got] == [["卯", "辰", "巳"]]
    assert not [f for f in run(g, Act("辛", "放弃"))[0].of(Feedback) if f.skill == "通灵"]


def test_no_tongling_after_the_save():
    # "<救药>使用后，蛊女失去技能<救药>。蛊女失去<救药>技能后，失去技能<通灵>。"
    g = new_game()
    run(g, CloseDay(), Act("丙", "吸精", "卯"), Act("己", "放弃"), Act("甲", "放弃"), Act("辛", "救药", "卯"))
    run(g, OpenDay(lapse=True), CloseDay(lapse=True), Act("丙", "吸精", "辰"), OpenDay(lapse=True))
    assert [f["number"] for f in g.state.feedback if f["skill"] == "通灵"] == [1]


def test_time_limits_as_the_post_states_them():
    g = new_game()
    [out] = run(g, CloseDay())
    starts = {e.key: e for e in out.of(DeadlineStart)}
    # "关门半小时后，郎中、道士、小倩、刀客、女鬼阵营/黑山老妖未与导演取得联系，均为放弃夜晚行动。"
    for key in ("night1:针灸:癸", "night1:黑山老妖:己", "night1:执子之手:乙", "night1:预言:庚", "night1:冲锋:甲"):
        assert (starts[key].anchor, starts[key].minutes) == ("close", 30)
    assert starts["night1:吸精:女鬼群"].who == ("甲", "乙", "丙", "丁", "戊")
    # "夜晚十点前、蛊女仍未给导演答复，视为放弃夜晚行动。"
    assert (starts["night1:蛊女:辛"].anchor, starts["night1:蛊女:辛"].minutes) == ("clock", 22 * 60)
    out = g.apply(Timeout("night1:吸精:女鬼群"))
    assert out.ok and not g.apply(Act("丙", "吸精", "卯")).ok


def test_ning_and_qian_are_published_when_she_follows_him():
    # "因女鬼阵营<吸精>死亡时，小倩触发<殉情>，两人出局后，公示身份。"
    g = new_game()
    outs = run(g, CloseDay(), Act("丙", "吸精", "寅"), OpenDay(lapse=True))
    public = notices(outs, "public")
    assert any("昨晚出局：13号 寅、2号 乙" in t for t in public)  # "按角色出局的顺序排序"
    assert any("13号 寅 是宁采臣" in t and "2号 乙 是小倩" in t for t in public)


def test_the_taoist_fate_is_published_as_a_new_sheriff_at_dawn():
    # "道士因此出局后，强制公示接任警长。"
    g = new_game()
    run(g, CloseDay(), Act("庚", "预言", "寅"))
    assert g.state.sheriff is None  # settled with the night, published at 开门
    outs = run(g, OpenDay(lapse=True))
    assert "13号 寅 接任警长" in notices(outs, "public")
    assert g.state.sheriff == "寅"


# --- the sheriff's badge by chance --------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(8))
def test_a_badge_left_to_chance_goes_to_a_living_player(seed):
    # "警长随机指定" / "红牌罚下的警长警徽随机移交"
    g = new_game(seed)
    run(g, CloseDay(), OpenDay(), Ballots("election", (("甲", "子"),)), Ballots("exile", (("甲", "子"), ("乙", "子"))))
    [ask] = [p for p in g.state.pending if p.skill == "殉职"]
    run(g, Timeout(ask.key))
    first = g.state.sheriff
    assert first and g.state.player(first).alive
    run(g, Card("红牌", first))
    assert g.state.sheriff and g.state.sheriff != first and g.state.player(g.state.sheriff).alive


# --- cards and the director's 判负 --------------------------------------------------------------------
def test_the_director_may_judge_a_faction_lost_at_a_red_card():
    # "判下红牌的同时，导演有权视情况决定是否直接使该玩家所在的阵营判负。" — and "女鬼阵营优先判负后，女鬼阵营失去
    # 吸精技能。此事件发生时会通知女鬼阵营。"
    g = new_game()
    run(g, CloseDay(), OpenDay(lapse=True))
    outs = run(g, Card("红牌", "丙"), Card("红牌", "丁"))
    assert g.state.lost == []  # no loss by count
    assert any("导演可决定是否判负" in t for t in notices(outs, "director"))
    outs = run(g, FactionLoss("女鬼阵营"))
    assert g.state.lost == ["女鬼阵营"] and g.state.winner is None
    assert any("失去<吸精>" in t for t in notices(outs, f"team:{COVEN}"))
    assert not any("女鬼阵营" in t for t in notices(outs, "public"))  # "不予公示"
    run(g, Ballots("election", ()), CloseDay())
    assert not g.apply(Act("戊", "吸精", "卯")).ok and not g.apply(Act("甲", "冲锋", "卯")).ok


# --- 公示: identities stay secret, with one exception -------------------------------------------------
@pytest.mark.parametrize("way", [Ballots("exile", (("庚", "寅"), ("辛", "寅"))), Card("红牌", "寅")])
def test_identities_stay_secret_unless_the_ghosts_suck_ning(way):
    # "游戏进行期间以任何方式出局的角色均不公示其身份" — only "因女鬼阵营<吸精>死亡时，小倩触发<殉情>，两人出局后，公示身份"
    g = new_game()
    run(g, CloseDay(), Act("乙", "执子之手", "寅"), OpenDay(lapse=True), Ballots("election", ()))
    outs = run(g, way)
    assert not g.state.player("寅").alive and g.state.player("乙").death[2] == "殉情"
    assert not any("宁采臣" in t or "小倩" in t or "殉情" in t for t in notices(outs, "public"))
    assert any("13号 寅、2号 乙 出局" in t for t in notices(outs, "public"))  # both listed, no cause named
    g = new_game()  # found, then taken by the group's own 吸精 the same night
    outs = run(g, CloseDay(), Act("乙", "执子之手", "寅"), Act("丙", "吸精", "寅"), OpenDay(lapse=True))
    assert any("13号 寅 是宁采臣" in t and "2号 乙 是小倩" in t for t in notices(outs, "public"))


def test_qian_following_an_exiled_ning_is_told_her_own_cause():
    # "遗言数量等于女鬼的数量……宁采臣变女鬼后，遗言数量+1": six words given, 小倩 out by 殉情 has none left
    g = new_game()
    run(g, CloseDay(), Act("乙", "执子之手", "寅"), OpenDay(lapse=True), Ballots("election", ()))
    def everyone(target):  # nobody left without a vote: no cards
        return Ballots("exile", tuple((p.name, target) for p in g.state.alive()))

    for scholar in ("卯", "辰", "巳", "午", "未"):
        run(g, everyone(scholar), CloseDay(), OpenDay(lapse=True))
    outs = run(g, everyone("寅"))
    assert "放逐投票：13号 寅、2号 乙 出局" in notices(outs, "public")
    assert notices(outs, "player:乙") == ["你已出局（殉情），没有遗言。"]


# --- 姥姥之怒 attached to the group's 吸精 ---------------------------------------------------------------
def test_the_fury_joins_the_groups_suck_and_the_group_is_told():
    # "在该阵营吸食角色时，可以附加姥姥之怒"
    g = new_game()
    run(g, CloseDay(), Act("丙", "吸精", "卯"))
    outs = run(g, Act("甲", "姥姥之怒"))
    assert notices(outs, f"team:{COVEN}") == ["甲 为今晚的吸精 14号 卯 附加了<姥姥之怒>。已确认，不能更改。"]
    assert g.night.actions["姥姥之怒"] == ("甲", "卯") and "姥姥之怒" in g.state.player("甲").used
    run(g, Act("癸", "针灸", "卯"), OpenDay(lapse=True))
    assert g.state.player("卯").death == ("night", 1, "吸精")


# --- a red card the day of the vote ----------------------------------------------------------------------
def test_a_red_card_after_the_vote_withdraws_the_blade_and_a_blade_already_fallen_stands():
    # "红牌罚下出局的角色……不能发动以下技能：刀客<最后一刀>、警长<殉职>。" "白天红牌罚下在被投票出局之前。"
    g = new_game()
    run(g, CloseDay(), OpenDay(lapse=True), Ballots("election", ()), Ballots("exile", (("庚", "壬"),)))
    blade = run(g, Act("壬", "最后一刀", "丙"))
    assert notices(blade, "player:壬") == ["已收到：最后一刀 3号 丙。"]  # a receipt, like every other decision
    outs = run(g, Card("红牌", "壬"))
    assert [d["cause"] for d in g.state.deaths] == ["红牌", "最后一刀"]
    [told] = [t for t in notices(outs, "director") if "改为红牌罚下出局" in t]
    assert told.endswith("· 出局原因：投票 → 红牌\n· 取消遗言权利\n· 已执行，不撤回：最后一刀 丙")
    assert "壬" not in g.state.last_words and g.state.last_words["丙"] is None


def test_only_a_whole_vote_cards_who_is_missing_from_it():
    # "没有投票（或弃票）的玩家将记作一张黄牌": a pasted thread is the whole vote; a scenario's ballots are not
    g = new_game()
    run(g, CloseDay(), OpenDay(lapse=True), Ballots("election", ()), Ballots("exile", (("庚", "卯"),)))
    assert not any(p.cards["黄牌"] for p in g.state.players)
    g = new_game()
    run(g, CloseDay(), OpenDay(lapse=True), Ballots("election", ()), Ballots("exile", (("庚", "卯"),), whole=True))
    assert [p.name for p in g.state.players if p.cards["黄牌"]] == [n for n in NAMES if n != "庚"]
