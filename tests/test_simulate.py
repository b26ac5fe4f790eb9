"""`python -m engine simulate` and the director's 模拟: balance from simulated games of a post.

1. The same seed gives the same table, in one process or several; another seed other games.
2. `--dump` writes games that `python -m engine replay` replays to their own `expect:` block (checked by
   `python -m engine replay --check`), `--set moons=none` included; an unknown key is refused, in Chinese,
   with the keys there are.
3. The human-like players play as people do: wolves never attack a packmate, the seer never checks a
   player twice, the witch saves on night 1 whoever was attacked, the village votes out the wolf a
   claimed seer named.
4. Without matplotlib the table still comes, with how to install the chart.
5. The director's `模拟`: answered at once, the table and the chart (an image) sent when done; bad
   requests and a second run at a time are refused.
"""
from __future__ import annotations

import asyncio
import base64
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine import balance
from engine.simulation import Simulation
from rulesets import get

ROOT = Path(__file__).resolve().parents[1]


def _table(rid: str, games: int, seed: int, jobs: int, kinds=None, options=None) -> str:
    kinds = kinds or {"*": "human"}
    return balance.table(get(rid), balance.run(rid, games, seed, kinds, options or {}, jobs=jobs), kinds, seed, options or {})


# --- 1. the same seed, the same table -------------------------------------------------------------------------
def test_the_same_seed_gives_the_same_table_in_one_process_or_two():
    one = _table("146", 8, 5, jobs=1)
    assert one == _table("146", 8, 5, jobs=2)
    assert one != _table("146", 8, 6, jobs=1)
    lines = one.splitlines()
    assert lines[0] == "[146]《创造营2021》 模拟 8 局（种子 5；玩家：全部拟人）"
    shares = [line for line in lines if line.startswith("  ")]
    assert [s.split()[0] for s in shares][:2] == ["狼人阵营", "村民阵营"]
    assert sum(int(s.rsplit("，", 1)[1].removesuffix(" 局）")) for s in shares) == 8
    assert any(line.startswith("局长（天）：中位数 ") for line in lines)
    assert any(line.startswith("存活率：狼王 ") for line in lines)
    assert any(line.startswith("结束方式：") for line in lines)


def test_the_command_line_prints_both_kinds_when_asked(capsys):
    assert balance.main(["M131", "--games", "4", "--seed", "2", "--players", "both", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "玩家：全部拟人）" in out and "玩家：全部均匀随机）" in out
    assert balance.main(["M131", "--games", "3", "--players", "狼人阵营=uniform", "--jobs", "1"]) == 0
    assert "玩家：狼人阵营均匀随机、其余拟人）" in capsys.readouterr().out
    assert balance.main(["M131", "--games", "3", "--players", "狼阵营=uniform"]) == 2
    assert "M131 没有「狼阵营」：阵营有 狼人阵营、村民阵营" in capsys.readouterr().err


# --- 2. dumped games replay to their own expectations ------------------------------------------------------
def test_dumped_games_replay_and_pass_their_expect_blocks(tmp_path):
    for rid, kinds in (("M131", {"*": "human"}), ("146", {"*": "uniform"}), ("154", {"*": "human"})):
        balance.run(rid, 1, 3, kinds, {}, dump=str(tmp_path), jobs=1)
    balance.run("146", 1, 4, {"*": "human"}, balance.settings(get("146"), ["moons=none"]), dump=str(tmp_path / "none"), jobs=1)
    files = sorted(tmp_path.glob("*.yaml")) + sorted((tmp_path / "none").glob("*.yaml"))
    assert len(files) == 4
    doc = yaml.safe_load(files[-1].read_text(encoding="utf-8"))
    assert doc["moons"] == "none" and doc["expect"]["winner"]
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", *map(str, files), "--check"],
                          cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 passed, 0 failed" in proc.stdout


def test_a_post_file_not_yet_added_is_simulated_and_its_dumped_games_replay(tmp_path, capsys):
    # a director's new post, before 规则帖 adds it: simulated from its file, the same file `python -m engine check` reads
    post = ROOT / "tests" / "scenarios" / "posts" / "pick.yaml"
    assert balance.main([str(post), "--games", "6", "--seed", "1", "--jobs", "2", "--dump", str(tmp_path / "games")]) == 0
    out = capsys.readouterr().out
    assert out.startswith("警长决定平票 模拟 6 局（种子 1；玩家：全部拟人）") and "存活率：狼人 " in out
    files = sorted((tmp_path / "games").glob("T-PICK-1-*.yaml"))
    assert len(files) == 6 and "rule_file" in yaml.safe_load(files[0].read_text(encoding="utf-8"))
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", *map(str, files), "--check"],
                          cwd=tmp_path, capture_output=True, text=True, encoding="utf-8", timeout=120)
    assert proc.returncode == 0 and "6 passed, 0 failed" in proc.stdout, proc.stdout + proc.stderr


def test_a_wrong_or_missing_post_file_is_refused_in_chinese(tmp_path, capsys):
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text((ROOT / "tests" / "scenarios" / "posts" / "pick.yaml").read_text(encoding="utf-8")
                     .replace("players: 8", "players: 9"), encoding="utf-8")
    assert balance.main([str(wrong), "--games", "2"]) == 2
    err = capsys.readouterr().err
    assert "wrong.yaml 有 1 处问题" in err and "与人数 9 不符" in err
    assert balance.main([str(tmp_path / "absent.yaml"), "--games", "2"]) == 2
    assert "无法读取" in capsys.readouterr().err
    assert balance.main(["S13", "--games", "2"]) == 2
    assert "没有规则「S13」：可以模拟的有 M131、146、154、S12、S16，或一个规则帖文件的路径" in capsys.readouterr().err


def test_an_unknown_setting_is_refused_with_the_keys_there_are(capsys):
    assert balance.main(["146", "--games", "2", "--set", "wolves=7"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("146 没有设置「wolves」。可以设置的参数：moons：")
    assert balance.main(["M131", "--games", "2", "--set", "moons=none"]) == 2
    assert "M131 没有设置「moons」。可以设置的参数：（无）" in capsys.readouterr().err
    assert balance.main(["146", "--games", "2", "--set", "moons=满月"]) == 2
    assert "设置不可用：没有这些新月事件：满月" in capsys.readouterr().err


def test_a_setting_changes_the_games():
    none = balance.settings(get("146"), ["moons=none"])
    game = Simulation(get("146"), 11, {}, "human", none)
    game.play()
    assert game.s.moons == [] and game.s.winner
    with_moons = Simulation(get("146"), 11, {}, "human", {})
    with_moons.play()
    assert with_moons.s.moons


# --- 3. the human-like players --------------------------------------------------------------------------------
class Watched(Simulation):
    """A simulated game that notes, at each exile count, whom a claimed seer had named (and may be voted)."""

    def __init__(self, *args):
        super().__init__(*args)
        self.counts: list[tuple[list[str], dict[str, str]]] = []

    def count(self, kind: str) -> bool:
        named = [n for n in self.view.board.named if self.s.player(n).alive and n not in self.s.day.may_not_be_voted]
        before = len(self.played.steps)
        ok = super().count(kind)
        if ok and kind == "exile":
            self.counts.append((named, self.played.steps[before]["vote"]))
        return ok


def _games(rid: str, n: int) -> list[Watched]:
    out = []
    for seed in range(n):
        w = Watched(get(rid), seed, {}, "human", {})
        w.play()
        out.append(w)
    return out


@pytest.mark.parametrize("rid,pack", [("M131", "狼群"), ("146", "狼群"), ("154", "女鬼群")])
def test_wolves_never_attack_a_packmate_and_the_seer_never_checks_twice(rid, pack):
    attacks = 0
    for w in _games(rid, 12):
        members = set(w.s.teams[pack])
        seers = {n for n, role in w.roster if role in ("预言家", "除妖道士")}
        checks = [s["target"] for s in w.played.steps if isinstance(s, dict) and s.get("act") == "预言" and s["by"] in seers]
        assert len(checks) == len(set(checks)), checks
        for step in w.played.steps:
            if isinstance(step, dict) and step.get("act") in ("杀人", "吸精", "冲锋") and step["by"] in members:
                attacks += step.get("target") is not None
                assert step.get("target") not in members, step
    assert attacks >= 12


def _night(steps: list, number: int) -> list:
    """The steps of night `number`: from its `night` step to the next `day`."""
    start = [i for i, s in enumerate(steps) if s == "night"][number - 1]
    end = next((i for i in range(start, len(steps)) if steps[i] == "day"), len(steps))
    return steps[start:end]


@pytest.mark.parametrize("rid", ["M131", "146"])
def test_the_witch_saves_whoever_was_attacked_on_night_1(rid):
    saves = 0
    for w in _games(rid, 12):
        witch = next(n for n, role in w.roster if role == "女巫")
        sensed = [f["result"] for f in w.s.feedback if f["to"] == witch and f["skill"] == "通灵" and f["number"] == 1]
        if not sensed or not sensed[0] or sensed[0][0] == witch:
            continue
        saves += 1
        assert {"act": "救药", "by": witch, "target": sensed[0][0]} in _night(w.played.steps, 1), sensed
    assert saves >= 6


def test_the_village_votes_out_the_wolf_a_claimed_seer_named():
    seen = 0
    for w in _games("146", 12):
        for named, ballots in w.counts:
            if not named:
                continue
            seen += 1
            village = [v for v in ballots if w.view.good(v) and v not in named]
            assert village and all(ballots[v] == named[0] for v in village), (named, ballots)
    assert seen >= 3


# --- 4. no matplotlib -----------------------------------------------------------------------------------------
def test_without_matplotlib_the_table_still_comes(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    chart = tmp_path / "c.png"
    assert balance.main(["M131", "--games", "2", "--jobs", "1", "--chart", str(chart)]) == 0
    out, err = capsys.readouterr()
    assert "胜率（95% 区间）：" in out
    assert "pip install 'banshabot[sim]'" in err and not chart.exists()


# --- 5. the director's 模拟 -----------------------------------------------------------------------------------
class FakeService:
    def __init__(self):
        self.sent: list[tuple] = []
        self.players: dict = {}  # whom the service knows to play: nobody

    async def queue(self, to, text, game_id=None):
        self.sent.append(("text", to, text))

    async def act(self, action, params, game_id=None):
        self.sent.append((action, params))

    async def delivered(self):
        pass


async def test_the_directors_simulation_answers_and_sends_the_table_and_the_chart():
    from service import director, simulate

    service = FakeService()
    reply = await director.handle(service, "10001", "模拟 M131 3", friends=None)
    assert reply == "模拟已开始：M131 3 局（种子 0）。完成后把胜率表和图发给你，不影响进行中的游戏。"
    assert await director.handle(service, "10001", "模拟 146 3", friends=None) == (
        "你的上一次模拟还没有结束：结束后会把结果发给你，之后再发新的模拟。")
    await asyncio.wait_for(simulate.running["10001"], 60)
    (kind, to, text), (action, params) = service.sent
    assert (kind, to, action) == ("text", ("private", "10001"), "send_private_msg")
    assert text.startswith("[M131]粽子 模拟 3 局（种子 0；玩家：全部拟人）\n胜率（95% 区间）：")
    assert params["user_id"] == 10001
    assert base64.b64decode(params["image"].removeprefix("base64://"))[:8] == b"\x89PNG\r\n\x1a\n"
    assert "10001" not in simulate.running


async def test_the_directors_simulation_plays_a_post_he_sent(clean):
    # a post sent over QQ is kept in the database, not among rulesets/: its text goes to the simulation's process.
    # This one was sent to another bot process: this one reads it from the database when 模拟 names it.
    import rulesets
    from service import director, simulate
    from service.models import RulePostRow

    text = (ROOT / "tests" / "scenarios" / "posts" / "pick.yaml").read_text(encoding="utf-8")
    await RulePostRow.create(id="T-PICK", owner="10003", text=text)
    assert "T-PICK" not in rulesets.RULESETS
    try:
        service = FakeService()
        assert (await director.handle(service, "10003", "模拟 T-PICK 3", friends=None)).startswith("模拟已开始：T-PICK 3 局")
        await asyncio.wait_for(simulate.running["10003"], 60)
        kind, to, table = service.sent[0]
        assert table.startswith("警长决定平票 模拟 3 局（种子 0；玩家：全部拟人）\n胜率（95% 区间）："), table
    finally:
        rulesets.RULESETS.pop("T-PICK", None)


async def test_a_simulation_that_breaks_before_it_runs_is_still_answered(monkeypatch):
    # no silent failure: a post whose kept text cannot be read gets the director an answer, not only a log line
    import rulesets
    from engine.rulecheck import load_text
    from service import director, simulate
    from service.models import RulePostRow

    async def unreadable(**_):
        raise OSError("磁盘错误")

    monkeypatch.setattr(RulePostRow, "get", unreadable)
    rulesets.add(load_text((ROOT / "tests" / "scenarios" / "posts" / "pick.yaml").read_text(encoding="utf-8")))
    try:
        service = FakeService()
        await director.handle(service, "10004", "模拟 T-PICK 3", friends=None)
        await asyncio.wait_for(simulate.running["10004"], 60)
        assert service.sent == [("text", ("private", "10004"), "模拟失败（T-PICK 3 局）：内部错误，已记入日志。")]
    finally:
        del rulesets.RULESETS["T-PICK"]


@pytest.mark.parametrize("text,why", [
    ("模拟 146", "请发送“模拟 规则 局数 [种子]”"),
    ("模拟 999 10", "没有规则「999」"),
    ("模拟 146 0", "局数「0」不可用：应为 1–5000 的整数"),
    ("模拟 146 5001", "局数「5001」不可用：应为 1–5000 的整数"),
    ("模拟 146 10 x", "种子「x」不可用：应为不超过9位的非负整数"),
])
async def test_a_bad_simulation_request_is_refused(clean, text, why):
    from service import director, simulate

    service = FakeService()
    reply = await director.handle(service, "10002", text, friends=None)
    assert reply.startswith(why) or why in reply, reply
    assert "10002" not in simulate.running and not service.sent
