"""Rule posts as data files (rulesets/*.yaml) made of the library (engine/library/): what `python -m engine
check` says of a wrong file, what `roles` lists, and that a post turned into a file keeps every game
started under its module playing (its snapshot is the module's)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.rulecheck import load_text
from engine.rulefile import RuleFileError
from engine.snapshot import changes, snapshot
from rulesets import FILES, get

ROOT = Path(__file__).resolve().parents[1]
M131_FILE = ROOT / "rulesets" / "m131.yaml"


def _engine(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          encoding="utf-8", timeout=60)


@pytest.mark.parametrize("ruleset_id", ["M131", "146", "154"])
def test_a_post_made_a_file_plays_what_its_module_played(ruleset_id):
    """The snapshot a game keeps (engine/snapshot.py), taken from the module before it became a file: a game
    started then finds nothing changed and goes on."""
    stored = json.loads((ROOT / "tests" / "data" / f"snapshot-{ruleset_id}.json").read_text(encoding="utf-8"))
    rules = get(ruleset_id)
    assert changes(stored, rules) == []
    assert snapshot(rules, rules.configure({})) == stored


def test_every_shipped_file_checks():
    import rulesets

    assert FILES and not rulesets.LEFT_OUT
    for path in FILES:
        proc = _engine("check", str(path))
        assert proc.returncode == 0, proc.stderr
        assert "检查通过" in proc.stdout


def _wrong(tmp_path, old: str, new: str) -> subprocess.CompletedProcess:
    text = M131_FILE.read_text(encoding="utf-8")
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1), encoding="utf-8")
    return _engine("check", str(bad))


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("old, new, needle, words", [
    ("  - name: 乌鸦\n", "  - name: 渡鸦\n", "name: 渡鸦", "库中没有身份「渡鸦」"),
    ("    count: 4\n", "    count: 5\n", "players: 13", "各身份人数之和为 14，与人数 13 不符"),
    ("    loses_when:\n      - team_out: 狼群           # \"狼群内的角色全部出局\"\n", "", "  狼人阵营:", "该阵营没有判负的条件"),
    ("night_order: [杀人, 女巫, 预言, 诽谤, 最后的守护]", "night_order: [杀人, 女巫, 预言, 诽谤, 最后的守护, 守卫]",
     "night_order:", "夜晚行动「守卫」不属于本帖任何身份或群"),
    ("settlement: [杀人, 附加刀, 毒药, 最后的守护, 诽谤]", "settlement: [杀人, 毒药, 最后的守护, 诽谤]",
     "settlement:", "结算步骤「附加刀」没有列入夜晚结算顺序"),
    ("    params: {good: 村民阵营}", "    params: {good: 村民阵营, colour: red}", "colour: red", "「预言家」没有参数「colour」"),
    ("    params: {good: 村民阵营}", "    params: {}", "params: {}", "「预言家」须给出参数「good」"),
    ("    params: {good: 村民阵营}", "    params: {good: 好人阵营}", "good: 好人阵营", "「好人阵营」不是本帖的阵营"),
    ("  - library: 自爆\n", "  - library: 自刎\n", "library: 自刎", "库中没有技能「自刎」"),
    ("      - all_out: [村民]  ", "      - all_out: [农民]  ", "all_out: [农民]", "「农民」不是本帖的身份"),
    ("announce_order: seat", "anounce_order: seat", "anounce_order", "未知的键"),
    ("players: 13", "players: [13", "players: [13", "不是有效的 YAML"),
    ("announce_order: seat", "ties: {election: sheriffs_vote}\nannounce_order: seat", "election: sheriffs_vote", "只用于放逐投票"),
    ("announce_order: seat", "ties: {day: pk}\nannounce_order: seat", "day: pk", "按投票种类给出"),
    ("announce_order: seat", "ties: {exile: coin}\nannounce_order: seat", "exile: coin", "平票规则应是以下之一"),
    ("  election_day: 1\n  day_after_election: true\n", "ties: {exile: sheriffs_vote}\n", "exile: sheriffs_vote", "本帖没有警长竞选"),
    ("announce_order: seat", "ties: {election: sheriffs_pick}\nannounce_order: seat", "election: sheriffs_pick", "只用于放逐投票"),
    ("announce_order: seat", "ties: {exile: sheriffs_pick}\nannounce_order: seat", "exile: sheriffs_pick", "需要警长决定的时限"),
    ("limits:\n", "ties: {exile: sheriffs_pick}\nlimits:\n  tie_pick: {anchor: close, minutes: 30, text: 关门三十分钟内}\n",
     "tie_pick: {anchor: close", "这个时限不能在关门之后"),
])
def test_a_wrong_file_is_answered_in_chinese_at_its_key_and_line(tmp_path, old, new, needle, words):
    proc = _wrong(tmp_path, old, new)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert words in proc.stderr, proc.stderr
    text = (tmp_path / "bad.yaml").read_text(encoding="utf-8")
    line = _line_of(text, needle)
    assert any(f"第{line}行" in row or f"第{line + 1}行" in row for row in proc.stderr.splitlines() if words in row), proc.stderr


def test_a_file_that_is_no_mapping_or_unreadable_is_answered_too(tmp_path):
    listing = tmp_path / "list.yaml"
    listing.write_text("- 狼人\n- 村民\n", encoding="utf-8")
    proc = _engine("check", str(listing))
    assert proc.returncode == 1 and "映射" in proc.stderr and "Traceback" not in proc.stderr
    proc = _engine("check", str(tmp_path / "absent.yaml"))
    assert proc.returncode == 1 and "无法读取" in proc.stderr and "Traceback" not in proc.stderr


def test_a_wrong_file_never_loads():
    text = M131_FILE.read_text(encoding="utf-8").replace("players: 13", "players: 12")
    with pytest.raises(RuleFileError) as caught:
        load_text(text)
    assert "与人数 12 不符" in str(caught.value)


def test_roles_lists_the_library_one_entry_a_line():
    proc = _engine("roles")
    assert proc.returncode == 0
    rows = proc.stdout.splitlines()
    names = [row.split("\t")[0] for row in rows]
    for name in ("女巫", "预言家", "乌鸦", "锈盾守卫", "混血儿", "感染白痴", "村民", "狼人", "自爆", "共同杀人", "殉职"):
        assert name in names
    witch = rows[names.index("女巫")]
    assert "<救药>" in witch and "self_save=否" in witch
    assert witch.endswith("\t来自：engine/library/witch.py")
    # a post's own identities, registered by the code its file names, are listed with the file they come from
    for name in ("小倩", "宁采臣"):
        assert rows[names.index(name)].endswith("\t来自：rulesets/r154.yaml 的 code: rulesets.r154_ning（本帖独有）")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_change_of_one_line_makes_the_check_fail_other_than_in_chinese(path):
    """Every line of a shipped file deleted, or its value replaced by something of another shape: the check
    either accepts the file or names its problems; it never fails with anything else (a traceback)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    junk = ["", "5", "[1, 2]", "{a: b}", "null", "\"x\""]
    for i, line in enumerate(lines):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        variants = ["\n".join(lines[:i] + lines[i + 1:])]
        if ":" in line:
            head = line[:line.index(":") + 1]
            variants += ["\n".join(lines[:i] + [f"{head} {j}"] + lines[i + 1:]) for j in junk]
        for text in variants:
            try:
                load_text(text)
            except RuleFileError as exc:
                assert exc.problems and all(p.text for p in exc.problems)


def test_a_wrong_file_among_the_posts_is_left_out_and_named(tmp_path, monkeypatch):
    """A director's file that does not check stops none of the other posts: it is left out, its problems kept."""
    import rulesets

    bad = tmp_path / "zz-bad.yaml"
    bad.write_text(M131_FILE.read_text(encoding="utf-8").replace("id: M131", "id: M999").replace("players: 13", "players: 12"),
                   encoding="utf-8")
    monkeypatch.setattr(rulesets, "FILES", [*rulesets.FILES, bad])
    try:
        ids = [r.id for r in rulesets._loaded()]
    finally:
        monkeypatch.undo()
    assert "M131" in ids and "M999" not in ids
    assert "与人数 12 不符" in str(rulesets.LEFT_OUT.pop("zz-bad.yaml"))


def _m131_game(text: str):
    from engine import Act, CloseDay, Game

    names = "甲 乙 丙 丁 戊 己 庚 辛 壬 癸 子 丑 寅".split()
    roles = ["狼人", "狼人", "狼人", "感染白痴", "预言家", "女巫", "乌鸦", "锈盾守卫", "混血儿", "村民", "村民", "村民", "村民"]
    g = Game(load_text(text), list(zip(names, roles)), seed=7)
    for cmd in (Act("壬", "认亲", "癸"), CloseDay(), Act("甲", "杀人", "己")):
        assert g.apply(cmd).ok
    return g


def test_a_post_that_differs_in_a_parameter_needs_only_its_file():
    """Another post: "女巫可以自救" and "警长投票记为2.5票" — M131's file with two values changed plays them."""
    from engine import Act

    text = M131_FILE.read_text(encoding="utf-8")
    witch = _m131_game(text).apply(Act("己", "救药", "己"))
    assert not witch.ok and "不能自救" in witch.error
    other = text.replace("self_save: false", "self_save: true").replace("weight: 3/2", "weight: 5/2")
    g = _m131_game(other)
    assert g.apply(Act("己", "救药", "己")).ok
    assert "2.5票" in g.rules.sheriff_text(g)


def problems_of(text: str) -> str:
    with pytest.raises(RuleFileError) as exc:
        load_text(text)
    return str(exc.value)


def test_a_posts_own_identity_is_refused_in_a_file_that_does_not_name_its_code():
    """154's 宁采臣 and 小倩 ask their ruleset where he is: in a file without 154's code they would break in
    play, so the check refuses them there; 146's own entries likewise."""
    for name, code in (("r154.yaml", "rulesets.r154_ning"), ("r146.yaml", "rulesets.r146")):
        text = (ROOT / "rulesets" / name).read_text(encoding="utf-8").replace(f"code: {code}\n", "")
        assert "是另一个规则帖独有的代码" in problems_of(text.replace('id: "', 'id: "X', 1)), name


def test_yaml_anchors_and_aliases_are_refused_with_their_line():
    text = (ROOT / "rulesets" / "s12.yaml").read_text(encoding="utf-8")
    bomb = text + "extra: &a [*a]\n"
    assert "不能使用 YAML 的锚点和别名" in problems_of(bomb)


def test_a_no_vote_judgement_needs_its_words_and_only_cards_it_names():
    text = (ROOT / "rulesets" / "m131.yaml").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.strip().startswith("no_vote_card:"))
    assert "未投票的判罚应写作" in problems_of(text.replace(line, "  no_vote_card: {cards: [蓝牌]}"))
    assert "未投票的判罚应写作" in problems_of(text.replace(line, "  no_vote_card: {text: 原话, cards: [绿牌]}"))
