"""Scenario files checked against their own `expect:` blocks, and the replay tool's refusal of unusable files.

1. Every `tests/scenarios/*.yaml` is replayed and compared with its `expect:` block by the project's own
   reader (engine/expect.py), one test per file; `python -m engine replay --check` is run as a director
   would, on files that hold and on files that do not. Where the independent checker of the shared
   contract (`../shared/tools/check_scenario.py`) is beside the repository, it reads every file too; a
   clone without it skips that one extra test.
2. `python -m engine replay` exits 2 with one message on stderr and nothing on stdout when the file is
   unusable (docs/scenarios.md: "not YAML, unknown ruleset, unknown identity, a player listed twice,
   identity counts that contradict the ruleset's line-up").
3. What an expectation cannot express (an entry that must be absent) is checked on the transcript directly.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.replay import check_file

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CHECKER = SHARED / "tools" / "check_scenario.py"
OWN_SCENARIOS = ROOT / "tests" / "scenarios"
OWN_FILES = sorted(OWN_SCENARIOS.glob("*.yaml"))
SHARED_FILES = sorted(f for pattern in ("m131-*.yaml", "146-*.yaml", "154-*.yaml") for f in (SHARED / "scenarios").glob(pattern))


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=300
    )


def _replay(path: Path) -> subprocess.CompletedProcess:
    return _run("-m", "engine", "replay", str(path))


# --- 1. the scenarios ---------------------------------------------------------------------------------
def test_scenario_files_are_found():
    assert len(OWN_FILES) > 100, f"scenario files missing from {OWN_SCENARIOS}: {len(OWN_FILES)}"
    assert all("expect" in (f.read_text(encoding="utf-8")) for f in OWN_FILES), "a scenario without expect:"


@pytest.mark.parametrize("path", OWN_FILES, ids=lambda p: p.name)
def test_scenario(path: Path):
    problems = check_file(str(path))
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


def _altered(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (OWN_SCENARIOS / name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"altered-{name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_check_command_passes_and_fails_as_the_files_say(tmp_path):
    """`--check` says 通过 for a file that holds; for one whose expectation is wrong (the winner, a
    misspelt key) it says 不符 with what differs, and exits 1."""
    good = OWN_SCENARIOS / "m131-witch-save-and-sheriff.yaml"
    wrong_winner = _altered(tmp_path, "m131-surrender.yaml", "winner: 村民阵营", "winner: 狼人阵营")
    misspelt = _altered(tmp_path, "m131-witch-save-and-sheriff.yaml", "expect:", "expect:\n  death: []")
    proc = _run("-m", "engine", "replay", str(good), str(wrong_winner), str(misspelt), "--check")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == f"通过 {good}"
    assert f"不符 {wrong_winner}" in lines and "winner：应为 '狼人阵营'，实为 '村民阵营'" in proc.stdout
    assert f"不符 {misspelt}" in lines and "'death'" in proc.stdout
    assert lines[-1] == "1 passed, 2 failed"
    alone = _run("-m", "engine", "replay", str(good), "--check")
    assert alone.returncode == 0 and alone.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_check_command_counts_an_unusable_file_as_failed(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("ruleset: M999\nplayers: []\n", encoding="utf-8")
    proc = _run("-m", "engine", "replay", str(bad), "--check")
    assert proc.returncode == 1
    assert "场景文件不可用" in proc.stdout and proc.stdout.splitlines()[-1] == "0 passed, 1 failed"


@pytest.mark.skipif(not CHECKER.is_file(), reason="the shared contract's independent checker is not beside this clone")
def test_independent_checker_reads_every_file_alike():
    """The shared contract's own checker, where it is at hand, passes the project's files and the shared examples."""
    proc = _run(str(CHECKER), *map(str, OWN_FILES + SHARED_FILES))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


# --- 2. unusable files ----------------------------------------------------------------------------------
LINEUP = [
    ("甲", "狼人"), ("乙", "狼人"), ("丙", "狼人"), ("丁", "感染白痴"), ("戊", "预言家"), ("己", "女巫"),
    ("庚", "乌鸦"), ("辛", "锈盾守卫"), ("壬", "混血儿"), ("癸", "村民"), ("子", "村民"), ("丑", "村民"), ("寅", "村民"),
]


def _scenario(players: list[tuple[str, str]], ruleset: str = "M131") -> str:
    lines = [f"ruleset: {ruleset}", "players:"]
    lines += [f"  - {{name: {name}, role: {role}}}" for name, role in players]
    lines += ["steps:", "  - night", "  - day"]
    return "\n".join(lines) + "\n"


UNUSABLE = {
    "not-yaml": "ruleset: M131\nplayers: [\n  - {name: 甲, role: 狼人\nsteps: night: day\n",
    "unknown-ruleset": _scenario(LINEUP, ruleset="M999"),
    "unknown-identity": _scenario(LINEUP[:-1] + [("寅", "猎人")]),  # 猎人 exists in 146, not in M131
    "player-listed-twice": _scenario(LINEUP[:-1] + [("癸", "村民")]),
    "line-up-one-short": _scenario(LINEUP[:-1]),  # 3 村民 instead of 4
    "line-up-one-too-many": _scenario(LINEUP + [("卯", "村民")]),  # 5 村民
    "line-up-wrong-mix": _scenario(LINEUP[:-1] + [("寅", "狼人")]),  # 13 players, but 4 狼人 and 3 村民
    # a rule file beside the scenario that is not there (one that does not check is refused alike)
    "rule-file-missing": "rule_file: posts/none.yaml\nplayers:\n  - {name: 甲, role: 狼人}\nsteps: [night]\n",
}


def test_the_valid_line_up_replays(tmp_path):
    """The control: the same inline file with the post's line-up is usable."""
    path = tmp_path / "ok.yaml"
    path.write_text(_scenario(LINEUP), encoding="utf-8")
    proc = _replay(path)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["ruleset"] == "M131"


@pytest.mark.parametrize("name", sorted(UNUSABLE))
def test_unusable_file_exits_2(tmp_path, name):
    path = tmp_path / f"{name}.yaml"
    path.write_text(UNUSABLE[name], encoding="utf-8")
    proc = _replay(path)
    assert proc.returncode == 2, f"exit {proc.returncode}\nstdout: {proc.stdout[:500]}\nstderr: {proc.stderr[:500]}"
    assert proc.stderr.strip(), "no message on stderr"
    assert proc.stdout == "", f"stdout should be empty, got: {proc.stdout[:500]}"


# --- 3. absences the checker cannot express -----------------------------------------------------------------
def test_witch_loses_tongling_after_her_save():
    """"<救药>使用后，失去技能<通灵>。" — m131-witch-save.yaml saves on night 1: no 通灵 on nights 2 and 3."""
    proc = _replay(OWN_SCENARIOS / "m131-witch-save.yaml")
    assert proc.returncode == 0, proc.stderr
    tongling = [f for f in json.loads(proc.stdout)["feedback"] if f["skill"] == "通灵"]
    assert [f["number"] for f in tongling] == [1], f"通灵 after the save: {tongling}"


def test_the_frightened_or_sealed_witch_is_not_told_who_was_attacked():
    """"恐惧……该角色当晚不能发动技能" and the 血月: lib-nightmare-and-blood-moon-witch.yaml frightens the witch on night 1
    and seals the village on night 3; her <通灵> comes on night 2 only."""
    proc = _replay(OWN_SCENARIOS / "lib-nightmare-and-blood-moon-witch.yaml")
    assert proc.returncode == 0, proc.stderr
    tongling = [f for f in json.loads(proc.stdout)["feedback"] if f["skill"] == "通灵"]
    assert [f["number"] for f in tongling] == [2], f"通灵 while she could use no skill: {tongling}"
