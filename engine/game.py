"""A game: one command in, what happened out.

`Game.apply` runs a command on the state and, if it is refused, puts back what it changed
(engine/state.py records it); a refused command leaves the game exactly as it was. Everything random draws on the game's own seeded generator, so applying the same commands to
the same seed always gives the same game.

What a game does is split by what it does: its deaths and last words (engine/deaths.py), its days
(engine/days.py), its nights' settlement (engine/nights.py), its counts (engine/counting.py) and its
penalty cards (engine/cards.py); this module is the command's way in, what rulesets call, the acts
and the end.
"""
from __future__ import annotations

import copy
from typing import Any

from .cards import Cards
from .commands import Act, Ballots, Breach, Card, CloseDay, Command, Configure, FactionLoss, Moon, OpenDay, ResolveNight, SpeedUp, Timeout
from .counting import Counting
from .days import Days
from .deaths import Deaths
from .errors import Rejected
from .events import DeadlineEnd, DeadlineStart, Feedback, GameOver, Notice, Outcome, TeamChange
from .lineup import seed_decides
from .nights import Nights
from .ruleset import Ruleset
from .state import GameState, Night, Pending, Phase, Player, SeededRandom, begin
from .typed import number, quoted
from .words import LAST_WORDS, PASS, SURRENDER

SEAT_DIGITS = 3


class Game(Deaths, Days, Nights, Counting, Cards):
    def __init__(self, ruleset: Ruleset, players: list[tuple[str, str]], seed: int = 0, options: dict | None = None):
        """`players`: (name, identity) in seat order; `options`: how the game is configured, as the ruleset
        reads them (`Ruleset.configure`: 146's new moons); raises ValueError on one it cannot use."""
        teams: dict[str, list[str]] = {}
        built = []
        for seat, (name, role_name) in enumerate(players, start=1):
            role = ruleset.role(role_name)
            built.append(Player(name=name, seat=seat, role=role_name, faction=role.faction))
            if role.team:
                teams.setdefault(role.team, []).append(name)
        self.rules = ruleset
        self.state = GameState(ruleset=ruleset.id, seed=seed, rng=SeededRandom(seed), players=built, teams=teams,
                               options=ruleset.configure(dict(options or {})))
        self.events: list = []
        self.warnings: list[str] = []
        self.fresh: list[str] = []  # who went out during this command and is not yet published
        self.opening: str | None = None  # the heading of the 开门 under way, until its announcement carries it
        self.night_before = True  # whether the 开门 under way ends a night

    # --- the one entry point ----------------------------------------------------------------------
    def apply(self, cmd: Command) -> Outcome:
        # a game that stored something the state cannot watch (engine/state.py) is copied whole
        saved = copy.deepcopy(self.state) if self.__dict__.get("copied_whole") else None
        journal = begin()
        self.events, self.warnings, self.fresh = [], [], []
        try:
            if self.state.phase == "over":
                raise Rejected("游戏已经结束")
            self._dispatch(cmd)
        except BaseException as exc:
            # a refusal, or a fault in a ruleset: the game stays exactly as it was
            journal.undo()
            if saved is not None:
                self.state = saved
            self.events, self.warnings, self.fresh = [], [], []
            if isinstance(exc, Rejected):
                return Outcome(ok=False, error=exc.reason)
            raise
        if journal.commit():
            self.copied_whole = True
        return Outcome(ok=True, events=self.events, warnings=self.warnings)

    def _dispatch(self, cmd: Command) -> None:
        match cmd:
            case Act():
                self._act(cmd)
            case OpenDay():
                self._open_day(cmd.lapse)
            case CloseDay():
                self._close_day(cmd.lapse)
            case ResolveNight():
                self._resolve_night_early()
            case Ballots():
                self._ballots(cmd)
            case Card():
                self._card(cmd.color, self.find(cmd.to))
            case Timeout():
                self._timeout(cmd.key)
            case FactionLoss():
                self.lose(cmd.faction)
            case Moon():
                self.rules.fix_moon(self, cmd.event, cmd.start, cmd.drawn)
            case Configure():
                self._configure(cmd.key, cmd.value)
            case Breach():
                if self.phase != "day":
                    raise Rejected("只有白天可以记录违反新月规则")
                self.rules.breach(self, self.find(cmd.who))
            case SpeedUp():
                self._speed_up(cmd)
            case _:
                raise Rejected("无法识别的指令")
        if self.state.phase == "night":
            self._after_night_command()
            self.rules.route_feedback(self)

    # --- helpers for rulesets ---------------------------------------------------------------------
    def holds(self, p: Player, skill: str, holders: tuple[str, ...]) -> bool:
        """Whether `p` has `skill`: by identity, or given to him for the game or for this phase."""
        record = self._phase_record()
        given = record.granted.get(p.name, ()) if record else ()
        return p.role in holders or skill in p.granted or skill in given

    def suspended(self, p: Player, skill: str) -> bool:
        """Whether `p` lost `skill` for the running phase only (an event's doing)."""
        record = self._phase_record()
        taken = record.suspended.get(p.name, ()) if record else ()
        return skill in taken or "*" in taken

    def _phase_record(self) -> Phase | None:
        """The running night or day (None before the first phase)."""
        s = self.state
        return s.night if s.phase == "night" else s.day if s.phase == "day" else None

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def night(self) -> Night:
        return self.state.night

    def emit(self, event: Any) -> None:
        self.events.append(event)

    def tell(self, audience: str, text: str) -> None:
        self.emit(Notice(audience, text))

    def label(self, p: Player) -> str:
        return f"{p.seat}号 {p.name}"

    def find(self, spec: Any) -> Player:
        """A player by seat number or character name."""
        text = str(spec).strip() if spec is not None else ""
        seat = number(text, SEAT_DIGITS)
        if seat is not None:
            for p in self.state.players:
                if p.seat == seat:
                    return p
        p = self.state.player(text)
        if p is None:
            raise Rejected(f"没有找到角色「{quoted(text)}」，请发送座位号或角色名")
        return p

    def living_target(self, spec: Any, skill: str) -> Player:
        if spec is None or spec == "":
            raise Rejected(f"<{skill}>需要一个目标，请发送“{skill} 座位号或角色名”")
        p = self.find(spec)
        if not p.alive:
            raise Rejected(f"{p.name} 已出局，不能作为<{skill}>的目标")
        if problem := self.rules.target_problem(self, p, skill):
            raise Rejected(problem)
        return p

    def team_of(self, name: str) -> str | None:
        return next((t for t, members in self.state.teams.items() if name in members), None)

    def set_team(self, team: str, members: list[str]) -> None:
        self.state.teams[team] = members
        self.emit(TeamChange(team, tuple(members)))

    def decided(self, who: str, slot: str) -> bool:
        return f"{who}:{slot}" in self.night.done

    def mark_done(self, who: str, slot: str) -> None:
        if f"{who}:{slot}" not in self.night.done:
            self.night.done.add(f"{who}:{slot}")
            self.emit(DeadlineEnd(self.night_key(who, slot)))

    def night_key(self, who: str, slot: str) -> str:
        return f"night{self.night.number}:{slot}:{who}"

    def start_deadline(self, key: str, who: list[str], what: str, limit: str) -> None:
        spec = self.rules.limits[limit]
        self.emit(DeadlineStart(key, tuple(who), what, spec.anchor, spec.minutes))

    def give_feedback(self, to: Player, skill: str, target: Any, result: Any, text: str, audience: str | None = None) -> None:
        """Send a private result once; the same feedback is never given twice in a night."""
        key = f"{skill}:{to.name}"
        if key in self.night.delivered:
            return
        self.night.delivered.add(key)
        entry = {"to": to.name, "skill": skill, "phase": "night", "number": self.night.number, "result": result}
        if target is not None:
            entry["target"] = target
        self.state.feedback.append(entry)
        self.emit(Feedback(to.name, skill, "night", self.night.number, target, result, audience or f"player:{to.name}", text))
        self.tell("director", f"已发给 {self.label(to)} 的反馈：{text}")

    def feedback_given(self, to: str, skill: str) -> bool:
        return f"{skill}:{to}" in self.night.delivered

    def ask(self, who: Player, skill: str, text: str, limit: str, context: Any = None) -> None:
        key = f"{skill}:{who.name}:{self.phase}{self.state.number}"
        from_close = self.phase == "day" and self.rules.limits[limit].anchor == "close"
        self.state.pending.append(Pending(key=key, who=who.name, skill=skill, context=context, from_close=from_close))
        self.emit(Notice(f"player:{who.name}", text, about=key))
        self.emit(Notice("director", f"等待 {self.label(who)} 发动<{skill}>", about=key))
        self.start_deadline(key, [who.name], skill, limit)

    def when_public(self, what: str, p: Player) -> None:
        """A question or notice a death brings, given once that death is public: at once by day, after
        the 开门 announcement after a night (the ruleset's `public` gives it)."""
        if self.phase == "night":
            self.state.carry.setdefault("at_dawn", []).append((what, p.name))
        else:
            self.rules.public(self, what, p)

    def pending_for(self, name: str, skill: str) -> Pending | None:
        return next((p for p in self.state.pending if p.who == name and p.skill == skill), None)

    def settle(self, pending: Pending) -> None:
        self.state.pending.remove(pending)
        self.emit(DeadlineEnd(pending.key))

    # --- the end ----------------------------------------------------------------------------------
    def lose(self, faction: str) -> None:
        if faction in self.state.lost or self.state.winner:
            raise Rejected(f"{faction}已经判负或游戏已经结束")
        if faction not in self.rules.factions(self):
            raise Rejected(f"本局没有{faction}")
        self.state.lost.append(faction)
        self.emit(Notice("director", f"{faction}判负"))
        self.rules.check_end(self)

    def win(self, faction: str) -> None:
        s = self.state
        for other in self.rules.factions(self):
            if other != faction and other not in s.lost:
                s.lost.append(other)
        s.winner = faction
        s.phase = "over"
        # what the game still asked of anyone is withdrawn: a question asked by this very command is
        # not sent at all, one asked before is called off
        asked = [(p.who, f"发动<{p.skill}>", p.key) for p in s.pending]
        asked += [(n, "留遗言", f"{LAST_WORDS}:{n}") for n in s.carry.get("words_offered", []) if self.owes_last_words(n)]
        for pending in list(s.pending):
            self.settle(pending)
        unsent = {e.about for e in self.events if isinstance(e, Notice) and e.about}
        for name, what, key in asked:
            if key.startswith(f"{LAST_WORDS}:"):
                self._waive_last_words(name)
            if key in unsent:
                self.events[:] = [e for e in self.events if not (isinstance(e, Notice) and e.about == key)
                                  and not (isinstance(e, DeadlineStart) and e.key == key)]
            else:
                self.tell(f"player:{name}", f"游戏已经结束，你不必再{what}。")
        self.emit(GameOver(faction, tuple(s.lost)))
        self.tell("public", f"游戏结束，{faction}获胜")
        decides = seed_decides(self.rules, [(p.name, p.role) for p in s.players], s.seed)
        for p in s.players:
            self.tell(f"player:{p.name}", f"游戏结束，{faction}获胜。感谢参与！本局的随机种子是 {s.seed}：{decides}，"
                      "可以在导演公布的完整记录（树洞）中核对。")

    # --- acts -------------------------------------------------------------------------------------
    def _act(self, cmd: Act) -> None:
        actor = self.find(cmd.by)
        if cmd.skill == PASS:
            return self._pass(actor)
        if cmd.skill == LAST_WORDS:
            return self._last_words(actor, cmd.text if cmd.text is not None else cmd.target)
        if cmd.skill == SURRENDER:
            return self._surrender(actor, cmd.target)
        skill = self.rules.skill(cmd.skill)
        if skill is None:
            raise Rejected(f"本局没有技能<{cmd.skill}>")
        if skill.holders and not self.holds(actor, skill.name, skill.holders):
            # before any question of timing: a player without the skill is told so, not "wait till night"
            raise Rejected(f"{actor.name} 的身份没有<{skill.name}>")
        pending = self.pending_for(actor.name, skill.name)
        if skill.when == "decision":
            if pending is None:
                # what he may have meant: a decision asked of him now (146's 猎人的愤怒 for a shot), or 帮助
                asked = "、".join(f"<{q.skill}>" for q in self.state.pending if q.who == actor.name)
                raise Rejected(f"{actor.name} 现在不能发动<{skill.name}>" + (f"：你现在要决定的是{asked}" if asked else "")
                               + "。发送“帮助”查看你现在能做什么和怎样发送")
        else:
            if not actor.alive:
                raise Rejected(f"{actor.name} 已出局，不能发动技能")
            if skill.when == "start" and self.phase != "setup":
                raise Rejected(f"<{skill.name}>只能在游戏开始时发动")
            if skill.when in ("night", "day") and self.phase != skill.when:
                raise Rejected(f"<{skill.name}>只能在{'夜晚' if skill.when == 'night' else '白天'}发动")
            if skill.when == "night" and self.night.resolved:
                raise Rejected("今晚的行动已经结算，不能再发动技能")
            if self.suspended(actor, skill.name):
                raise Rejected(f"{actor.name} {'今晚' if self.phase == 'night' else '今天'}失去了<{skill.name}>")
        if skill.with_text:
            skill.run(self, actor, cmd.target, cmd.text)
        else:
            skill.run(self, actor, cmd.target)
        done = f"{skill.name} {cmd.shown_target}".rstrip()
        if skill.when == "decision" and not actor.alive:
            # what a death brought and was carried out: it stands if the death turns into a red card
            self.state.carry.setdefault("answered", {}).setdefault(actor.name, []).append(done)
        self.tell("director", f"{self.label(actor)}：{done}")

    def _pass(self, actor: Player) -> None:
        """放弃: everything this player could still do in this phase. A team's own choice is not
        one player's to drop: the team sends its skill with no target for that. A question asked of
        him (a shot, a hand-over) is what his 放弃 answers: his last words stay his until 开门."""
        if self.phase == "night" and not self.night.resolved:
            for who, slot in self.rules.awaiting(self):
                if who == actor.name:
                    self.rules.pass_night(self, who, slot)
        asked = [p for p in self.state.pending if p.who == actor.name]
        for pending in asked:
            self._expire(pending)
        if not asked and self.owes_last_words(actor.name):
            self._waive_last_words(actor.name)
        team = self.team_of(actor.name)
        team_slots = [slot for who, slot in self.rules.awaiting(self) if who == team] if self.phase == "night" and not self.night.resolved else []
        hint = "".join(f"<{slot}>是{team}的共同选择，全队放弃请发送“{slot} 空”。" for slot in team_slots)
        self.tell(f"player:{actor.name}", "已收到：放弃。" + hint)
        self.tell("director", f"{self.label(actor)}：放弃")

    def _surrender(self, actor: Player, answer: Any) -> None:
        faction = actor.faction
        voters = self.rules.surrender_voters(self, faction)
        if not voters:
            raise Rejected(f"{faction}不能投降")
        agreed: set[str] = self.state.carry.setdefault(f"surrender:{faction}", set())
        if actor.name not in voters and agreed:
            raise Rejected(f"{actor.name} 不在需要询问的名单中")
        if answer in ("拒绝", "不同意", "否"):
            if not agreed:
                raise Rejected("现在没有进行中的投降提议")
            agreed.clear()
            for name in voters:
                self.tell(f"player:{name}", f"{actor.name} 拒绝投降，投降提议作废")
            return
        proposal = not agreed
        agreed.add(actor.name)
        if set(voters) <= agreed:
            self.tell("director", f"{faction}全员同意投降，投降有效")
            for name in voters:  # "该阵营优先判负，不公示": those asked are told, nobody else
                self.tell(f"player:{name}", f"{faction}全员同意投降，投降有效：{faction}判负。")
            self.lose(faction)
            return
        # a proposer who is not asked himself (146's single cupid) stays unnamed: they may not know him
        who = actor.name if actor.name in voters else f"{faction}中的一名角色"
        count = f"（已同意 {len(agreed & set(voters))}/{len(voters)}）"
        self.tell(f"player:{actor.name}", f"已收到：同意{faction}投降{count}。")
        for name in voters:
            if name not in agreed:
                did = "提议" if proposal else "同意"
                self.tell(f"player:{name}", f"{who} {did}{faction}投降{count}：发送“投降”同意，发送“投降 拒绝”拒绝")

    # --- phases -----------------------------------------------------------------------------------
    def _begin(self, first: str) -> None:
        if self.rules.first_phase != first:
            raise Rejected(f"本局游戏从{'夜晚' if self.rules.first_phase == 'night' else '白天'}开始")
        self.rules.start_game(self)

    def _configure(self, key: str, value: Any) -> None:
        if self.phase != "setup":
            raise Rejected("第一个白天或夜晚开始后不能再改设置")
        try:
            self.state.options = self.rules.configure({**self.state.options, key: value})
        except ValueError as exc:
            raise Rejected(str(exc)) from exc
        self.tell("director", "设置已更改。")

    def _lapse(self, closing: bool = False, keep: list[Pending] = ()) -> None:
        for pending in list(self.state.pending):
            if not (closing and pending.outlives_close) and pending not in keep:
                self._expire(pending)

    # --- time limits ------------------------------------------------------------------------------
    def _timeout(self, key: str) -> None:
        s = self.state
        hits: list = [p for p in s.pending if p.key == key]
        for pending in hits:
            self._expire(pending)
        if s.phase == "night" and not s.night.resolved:
            for who, slot in self.rules.awaiting(self):
                if self.night_key(who, slot) == key:
                    self.rules.pass_night(self, who, slot)
                    hits.append(key)
        name = key.removeprefix(f"{LAST_WORDS}:")
        if name != key and self.owes_last_words(name):
            self._waive_last_words(name)
            hits.append(key)
        if key == self._reminder_key() and s.phase == "day":
            if self.rules.vote_reminder:
                self._remind_to_vote()
            hits.append(key)
        hits += self.rules.timeout(self, key)
        if not hits:
            raise Rejected(f"没有进行中的时限「{key}」")

    def _expire(self, pending: Pending) -> None:
        if pending not in self.state.pending:
            return  # settled meanwhile by another's consequence (a death clears what the dead owed)
        self.settle(pending)
        self.rules.expire(self, pending)
