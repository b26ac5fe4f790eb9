"""Scenario files replayed through the shared checker, and the replay tool's refusal of unusable files.

1. Every `../shared/scenarios/m131-*.yaml`, `146-*.yaml` and `154-*.yaml` and every `tests/scenarios/*.yaml` goes through
   `../shared/tools/check_scenario.py` (one test per file); the checker's own report is shown on failure.
2. `python -m engine replay` exits 2 with one message on stderr and nothing on stdout when the file is
   unusable (SCENARIOS.md: "not YAML, unknown ruleset, unknown identity, a player listed twice, identity
   counts that contradict the ruleset's line-up").
3. What the checker cannot express (an entry that must be absent) is checked on the transcript directly.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CHECKER = SHARED / "tools" / "check_scenario.py"
OWN_SCENARIOS = ROOT / "tests" / "scenarios"

SHARED_FILES = sorted(f for pattern in ("m131-*.yaml", "146-*.yaml", "154-*.yaml") for f in (SHARED / "scenarios").glob(pattern))
OWN_FILES = sorted(OWN_SCENARIOS.glob("*.yaml"))


def _id(path: Path) -> str:
    return ("shared/" if path.parent.parent == SHARED else "") + path.name


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def _replay(path: Path) -> subprocess.CompletedProcess:
    return _run("-m", "engine", "replay", str(path))


# --- 1. the scenarios ---------------------------------------------------------------------------------
def test_scenario_files_are_found():
    assert CHECKER.is_file(), f"the shared checker is missing: {CHECKER}"
    assert SHARED_FILES, f"no m131-*.yaml in {SHARED / 'scenarios'}"
    assert OWN_FILES, f"no scenario files in {OWN_SCENARIOS}"


@pytest.mark.parametrize("path", SHARED_FILES + OWN_FILES, ids=_id)
def test_scenario(path: Path):
    proc = _run(str(CHECKER), str(path))
    assert proc.returncode == 0, f"check_scenario.py {path.name} exited {proc.returncode}:\n{proc.stdout}{proc.stderr}"


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
