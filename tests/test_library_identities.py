"""The identities of today's 狼人杀 added to the library (docs/identities.md), each in a small post of its own made
the way a director makes one (a data file, checked by engine/rulecheck.py): what each refuses, with its Chinese
reason and nothing changed, and what each does that the scenarios of S12 and S16 do not show."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine import Act, Ballots, Card, CloseDay, Game, OpenDay, Timeout
from engine.events import Feedback, Notice
from engine.library import entries
from engine.rulecheck import load_text
from engine.rulefile import FileRuleset, RuleFileError

WOLF, GOOD, PIPER = "狼人阵营", "村民阵营", "吹笛者阵营"
NIGHT = ["交换", "恐惧", "守护", "摄梦", "杀人", "魅惑", "女巫", "预言", "查验", "窥视", "洞察", "狩猎", "嗅探", "禁言", "吹笛"]
STEPS = ["交换", "杀人", "同守同救", "毒药", "摄梦", "狩猎", "反伤", "纯白", "锈剑", "禁言", "吹笛"]
WITCH = {"senses": ["杀人"], "waits_for": ["杀人"], "saves_from": ["杀人"]}


def post(*roles: tuple, pack: bool = True, formed: tuple = ()) -> str:
    """A post's file: each role (name, faction, params, team, library), one player each, beside two 狼人 of the
    pack and two 村民, and the factions `formed` in play; its night order and settlement order are the library's
    usual ones."""
    identities = [{"name": "狼人", "faction": WOLF, "count": 2, "team": "狼群"}, {"name": "村民", "faction": GOOD, "count": 2}]
    for name, faction, params, *rest in roles:
        r = {"name": name, "faction": faction, "count": 1, "params": params}
        if rest and rest[0]:
            r["team"] = rest[0]
        if len(rest) > 1:
            r["library"] = rest[1]
        identities.append(r)
    factions = {f: {"loses_when": [{"faction_out": True}]} for f in dict.fromkeys([r["faction"] for r in identities] + list(formed))}
    data = {"id": "T", "title": "测试", "players": len(identities) + 2, "factions": factions, "identities": identities,
            "teams": {"狼群": {"skills": [{"library": "共同杀人"}]}}, "phases": {"first": "night"},
            "night": {"prompt": "第{night}夜：{slot}"}, "last_words": {"day": True, "night": False},
            "limits": {k: {"anchor": "close", "minutes": 30, "text": k} for k in ("night", "feedback", "badge", "shot", "blade")},
            "skills": [{"library": "自爆", "holders": [r["name"] for r in identities if r["faction"] == WOLF]}]}
    probe = FileRuleset({**data, "night_order": [], "settlement": []})
    slots = {s for p in probe.parts for s in p.slots}
    data["night_order"] = sorted(slots, key=lambda s: NIGHT.index(s) if s in NIGHT else len(NIGHT))
    data["settlement"] = sorted(probe.step_of, key=lambda s: STEPS.index(s) if s in STEPS else len(STEPS))
    return yaml.safe_dump(data, allow_unicode=True)


def game(*roles: tuple, formed: tuple = ()) -> Game:
    rules = load_text(post(*roles, formed=formed))
    names = [("狼一", "狼人"), ("狼二", "狼人"), ("民一", "村民"), ("民二", "村民")] + [(r[0], r[0]) for r in roles]
    return Game(rules, names, seed=1)


def ok(g: Game, *cmds) -> None:
    for cmd in cmds:
        out = g.apply(cmd)
        assert out.ok, out.error


def refused(g: Game, cmd, words: str) -> None:
    before = repr(g.state)
    out = g.apply(cmd)
    assert not out.ok and words in out.error, out.error
    assert repr(g.state) == before


def act(by, skill, target=None) -> Act:
    return Act(by=by, skill=skill, target=target)


def dead(g: Game) -> set[str]:
    return {p.name for p in g.state.players if not p.alive}


def feedback(out_events, skill):
    return [e for e in out_events if isinstance(e, Feedback) and e.skill == skill]


def test_the_library_lists_at_least_37_identities():
    assert sum(e.kind == "身份" for e in entries().values()) >= 37


def test_guard_refuses_the_same_player_two_nights_running_and_himself_where_the_post_says():
    g = game(("守卫", GOOD, {"self_guard": False}))
    ok(g, CloseDay())
    refused(g, act("守卫", "守护", "守卫"), "不能选择自己")
    ok(g, act("守卫", "守护", "民一"), act("狼一", "杀人", "民一"), OpenDay(), CloseDay())
    assert "民一" not in dead(g)
    refused(g, act("守卫", "守护", "民一"), "不能连续两晚<守护>同一名角色")
    ok(g, act("守卫", "守护", "民二"))


def test_guard_and_witch_on_one_player_may_leave_him_in():
    # 同守同救 as a parameter: "同守同救，该角色不出局" in a post that says so
    g = game(("守卫", GOOD, {"same_save_dies": False}), ("女巫", GOOD, WITCH))
    ok(g, CloseDay(), act("守卫", "守护", "民一"), act("狼一", "杀人", "民一"), act("女巫", "救药", "民一"), OpenDay())
    assert "民一" not in dead(g)


def test_white_wolf_king_refusals():
    g = game(("白狼王", WOLF, {}, "狼群"))
    ok(g, CloseDay(), act("狼一", "杀人"))
    refused(g, act("白狼王", "白狼自爆", "民一"), "只能在白天发动")
    ok(g, OpenDay())
    refused(g, act("白狼王", "白狼自爆", "白狼王"), "须选择一名其他角色")
    refused(g, act("白狼王", "白狼自爆", None), "需要一个目标")
    ok(g, act("白狼王", "白狼自爆", "民一"))
    assert dead(g) == {"白狼王", "民一"}


def test_wolf_beauty_takes_the_charmed_unless_a_red_card():
    g = game(("狼美人", WOLF, {}, "狼群"))
    ok(g, CloseDay())
    refused(g, act("狼美人", "魅惑", "狼美人"), "不能选择自己")
    ok(g, act("狼美人", "魅惑", "民一"), act("狼一", "杀人"), OpenDay(), CloseDay())
    refused(g, act("狼美人", "魅惑", "民一"), "不能连续两晚")
    ok(g, act("狼美人", "魅惑", "民二"), act("狼一", "杀人", "狼美人"), OpenDay())
    assert dead(g) == {"狼美人", "民二"}


def test_hidden_wolf_is_seen_good_and_joins_the_pack_when_it_is_out():
    g = game(("隐狼", WOLF, {"checked_as": GOOD, "joins_team": "狼群"}), ("预言家", GOOD, {"good": GOOD}))
    ok(g, CloseDay())
    out = g.apply(act("预言家", "预言", "隐狼"))
    assert feedback(out.events, "预言")[0].result == GOOD
    refused(g, act("隐狼", "杀人", "民一"), "只有狼群成员")
    ok(g, act("狼一", "杀人", "狼二"), OpenDay(), Ballots("exile", (("民一", "狼一"),)))
    assert g.state.teams["狼群"][-1] == "隐狼"


def test_knight_duel_is_limited_and_needs_another_living_player():
    g = game(("骑士", GOOD, {"wolves": WOLF}))
    ok(g, CloseDay(), act("狼一", "杀人", "民二"), OpenDay())
    refused(g, act("骑士", "决斗", "骑士"), "须选择一名其他角色")
    refused(g, act("骑士", "决斗", "民二"), "已出局")
    ok(g, act("骑士", "决斗", "狼一"))
    assert g.state.day.called_off and "狼一" in dead(g)
    ok(g, CloseDay(), act("狼二", "杀人"), OpenDay())
    refused(g, act("骑士", "决斗", "狼二"), "限定技")


def test_gravekeeper_may_learn_the_exact_identity():
    g = game(("守墓人", GOOD, {"good": GOOD, "exact": True}))
    ok(g, CloseDay(), act("狼一", "杀人"), OpenDay(), Ballots("exile", (("民一", "狼二"),)))
    out = g.apply(CloseDay())
    assert feedback(out.events, "守墓")[0].result == "狼人"


def test_the_frightened_gravekeeper_learns_nothing_and_otherwise_learns_once_the_fright_is_decided():
    """His reading is a skill: the 梦魇's 恐惧 ("该角色当晚不能发动技能") on him takes it for the night."""
    keeper = ("守墓人", GOOD, {"good": GOOD, "waits_for": ["恐惧"]})
    for frightened, told in (("守墓人", False), ("民一", True)):
        g = game(("梦魇", WOLF, {}, "狼群"), keeper)
        ok(g, CloseDay(), act("梦魇", "恐惧", "民二"), act("狼一", "杀人"), OpenDay(), Ballots("exile", (("民一", "狼二"),)))
        assert not feedback(g.apply(CloseDay()).events, "守墓")  # the night's 恐惧 is not in yet
        out = g.apply(act("梦魇", "恐惧", frightened))
        assert [f.target for f in feedback(out.events, "守墓")] == (["狼二"] if told else [])
        assert not feedback(g.apply(act("狼一", "杀人")).events, "守墓")  # told once, or not at all


def test_a_feedback_waiting_for_a_night_action_the_post_lacks_is_refused_in_chinese():
    with pytest.raises(RuleFileError) as exc:
        load_text(post(("守墓人", GOOD, {"good": GOOD, "waits_for": ["恐惧"]})))
    assert "<守墓人>的 waits_for 中的「恐惧」不是本帖的夜晚行动" in str(exc.value)


def test_silenced_player_may_be_kept_from_voting():
    g = game(("禁言长老", GOOD, {"may_vote": False}))
    ok(g, CloseDay())
    refused(g, act("禁言长老", "禁言", "禁言长老"), "不能选择自己")
    ok(g, act("禁言长老", "禁言", "民一"), act("狼一", "杀人"), OpenDay())
    out = g.apply(Ballots("exile", (("民一", "狼一"), ("民二", "狼一"))))
    assert any("民一 今天不能投票" in w for w in out.warnings)


def test_dream_catcher_refuses_himself_and_stops_poison():
    g = game(("摄梦人", GOOD, {"protects_from": ["杀人", "毒药"]}), ("女巫", GOOD, WITCH))
    ok(g, CloseDay())
    refused(g, act("摄梦人", "摄梦", "摄梦人"), "不能选择自己")
    ok(g, act("摄梦人", "摄梦", "民一"), act("狼一", "杀人"), act("女巫", "毒药", "民一"), OpenDay())
    assert "民一" not in dead(g)


def test_identity_checks_read_the_identity_and_the_gargoyle_joins_the_pack():
    g = game(("通灵师", GOOD, {}), ("石像鬼", WOLF, {}))
    ok(g, CloseDay())
    refused(g, act("通灵师", "查验", "通灵师"), "不能选择自己")
    out = g.apply(act("通灵师", "查验", "石像鬼"))
    assert feedback(out.events, "查验")[0].result == "石像鬼"
    out = g.apply(act("石像鬼", "窥视", "通灵师"))
    assert feedback(out.events, "窥视")[0].result == "通灵师"
    refused(g, act("石像鬼", "杀人", "民一"), "只有狼群成员")
    ok(g, act("狼一", "杀人", "狼二"), OpenDay(), Ballots("exile", (("民一", "狼一"),)), CloseDay())
    refused(g, act("通灵师", "查验", "狼一"), "已出局")
    ok(g, act("石像鬼", "杀人", "通灵师"), OpenDay())
    assert "通灵师" in dead(g)


def test_pure_white_takes_a_wolf_out_from_night_two():
    g = game(("纯白之女", GOOD, {"kills": WOLF}))
    ok(g, CloseDay(), act("纯白之女", "洞察", "狼一"), act("狼一", "杀人"), OpenDay(), CloseDay())
    assert "狼一" not in dead(g)
    ok(g, act("纯白之女", "洞察", "狼二"), act("狼一", "杀人"), OpenDay())
    assert "狼二" in dead(g)


def test_magician_refusals():
    g = game(("魔术师", GOOD, {}))
    ok(g, CloseDay())
    refused(g, act("魔术师", "交换", "民一"), "需要两个目标")
    refused(g, act("魔术师", "交换", ["民一", "民一"]), "两名不同的角色")
    ok(g, act("魔术师", "交换", ["民一", "狼一"]), act("狼一", "杀人", "民一"), OpenDay())
    assert dead(g) == {"狼一"}  # the pack's kill on 民一 lands on the swapped 狼一


def test_witch_hunter_waits_for_night_two_dies_on_a_villager_and_is_not_poisoned():
    g = game(("猎魔人", GOOD, {"wolves": WOLF}), ("女巫", GOOD, WITCH))
    ok(g, CloseDay())
    refused(g, act("猎魔人", "狩猎", "狼一"), "从第2夜起")
    ok(g, act("狼一", "杀人"), act("女巫", "毒药", "猎魔人"), OpenDay())
    assert "猎魔人" not in dead(g)
    ok(g, CloseDay(), act("猎魔人", "狩猎", "民一"), act("狼一", "杀人"), OpenDay())
    assert dead(g) == {"猎魔人"}


def test_evil_knight_is_not_killed_and_turns_the_poison_back():
    g = game(("恶灵骑士", WOLF, {}, "狼群"), ("女巫", GOOD, WITCH))
    ok(g, CloseDay(), act("狼一", "杀人", "恶灵骑士"), act("女巫", "毒药", "恶灵骑士"), OpenDay())
    assert dead(g) == {"女巫"}


def test_wild_child_chooses_once_and_turns_wolf_when_his_model_goes_out():
    g = game(("野孩子", GOOD, {"becomes": WOLF, "joins_team": "狼群"}))
    refused(g, act("野孩子", "榜样", "野孩子"), "须选择一名其他角色")
    ok(g, act("野孩子", "榜样", "民一"))
    refused(g, act("野孩子", "榜样", "民二"), "限定技")
    ok(g, CloseDay(), act("狼一", "杀人", "民一"), OpenDay())
    child = g.state.player("野孩子")
    assert child.faction == WOLF and "野孩子" in g.state.teams["狼群"]


def test_wolf_king_cannot_shoot_after_his_own_self_destruct():
    g = game(("黑狼王", WOLF, {}, "狼群"))
    ok(g, CloseDay(), act("狼一", "杀人"), OpenDay(), act("黑狼王", "自爆"))
    refused(g, act("黑狼王", "开枪", "民一"), "现在不能发动<开枪>")


def test_bear_roars_when_a_neighbour_is_a_wolf():
    # seats: 狼一 狼二 民一 民二 熊 — the bear's nearest living neighbours are 民二 and (wrapping round) 狼一
    g = game(("熊", GOOD, {"wolves": WOLF}))
    ok(g, CloseDay(), act("狼一", "杀人"))
    out = g.apply(OpenDay())
    assert any("熊咆哮了" in getattr(e, "text", "") for e in out.events)


def test_fox_loses_the_skill_where_no_wolf_is_found():
    g = game(("狐狸", GOOD, {"wolves": WOLF}), ("平民甲", GOOD, {}, None, "村民"), ("平民乙", GOOD, {}, None, "村民"))
    ok(g, CloseDay())
    out = g.apply(act("狐狸", "嗅探", "平民甲"))  # 平民甲 between 狐狸 and 平民乙: no wolf
    assert feedback(out.events, "嗅探")[0].result is False
    ok(g, act("狼一", "杀人"), OpenDay(), CloseDay())
    refused(g, act("狐狸", "嗅探", "狼一"), "狐狸 已经失去了<嗅探>")
    assert not any(who == "狐狸" for who, _ in g.rules.awaiting(g))


def test_the_elders_first_life_is_his_first_unsaved_attack_and_his_curse_takes_the_bound_skills():
    # 长寿之命: "长老第一次被有效指杀时不会出局；当长老因投票……而出局后，预言家、守卫将失去技能。"
    elder = {"first_life_from": ["杀人"], "curses": ["投票"], "bound": {"预言家": ["预言"], "守卫": ["守护"]}}
    g = game(("长老", GOOD, elder), ("预言家", GOOD, {"good": GOOD}), ("守卫", GOOD, {}))
    ok(g, CloseDay(), act("守卫", "守护", "长老"), act("狼一", "杀人", "长老"), act("预言家", "放弃"), OpenDay())
    assert "长老" not in dead(g) and not g.state.player("长老").marks  # guarded: no effective attack
    ok(g, CloseDay(), act("守卫", "守护", "民一"), act("狼一", "杀人", "长老"), act("预言家", "放弃"), OpenDay())
    assert "长老" not in dead(g)  # his first effective attack
    out = g.apply(Ballots("exile", (("狼一", "长老"), ("狼二", "长老"))))
    assert out.ok and "长老" in dead(g)
    # the identities in the file's order (the post helper writes its keys sorted)
    assert any(e.audience == "director" and e.text == "长老因投票出局：守卫、预言家失去技能" for e in out.events if isinstance(e, Notice))
    ok(g, CloseDay())
    assert g.rules.awaiting(g) == [("狼群", "杀人")]  # neither the seer nor the guard is asked tonight
    refused(g, act("预言家", "预言", "狼一"), "预言家 已经失去了<预言>")
    refused(g, act("守卫", "守护", "民一"), "守卫 已经失去了<守护>")
    ok(g, act("狼一", "杀人", "民一"), OpenDay())
    assert "民一" in dead(g)  # nobody guarded him


def test_an_elder_whose_first_life_names_no_harm_of_the_post_is_refused_in_chinese():
    with pytest.raises(RuleFileError) as caught:
        game(("长老", GOOD, {"first_life_from": ["决斗"], "curses": [], "bound": {}}))
    assert "<长老>的 first_life_from 中的「决斗」不是本帖的结算步骤（可以结算的：杀人）" in str(caught.value)


def test_nightmare_frightens_a_player_out_of_his_night():
    g = game(("梦魇", WOLF, {}, "狼群"), ("预言家", GOOD, {"good": GOOD}))
    ok(g, CloseDay(), act("梦魇", "恐惧", "预言家"))
    refused(g, act("预言家", "预言", "梦魇"), "今晚失去了<预言>")
    ok(g, act("狼一", "杀人"), OpenDay(), CloseDay())
    refused(g, act("梦魇", "恐惧", "预言家"), "不能连续两晚")


def test_piper_refusals():
    g = game(("吹笛者", PIPER, {}))
    ok(g, CloseDay())
    refused(g, act("吹笛者", "吹笛", ["吹笛者", "民一"]), "须选择其他角色")
    ok(g, act("吹笛者", "吹笛", ["民一", "民二"]), act("狼一", "杀人"), OpenDay(), CloseDay())
    refused(g, act("吹笛者", "吹笛", ["民一", "狼一"]), "已经被迷惑")


def test_rusty_knight_takes_the_nearest_wolf_on_his_left_the_next_night():
    g = game(("锈剑骑士", GOOD, {"wolves": WOLF}))
    ok(g, CloseDay(), act("狼一", "杀人", "锈剑骑士"), OpenDay(), CloseDay(), act("狼一", "杀人"), OpenDay())
    assert dead(g) == {"锈剑骑士", "狼二"}  # seats 狼一 狼二 民一 民二 锈剑骑士: his left is 民二, 民一, then 狼二


def test_bomber_takes_those_who_voted_for_him():
    g = game(("炸弹人", GOOD, {}))
    ok(g, CloseDay(), act("狼一", "杀人"), OpenDay(), Ballots("exile", (("狼一", "炸弹人"), ("民一", "炸弹人"), ("狼二", "民一"))))
    assert dead(g) == {"炸弹人", "狼一", "民一"}


def test_blood_moon_apostle_seals_the_village_the_night_after_his_self_destruct():
    g = game(("血月使徒", WOLF, {"sealed": GOOD}, "狼群"), ("预言家", GOOD, {"good": GOOD}))
    ok(g, CloseDay(), act("狼一", "杀人"), OpenDay(), act("血月使徒", "自爆"), CloseDay())
    refused(g, act("预言家", "预言", "狼一"), "今晚失去了<预言>")
    assert ("预言家", "预言") not in g.rules.awaiting(g)


def test_a_check_after_the_magicians_swap_reads_the_other_player():
    g = game(("魔术师", GOOD, {}), ("预言家", GOOD, {"good": GOOD}), ("通灵师", GOOD, {}))
    ok(g, CloseDay(), act("魔术师", "交换", ["民一", "狼一"]))
    out = g.apply(act("预言家", "预言", "民一"))
    assert feedback(out.events, "预言")[0].result == "非" + GOOD
    out = g.apply(act("通灵师", "查验", "狼一"))
    assert feedback(out.events, "查验")[0].result == "村民"


def test_a_poisoned_hunter_is_told_at_dawn_that_he_cannot_shoot():
    g = game(("猎人", GOOD, {}, None, "开枪猎人"), ("女巫", GOOD, WITCH))
    ok(g, CloseDay(), act("狼一", "杀人"))
    out = g.apply(act("女巫", "毒药", "猎人"))
    assert not any("不能<开枪>" in getattr(e, "text", "") for e in out.events)
    out = g.apply(OpenDay())
    assert any(getattr(e, "audience", "") == "player:猎人" and "不能<开枪>" in e.text for e in out.events)


def test_a_post_that_leaves_out_a_new_identitys_parameter_or_slot_is_refused_in_chinese():
    text = (Path(__file__).resolve().parents[1] / "rulesets" / "s12.yaml").read_text(encoding="utf-8")
    for old, new, words in (
            ("params: {self_guard: true, same_save_dies: true}", "params: {same_save: true}", "「守卫」没有参数「same_save」"),
            ("night_order: [守护, 杀人, 女巫, 预言]", "night_order: [杀人, 女巫, 预言]", "夜晚行动「守护」没有列入夜晚行动顺序"),
            ("settlement: [杀人, 同守同救, 毒药]", "settlement: [杀人, 毒药]", "结算步骤「同守同救」没有列入夜晚结算顺序")):
        assert old in text
        with pytest.raises(RuleFileError) as exc:
            load_text(text.replace(old, new))
        assert words in str(exc.value)


def test_the_swap_and_the_fright_must_lead_the_night_order_and_the_swap_the_settlement():
    """"魔术师最先行动", "恐惧：每晚最先行动": a file that orders either after another night action, or settles the swap
    after another step, is refused at that item, by its line; the two first, in either order, are sound."""
    text = post(("魔术师", GOOD, {}), ("梦魇", WOLF, {}, "狼群"))
    assert "- 交换\n- 恐惧\n- 杀人\n" in text and "settlement:\n- 交换\n- 杀人\n" in text
    load_text(text.replace("- 交换\n- 恐惧\n", "- 恐惧\n- 交换\n"))
    for old, new, key, words in (
            ("- 交换\n- 恐惧\n- 杀人\n", "- 交换\n- 杀人\n- 恐惧\n", "night_order.3",
             "「恐惧」应排在夜晚行动顺序的最前（梦魇每晚最先行动），不能排在「杀人」之后"),
            ("settlement:\n- 交换\n- 杀人\n", "settlement:\n- 杀人\n- 交换\n", "settlement.2",
             "「交换」应排在夜晚结算顺序的最前（魔术师每晚最先行动），不能排在「杀人」之后")):
        wrong = text.replace(old, new)
        with pytest.raises(RuleFileError) as caught:
            load_text(wrong)
        (problem,) = caught.value.problems
        lines = wrong.splitlines()
        at = lines.index(new.splitlines()[-1], lines.index(new.splitlines()[0])) + 1
        assert (problem.key, problem.line) == (key, at) and words in str(problem), problem


ELOPED = "情侣阵营"
LOVERS = {"mixed": ELOPED, "leaves": "狼群", "group": "情侣群", "no_group_for": [WOLF], "self_pick": False}


def told(out, who: str) -> str:
    return "\n".join(e.text for e in out.events if isinstance(e, Notice) and e.audience == f"player:{who}")


def test_cupid_refuses_himself_where_the_post_says_and_a_second_arrow():
    g = game(("丘比特", GOOD, LOVERS), formed=(ELOPED,))
    refused(g, act("丘比特", "丘比特之箭", ["丘比特", "民一"]), "不能选择自己")
    refused(g, act("丘比特", "丘比特之箭", ["民一", "民一"]), "两名不同的角色")
    refused(g, act("丘比特", "丘比特之箭", "民一"), "须选择两名角色")
    ok(g, act("丘比特", "丘比特之箭", ["狼一", "民一"]))
    refused(g, act("丘比特", "丘比特之箭", ["狼二", "民二"]), "已经发动过")
    ok(g, CloseDay())
    refused(g, act("丘比特", "丘比特之箭", ["狼二", "民二"]), "只能在游戏开始时发动")


def test_lovers_of_two_factions_elope_into_their_own_and_the_wolf_leaves_the_pack():
    g = game(("丘比特", GOOD, LOVERS), formed=(ELOPED,))
    assert ELOPED not in g.rules.factions(g)
    ok(g, act("丘比特", "丘比特之箭", ["狼一", "民一"]))
    out = g.apply(CloseDay())
    s = g.state
    assert {s.player(n).faction for n in ("狼一", "民一", "丘比特")} == {ELOPED}
    assert s.teams["狼群"] == ["狼二"] and s.teams["情侣群"] == ["狼一", "民一"]
    assert g.rules.factions(g)[-1] == ELOPED
    assert "离开狼群" in told(out, "狼一") and "离开" not in told(out, "民一")
    assert "变为【情侣阵营】" in told(out, "丘比特")
    refused(g, act("狼一", "杀人", "民二"), "只有狼群成员")
    # 殉情: the wolf goes out with the villager the pack kills
    ok(g, act("狼二", "杀人", "民一"), OpenDay())
    assert dead(g) == {"狼一", "民一"}


def test_lovers_of_one_faction_keep_it_and_two_wolves_get_no_group_of_their_own():
    g = game(("丘比特", GOOD, LOVERS), formed=(ELOPED,))
    ok(g, act("丘比特", "丘比特之箭", ["狼一", "狼二"]), CloseDay())
    s = g.state
    assert s.player("狼一").faction == WOLF and s.player("丘比特").faction == WOLF
    assert "情侣群" not in s.teams and s.teams["狼群"] == ["狼一", "狼二"]
    assert ELOPED not in g.rules.factions(g)


def test_without_a_faction_of_their_own_lovers_stay_in_theirs_and_a_spared_cause_takes_one_alone():
    g = game(("丘比特", GOOD, {"spared_causes": ["红牌"], "follows": False}))
    ok(g, act("丘比特", "丘比特之箭", ["狼一", "民一"]), CloseDay())
    s = g.state
    assert (s.player("狼一").faction, s.player("民一").faction, s.player("丘比特").faction) == (WOLF, GOOD, GOOD)
    assert "狼一" in s.teams["狼群"]
    ok(g, Card("红牌", "民一"))
    assert dead(g) == {"民一"}
    ok(g, act("狼二", "杀人", "民二"), OpenDay())
    assert dead(g) == {"民一", "民二"}


def test_a_cupid_who_did_not_choose_is_given_a_pair_and_told_it():
    g = game(("丘比特", GOOD, LOVERS), formed=(ELOPED,))
    out = g.apply(CloseDay())
    assert out.ok, out.error
    pair = g.state.carry["lovers"]
    assert len(set(pair)) == 2 and "丘比特" not in pair
    assert "已随机选择" in told(out, "丘比特")
    assert all(g.state.player(n).marks["情侣"] in pair for n in pair)


def test_a_sister_made_a_lover_loses_her_group_wherever_the_file_lists_the_cupid():
    g = game(("两姐妹", GOOD, {"lovers_split": True}, "姐妹群"), ("丘比特", GOOD, {}))
    ok(g, act("丘比特", "丘比特之箭", ["两姐妹", "民一"]))
    out = g.apply(CloseDay())
    assert "姐妹群" not in g.state.teams and "默契" in g.state.player("两姐妹").lost
    assert "失去<默契>" in told(out, "两姐妹")


DEPUTY_POST = Path(__file__).parent / "scenarios" / "posts" / "deputy.yaml"
DEPUTY_SEATS = [("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "预言家"), ("戊", "猎人"), ("己", "白痴"),
                ("庚", "村民"), ("辛", "村民"), ("壬", "村民")]


def deputy_game(sheriff: str) -> Game:
    """posts/deputy.yaml after night 1 and the election of `sheriff`."""
    g = Game(load_text(DEPUTY_POST.read_text()), DEPUTY_SEATS, seed=1)
    ok(g, CloseDay(), act("甲", "杀人", "壬"), act("丁", "放弃"), OpenDay(), Ballots("election", (("甲", sheriff), ("乙", sheriff))))
    return g


def public(out) -> str:
    return "\n".join(e.text for e in out.events if isinstance(e, Notice) and e.audience == "public")


def test_the_deputy_is_appointed_again_when_he_goes_out_and_at_random_when_the_sheriff_lets_it_pass():
    # 任命: "警长当选后须立即任命一名执警，不能任命自己；警长或执警出局后，警长重新任命执警。"
    g = deputy_game("庚")
    refused(g, act("庚", "任命", "庚"), "不能任命自己为执警")
    out = g.apply(act("庚", "任命", "辛"))
    assert "警长 7号 庚 任命 8号 辛 为执警" in public(out) and told(out, "辛") == "你被任命为执警。"
    assert g.rules.officers(g) == [("警长", "庚"), ("执警", "辛")]
    ok(g, OpenDay(), CloseDay(), act("甲", "杀人", "辛"), act("丁", "放弃"))
    out = g.apply(OpenDay())
    assert "须<任命>一名执警" in told(out, "庚") and g.rules.officers(g)[1] == ("执警", None)
    ok(g, CloseDay())
    out = g.apply(Timeout(g.pending_for("庚", "任命").key))
    deputy = g.rules.officers(g)[1][1]
    assert deputy not in (None, "庚") and g.state.player(deputy).alive
    assert f"警长 7号 庚 未任命执警，随机任命 {g.label(g.state.player(deputy))} 为执警" in public(out)


def test_an_idiot_asked_first_stays_out_of_every_vote_or_goes_out_by_his_days_vote_when_his_time_passes():
    # "白痴被投票放逐时，可以发动<装傻>免于出局……此后不能投票、不能成为投票对象"
    g = deputy_game("庚")
    ok(g, act("庚", "任命", "辛"), OpenDay(), Ballots("exile", (("甲", "己"), ("乙", "己"))))
    assert g.state.player("己").alive and g.pending_for("己", "装傻")
    out = g.apply(act("己", "装傻"))
    assert "6号 己 发动<装傻>，免于出局。" in public(out) and g.state.player("己").alive
    ok(g, CloseDay(), act("甲", "杀人", "辛"), act("丁", "放弃"), OpenDay())
    assert g.state.day.may_not_vote["己"] == g.state.day.may_not_be_voted["己"] == "白痴已发动<装傻>"
    # the idiot sheriff who lets his time pass: out by his day's vote, and his badge with no heir asked
    g = deputy_game("己")
    ok(g, act("己", "任命", "辛"), OpenDay(), Ballots("exile", (("甲", "己"), ("乙", "己"))), CloseDay())
    out = g.apply(Timeout(g.pending_for("己", "装傻").key))
    assert g.state.player("己").death[:2] == ("day", 2) and g.state.sheriff is None
    assert "6号 己 未移交警徽，本局不再有警长" in public(out) and not g.pending_for("己", "殉职")
