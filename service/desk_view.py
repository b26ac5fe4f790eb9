"""What a game's desk and its 揭秘 page show, built from what the service already keeps: the game in
memory, its stored log, its open time limits and its teams.

When each thing happened (the phase an entry was sent in, the time of each death, each count's text)
is the log replayed on a game of its own: the engine keeps no clock. A replay is kept until the
log grows, so a desk asking every few seconds costs one look at the log.
"""
from __future__ import annotations

import re
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import datetime

from engine import Act, Game, Timeout
from engine.commands import from_dict
from engine.events import Tally
from rulesets import get as get_ruleset

from . import history
from .games import Service, Table
from .models import CommandRow, DeadlineRow, TeamRow
from .texts import clock, identity, limit_name, phase_name, until

NIGHT_KEY = re.compile(r"night(\d+):(.+?):(.+)")
KEPT = 64  # replays kept, one a game


def phase_label(game: Game) -> str:
    s = game.state
    return {"setup": "开局", "night": f"第{s.night_no}夜", "day": f"第{s.day_no}天", "over": "结束后"}[s.phase]


@dataclass
class Timeline:
    """The log replayed: the phase each entry was sent in, when each death happened, every count."""

    phases: dict[int, str] = field(default_factory=dict)  # seq -> phase label
    deaths: list[datetime] = field(default_factory=list)  # the time of state.deaths[i]
    tallies: list[dict] = field(default_factory=list)


# by game: the table it was made for (a game rebuilt in memory is replayed again), the log's length
# and last entry (the log only grows), and the replay
_timelines: OrderedDict[int, tuple[weakref.ref, tuple, Timeline]] = OrderedDict()


def timeline(t: Table, rows: list[CommandRow]) -> Timeline:
    key = (len(rows), rows[-1].id if rows else None)
    kept = _timelines.get(t.row.id)
    if kept and kept[0]() is t and kept[1] == key:
        _timelines.move_to_end(t.row.id)
        return kept[2]
    line = Timeline()
    if t.game is not None:
        game = Game(get_ruleset(t.row.ruleset), [(s.name, s.role) for s in t.seats], seed=t.row.seed)
        effective = {row.seq: cmd for row, cmd in history.effective(rows)}
        for row in rows:
            line.phases[row.seq] = phase_label(game)
            if row.seq not in effective:
                continue
            outcome = game.apply(effective[row.seq])
            line.deaths += [row.at] * (len(game.state.deaths) - len(line.deaths))
            line.tallies += [{"day": e.number, "kind": e.kind, "text": e.text, "director": e.director, "at": row.at}
                             for e in outcome.events if isinstance(e, Tally)]
    _timelines[t.row.id] = (weakref.ref(t), key, line)
    while len(_timelines) > KEPT:
        _timelines.popitem(last=False)
    return line


def _iso(at: datetime | None) -> str | None:
    return at.isoformat() if at else None


def seats(t: Table, line: Timeline) -> list[dict]:
    rules = get_ruleset(t.row.ruleset)
    g = t.game
    out = []
    for s in t.seats:
        seat = {"seat": s.seat, "name": s.name, "qq": s.qq, "former": list(s.former_qq),
                "identity": identity(rules, s.role) if s.role else "未分配", "faction": "", "alive": True,
                "out": "", "cards": "", "tags": []}
        if g is not None:
            p = g.state.player(s.name)
            seat["faction"], seat["alive"] = p.faction, p.alive
            if not p.alive:
                i = next((n for n, d in enumerate(g.state.deaths) if d["name"] == s.name), None)
                phase, number, cause = p.death
                when = f"第{number}{'夜' if phase == 'night' else '天'}"
                at = line.deaths[i] if i is not None and i < len(line.deaths) else None
                seat["out"] = f"{when}出局（{cause}）" + (f" {clock(at)}" if at else "")
            seat["cards"] = "".join(f"{k}{v}" for k, v in p.cards.items() if v)
            seat["tags"] = [office for office, holder in rules.officers(g) if holder == s.name]
            if s.name in g.state.carry.get("lovers", []):  # 146's lovers
                seat["tags"].append("情侣")
            seat["tags"] += [team for team, members in g.state.teams.items() if s.name in members]
        out.append(seat)
    return out


async def teams(t: Table) -> list[dict]:
    if t.game is None:
        return []
    groups = {row.team: row.group_id for row in await TeamRow.filter(game_id=t.row.id)}
    label = {p.name: t.game.label(p) for p in t.game.state.players}
    return [{"team": team, "members": [label[n] for n in members],
             "group": groups.get(team) or "无群（私聊转发）"} for team, members in t.game.state.teams.items()]


def _due(deadlines: list[DeadlineRow], key: str, who: str | None = None, night: str | None = None) -> DeadlineRow | None:
    """The open time limit of a decision: by its key, or (a slot the ruleset times as a whole, the
    witch's potions) the limit of this night that names its player."""
    return next((d for d in deadlines if d.key == key), None) or next(
        (d for d in deadlines if who and night and d.key.startswith(night) and who in d.who), None)


def night(t: Table, rows: list[CommandRow], line: Timeline, deadlines: list[DeadlineRow]) -> dict | None:
    """Tonight: what each player sent, passed or let lapse, and what is still awaited until when."""
    g = t.game
    if g is None or g.phase != "night":
        return None
    label = phase_label(g)
    done = []
    effective = {row.seq for row, _ in history.effective(rows)}
    for row in rows:
        if line.phases.get(row.seq) != label or row.seq not in effective:
            continue
        cmd = from_dict(row.payload)
        if isinstance(cmd, Act):
            state = "放弃" if cmd.skill == "放弃" else "已行动"
            done.append({"who": cmd.by, "slot": cmd.skill, "state": state, "detail": cmd.shown_target, "at": clock(row.at)})
        elif isinstance(cmd, Timeout) and (m := NIGHT_KEY.fullmatch(cmd.key)):
            done.append({"who": m[3], "slot": m[2], "state": "超时", "detail": "", "at": clock(row.at)})
    waiting = []
    if not g.night.resolved:
        for who, slot in g.rules.awaiting(g):
            d = _due(deadlines, g.night_key(who, slot), who, f"night{g.night.number}:")
            waiting.append({"who": who, "slot": slot, "due": _iso(d.due_at) if d else None,
                            "until": until(d) if d else "无时限"})
    return {"label": label, "done": done, "waiting": waiting, "resolved": g.night.resolved,
            "held": [f"{who}（{cause}）" for who, cause in g.night.held or ()]}


def pending(t: Table, deadlines: list[DeadlineRow]) -> list[dict]:
    if t.game is None:
        return []
    out = []
    for p in t.game.state.pending:
        d = _due(deadlines, p.key)
        out.append({"who": p.who, "slot": p.skill, "due": _iso(d.due_at) if d else None, "until": until(d) if d else "无时限"})
    return out


def counts(t: Table, line: Timeline) -> dict | None:
    """The latest day's counts (the 票型, weights and void posts as the thread and the director read
    them), and 146's private ballots of today."""
    g = t.game
    if g is None:
        return None
    day = line.tallies[-1]["day"] if line.tallies else None
    items = [{"kind": "警长竞选" if c["kind"] == "election" else "放逐投票", "text": c["text"], "director": c["director"],
              "at": clock(c["at"])} for c in line.tallies if c["day"] == day]
    private = []
    if g.phase == "day" and g.state.day.private_votes:
        label = {p.name: g.label(p) for p in g.state.players}
        private = [f"{label[v]} → {label.get(tg, tg)}：{why}" for v, (tg, why) in g.state.day.private_ballots.items()]
    if not items and not private:
        return None
    return {"label": f"第{day}天" if day else f"第{g.state.day_no}天", "items": items, "private": private}


def limits(service: Service, deadlines: list[DeadlineRow]) -> list[dict]:
    out = []
    for d in deadlines:
        reminders = [d.due_at - service._minutes(b) for b in service.config.banshabot_remind_before
                     if d.who and d.due_at and b not in d.reminded]
        out.append({"what": limit_name(d), "due": _iso(d.due_at), "until": until(d),
                    "waiting": d.waits_for_id is not None,
                    "reminders": [clock(r) for r in sorted(reminders) if r > service.now()]})
    return out


def moons(t: Table) -> dict | None:
    """146's new moons: the events in play, each one announced and how it was drawn, the next draw."""
    g = t.game
    if g is None or "moons" not in g.state.options:
        return None
    draw = g.state.carry.get("draw")
    upcoming = None
    if draw and draw["day"] > g.state.day_no:
        kind = "大新月" if draw["big"] else "小新月"
        upcoming = f"第{draw['day']}天{kind}：" + (f"{draw['event']}（{draw['how']}）" if draw["event"] else draw["how"] or "待抽取")
    return {"in_play": list(g.state.options["moons"]),
            "announced": [f"第{m['day']}天 {m['event']}（{m['draw']}）" for m in g.state.moons],
            "next": upcoming}


def log(t: Table, rows: list[CommandRow], line: Timeline) -> list[dict]:
    """The 树洞's entries, each with the phase it was sent in and the characters it names (the page's filters)."""
    held = history.in_force(rows)
    fixed = {c.payload["seq"]: c for c in held}
    void, moot = history.left_out(held)
    out = []
    for row in rows:
        text = history.entry(t, row, held, fixed, void, moot)
        out.append({"seq": row.seq + 1, "phase": line.phases.get(row.seq, "开局"), "text": text,
                    "names": [s.name for s in t.seats if s.name in text],
                    "correction": row.payload["type"] == history.CORRECTION})
    return out


async def state(service: Service, t: Table, public: str, published: bool) -> dict:
    """Everything the desk shows of a game (`public`: the 揭秘 page's link, `published`: made public)."""
    async with t.lock:  # never a game halfway through a command
        rows = await CommandRow.filter(game_id=t.row.id).order_by("seq")
        deadlines = await DeadlineRow.filter(game_id=t.row.id, done=False).order_by("due_at", "id")
        line = timeline(t, rows)
        g = t.game
        return {
            "now": service.now().isoformat(),
            "game": {"id": t.row.id, "title": t.row.title, "ruleset": t.row.ruleset, "status": t.row.status,
                     "phase": phase_name(g) if g else "筹备中（尚未开始）",
                     "offices": g.office_lines() if g else [],
                     "sped_up": bool(g and g.state.carry.get("sped_up")),
                     "close": clock(t.row.planned_close) if t.row.planned_close and g and g.phase == "day" else None,
                     "winner": g.state.winner if g else None},
            "seats": seats(t, line),
            "teams": await teams(t),
            "night": night(t, rows, line, deadlines),
            "pending": pending(t, deadlines),
            "counts": counts(t, line),
            "limits": limits(service, deadlines),
            "moons": moons(t),
            "log": log(t, rows, line),
            "proposed": t.proposed is not None,
            "reveal": {"over": t.row.status == "over", "public": published, "link": public},
        }
