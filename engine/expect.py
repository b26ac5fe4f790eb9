"""A scenario's `expect:` block compared with its transcript, as docs/scenarios.md says.

This is the project's own reader of the contract: `python -m engine replay FILE... --check` and the
tests use it, so checking a written-down game needs nothing outside the repository.
"""
from __future__ import annotations

from typing import Any

EXACT = ("sheriff", "winner", "lost")
EACH_ENTRY = ("feedback", "tallies", "announcements", "players", "moons")
KEYS = frozenset(("deaths", "alive", "rejected", *EXACT, *EACH_ENTRY))


def _same(got: Any, want: Any) -> bool:
    """Numbers compare by value (a count of 1.5 written as 1.5 or 3/2 in the file's YAML is one count)."""
    numbers = (int, float)
    if isinstance(got, numbers) and isinstance(want, numbers) and not isinstance(got, bool) and not isinstance(want, bool):
        return abs(got - want) < 1e-9
    return got == want


def _matches(entry: Any, want: Any) -> bool:
    """An entry matches on the keys the expectation gives; a mapping value (a tally's counts) whole."""
    if not isinstance(entry, dict) or not isinstance(want, dict):
        return False
    for key, value in want.items():
        if key not in entry:
            return False
        got = entry[key]
        if isinstance(value, dict) and isinstance(got, dict):
            if set(value) != set(got) or not all(_same(got[k], value[k]) for k in value):
                return False
        elif not _same(got, value):
            return False
    return True


def compare(transcript: dict, expect: Any) -> list[str]:
    """Every way the transcript differs from the expectation, one Chinese line each; none when it holds."""
    if expect is None:
        return []
    if not isinstance(expect, dict):
        return ["expect 应是一个映射（deaths、alive、winner……）"]
    problems = [f"expect 里没有 {key!r} 这一项（可用：{'、'.join(sorted(KEYS))}）" for key in expect if key not in KEYS]
    if "deaths" in expect:
        got, want = transcript.get("deaths", []), expect["deaths"] or []
        if len(got) != len(want) or not all(_matches(g, w) for g, w in zip(got, want)):
            problems.append(f"deaths：应为 {want}，实为 {got}")
    if "alive" in expect:
        got = sorted(p["name"] for p in transcript.get("players", []) if p.get("alive"))
        want = sorted(str(name) for name in expect["alive"] or [])
        if got != want:
            problems.append(f"alive：应为 {want}，实为 {got}")
    for key in EXACT:
        if key in expect and transcript.get(key) != expect[key]:
            problems.append(f"{key}：应为 {expect[key]!r}，实为 {transcript.get(key)!r}")
    for key in EACH_ENTRY:
        for want in expect.get(key) or []:
            if not any(_matches(g, want) for g in transcript.get(key, [])):
                problems.append(f"{key}：缺少 {want}；实有 {transcript.get(key, [])}")
    got_rejected = sorted(e.get("step") for e in transcript.get("errors", []))
    want_rejected = expect.get("rejected") or []
    if not isinstance(want_rejected, list) or got_rejected != sorted(want_rejected):
        problems.append(f"rejected：应为 {want_rejected}，实为 {got_rejected}（{transcript.get('errors', [])}）")
    return problems
