"""The rules a game was started with, as data stored with it, and what the code now plays differently.

A game is replayed from its log by the code of the day; its rules must be the ones it started with.
At 开始 the service stores a snapshot of them: everything the ruleset declares (line-up, phases,
weights, time limits, skills, its `version`), what its options choose from (146: every new-moon
event with its declaration) and the options resolved for the game (146: the events in play, in
order). Replayed, the game gets those options back, so a choice the code now makes otherwise (146:
an event added to the post's list) does not reach it; anything else that now plays differently is
named by `changes`, and the game is not replayed.

Only what changes play is compared: the words the bot shows (a skill's summary, an event's text) may
be reworded without stopping a game, provided a rule with words and one without stay told apart.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from fractions import Fraction

from .ruleset import Ruleset

# what is only said, not played: compared only for whether it is there at all (延时: whether the post has one)
WORDING = frozenset({"title", "summary", "usage", "text", "lasts", "deadline_rules", "delay", "speed_up_voids_changes"})
# how a director is told which part of the rules changed
LABELS = {"version": "规则代码版本", "roles": "身份配置", "skills": "技能", "limits": "时限", "options": "本局设置",
          "day_length": "讨论日长短", "first_phase": "首个阶段", "sheriff_weight": "警长票数"}
SHOWN = 40  # characters of a changed value a director is shown


def data(value):
    """A declaration as JSON data: dataclasses as their fields (a function they hold left out: the
    ruleset's `version` answers for what code does), fractions as "5/2", tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: data(getattr(value, f.name)) for f in dataclasses.fields(value)
                if not callable(getattr(value, f.name))}
    if isinstance(value, dict):
        return {str(k): data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = [data(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    if isinstance(value, Fraction):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a ruleset declaration that is not data: {value!r}")


def declared(rules: Ruleset) -> dict:
    """Every declaration `Ruleset` names, as this ruleset fills it in."""
    return {name: data(getattr(rules, name)) for name in vars(Ruleset)["__annotations__"]}


def _played(value):
    """`value` with its wording reduced to whether it is there."""
    if isinstance(value, dict):
        return {k: (v is not None and v != "" and v != []) if k in WORDING else _played(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_played(v) for v in value]
    return value


def fingerprint(rules_data: dict) -> str:
    """What a snapshot plays, in a few characters: equal for two snapshots that play alike."""
    played = {key: _played(rules_data[key]) for key in ("ruleset", "declared", "choices", "options")}
    return hashlib.sha256(json.dumps(played, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


def snapshot(rules: Ruleset, options: dict) -> dict:
    """What a game started now with `options` (as `rules.configure` resolved them) keeps."""
    taken = {"ruleset": rules.id, "declared": declared(rules), "choices": data(rules.choices()), "options": data(options)}
    return {**taken, "fingerprint": fingerprint(taken)}


def changes(stored: dict, rules: Ruleset) -> list[str]:
    """What `rules` plays differently from the snapshot a game was started with, for its director
    (empty: the game replays as it was played). Something its options may choose that the snapshot
    did not have (an event added to 146's list) changes nothing: its options name what it plays."""
    try:
        options = rules.configure(dict(stored["options"]))
    except ValueError as exc:
        return [f"本局设置已不能使用（{exc}）"]
    now = snapshot(rules, options)
    if now["fingerprint"] == stored["fingerprint"]:
        return []
    found = _differences(_played(stored["declared"]), _played(now["declared"]), [])
    found += _differences(_played(stored["options"]), _played(now["options"]), ["options"])
    for kind, entries in stored["choices"].items():
        current = now["choices"].get(kind, {})
        for name, entry in entries.items():
            if name not in current:
                found.append(f"「{kind}」中的「{name}」已删除")
            else:
                found += _differences(_played(entry), _played(current[name]), [kind, name])
    return found


def _path(path: list[str]) -> str:
    head, *rest = path
    return "「" + ".".join([LABELS.get(head, head), *rest]) + "」"


def _shown(value) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _differences(old, new, path: list[str]) -> list[str]:
    if old == new:
        return []
    if isinstance(old, dict) and isinstance(new, dict):
        found = []
        for key in dict.fromkeys([*old, *new]):
            if key not in new:
                found.append(f"{_path([*path, key])}已删除")
            elif key not in old:
                found.append(f"新增{_path([*path, key])}：{_shown(new[key])}")
            else:
                found += _differences(old[key], new[key], [*path, key])
        return found
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        found = []
        for i, (a, b) in enumerate(zip(old, new)):
            named = a.get("name") if isinstance(a, dict) and isinstance(b, dict) and a.get("name") == b.get("name") else None
            found += _differences(a, b, [*path, named or str(i + 1)])
        return found
    return [f"{_path(path)}由 {_shown(old)} 改为 {_shown(new)}"]
