"""A game: one command in, what happened out.

`Game.apply` runs a command on the state and, if it is refused, puts back what it changed
(engine/state.py records it); a refused command leaves the game exactly as it was. Everything random draws on the game's own seeded generator, so applying the same commands to
the same seed always gives the same game.
"""
from __future__ import annotations

import copy
import re
from fractions import Fraction
from typing import Any

from .commands import Act, Ballots, Breach, Card, CloseDay, Command, Configure, FactionLoss, Moon, OpenDay, ResolveNight, SpeedUp, Timeout
from .errors import Rejected
from .lineup import seed_decides
from .events import (
    Announcement,
    DeadlineEnd,
    DeadlineStart,
    Death,
    Feedback,
    GameOver,
    Notice,
    Outcome,
    Tally,
    TeamChange,
)
from .ruleset import Ruleset
from .state import Day, GameState, Night, Pending, Phase, Player, SeededRandom, begin
from .typed import number, quoted
from .votes import ONE, ZERO, count, shown as shown_count, written

PASS = "放弃"
LAST_WORDS = "遗言"
SURRENDER = "投降"
ABSTAIN = "弃权"
VOTE_REMINDER = "提醒投票"  # the time limit of the post's vote reminder, by day (`Ruleset.vote_reminder`)
LAST_WORDS_LIMIT = 2000  # characters: what a player can have published in the 开门 post
SEAT_DIGITS = 3
CARD_UPGRADE = {"蓝牌": "黄牌", "黄牌": "红牌"}
CARD_DOWN = {up: down for down, up in CARD_UPGRADE.items()}


def cards_words(count: int, color: str) -> str:
    """"两张蓝牌": a number of cards as the posts write it."""
    return ("一两三"[count - 1] if count <= 3 else str(count)) + "张" + color


# Discuz! code, by its shape rather than by a list of what players may write: "[", an optional "/", a name of
# ASCII letters and digits (or "*"), then "]" or "=". Discuz! applies some of its own codes on their own
# ([b], [color=…], [list], [*], [hr]…), every other one only between an opening and its closing tag: its
# own ([url], [img], [postbg], [swf], [hide], [free], [qq]…) and those a forum's administrator adds, which
# may have any such name (its control panel takes /^[0-9a-z]+$/i). So a closing tag always counts, whatever
# its name, and so does an opening one of Discuz!'s own codes or of a name closed later in the same text.
# Whatever else is in brackets stays as written: "[笑]", "[3]" or a thread's title "[M131]粽子" can be no
# code without a "[/笑]", "[/3]" or "[/M131]" after it.
DISCUZ_TAG = re.compile(r"\[\s*(/?)\s*(\w+|\*)\s*(?=[=\]])", re.ASCII)
DISCUZ_CODES = frozenset((
    "b i u s p hr color backcolor size font align float list * indent url email img table tr td quote code free "
    "hide media audio flash swf postbg password attach attachimg qq sub sup index groupid").split())


def discuz_code(text: str) -> list[int]:
    """Where each "[" that Discuz! could read as code is, in one pass over the text."""
    tags = list(DISCUZ_TAG.finditer(text))
    closed = {tag[2].lower() for tag in tags if tag[1]}
    return [tag.start() for tag in tags if tag[1] or tag[2].lower() in DISCUZ_CODES or tag[2].lower() in closed]


class Game:
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

    # --- the one entry point ---------------------------------------------------------------------
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

    # --- helpers for rulesets ----------------------------------------------------------------------
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

    # --- deaths -------------------------------------------------------------------------------------
    def kill(self, p: Player, cause: str, at: tuple[str, int] | None = None) -> None:
        """Take a player out now. Night deaths are published later, at 开门.

        The right to last words is settled before what the death triggers, so a death it causes
        (殉情) comes after it wherever the post counts last words in the order of going out."""
        if not p.alive:
            return
        if swap := self.rules.instead(self, p, cause):
            p, cause = swap
            if not p.alive:
                return
        p.alive = False
        # `at`: the phase the death belongs to when it is settled later (a vote's death decided after 关门)
        phase, number = at or (self.phase, self.state.number)
        p.death = (phase, number, cause)
        self.state.deaths.append({"name": p.name, "phase": phase, "number": number, "cause": cause})
        self.fresh.append(p.name)
        self.emit(Death(p.name, phase, number, cause))
        self.tell("director", f"{self.label(p)} 出局（{cause}）")
        if self.state.sheriff == p.name:
            self.state.sheriff = None
            self.state.carry["badge_of"] = p.name
        if self.rules.has_last_words(self, p, cause):
            self.state.last_words[p.name] = None
        if self.rules.judge_each_death:
            self.rules.check_end(self)
            if self.phase == "over":
                return
        self.rules.after_death(self, p, cause)

    def publish_deaths(self, names: list[str], why: str, words_same_day: bool = False) -> None:
        """Deaths published at once (by day, a red card), with every death they caused on the spot
        (殉情), in the order they went out; last words are asked for and the game is judged. One who
        stayed (another went out in his place: 146's 试验鸳鸯) is not among them."""
        primary = set(names)
        names = [n for n in dict.fromkeys(self.fresh + list(names)) if not self.find(n).alive]
        self.fresh.clear()
        if names:
            # a death caused on the spot is named with its own cause: a lover's 殉情 is no red card of his
            shown = [self.label(p) + ("" if n in primary or p.death[2] in self.rules.secret_causes else f"（{p.death[2]}）")
                     for n in names for p in [self.find(n)]]
            self.tell("public", f"{why}：" + "、".join(shown) + " 出局")
            if self.phase != "over":
                offered = self.offer_last_words(names, same_day=words_same_day)
                for n in names:  # one taken with another is told his own cause (小倩's 殉情, not the exile)
                    if n not in offered:
                        self._told_out([n], why if n in primary else self.find(n).death[2])
                self.rules.published(self, names)
        self.rules.check_end(self)

    def _told_out(self, names: list[str], when: str) -> None:
        """The dead who get no offer of last words are still told, privately, that they are out."""
        for name in names:
            self.tell(f"player:{name}", f"你已出局（{when}），没有遗言。")

    def offer_last_words(self, names: list[str], same_day: bool = False) -> list[str]:
        """Tell the dead who may leave last words; the right lasts until the next 开门. `same_day`: the
        words are published the moment they come (146's "遗言当天公示"). Returns who was offered them."""
        offered = self.state.carry.setdefault("words_offered", [])
        now = []
        for name in names:
            if name in self.state.last_words and self.state.last_words[name] is None:
                offered.append(name)
                now.append(name)
                key = f"{LAST_WORDS}:{name}"
                if same_day:
                    self.state.carry.setdefault("words_today", []).append(name)
                when = "，收到后当天公示" if same_day else ""
                self.emit(Notice(f"player:{name}", f"你已出局，可以留下遗言：发送“遗言 内容”（可多行），下一个白天开始前有效{when}。"
                                 "遗言中禁止使用Discuz!代码。", about=key))
                self.emit(DeadlineStart(key, (name,), LAST_WORDS, "open", 0))
        return now

    def owes_last_words(self, name: str) -> bool:
        """`name` was offered last words and has neither left nor waived them yet."""
        return name in self.state.carry.get("words_offered", []) and self.state.last_words[name] is None

    def _waive_last_words(self, name: str) -> None:
        self.state.last_words[name] = ""
        self.emit(DeadlineEnd(f"{LAST_WORDS}:{name}"))

    # --- the end ------------------------------------------------------------------------------------
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

    # --- acts ---------------------------------------------------------------------------------------
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

    def _last_words(self, actor: Player, text: Any) -> None:
        if actor.name not in self.state.carry.get("words_offered", []):
            raise Rejected(f"{actor.name} 现在没有遗言权利")
        if self.state.last_words[actor.name] is not None:
            raise Rejected("遗言已经提交或放弃，不能再次提交")
        words = "" if text is None else str(text)
        if not words.strip():
            raise Rejected("遗言是空的：请发送“遗言 内容”，或发送“放弃”放弃遗言")
        if len(words) > LAST_WORDS_LIMIT:
            raise Rejected(f"遗言太长：{len(words)}字，最多{LAST_WORDS_LIMIT}字。请删减后重新发送“遗言 内容”")
        self.state.last_words[actor.name] = words
        self.emit(DeadlineEnd(f"{LAST_WORDS}:{actor.name}"))
        today = actor.name in self.state.carry.get("words_today", [])
        self.tell(f"player:{actor.name}", "已收到遗言，" + ("当天公示。" if today else "将在下一个白天开始时公示。"))
        self.tell("director", f"{self.label(actor)} 的遗言：\n{words}")
        if today:
            self.tell("public", f"{actor.name} 的遗言：\n{words}")
        if discuz_code(words):
            self.tell("director", f"注意：{self.label(actor)} 的遗言含有Discuz!代码，规则禁止")

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

    # --- phases -------------------------------------------------------------------------------------
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

    def _open_day(self, lapse: bool) -> None:
        s = self.state
        if s.phase == "day" and not self.rules.day_follows_day(s.day_no):
            raise Rejected("今天之后是夜晚：请先关门")
        if lapse:
            self._lapse()
        words = self._close_last_words()
        for pending in [p for p in s.pending if p.closed]:
            self._expire(pending)  # its time ended 30 minutes or so after 关门, whether or not it was told
        after_night = s.phase == "night"
        if s.phase == "setup":
            self._begin("day")
        elif after_night:
            if not s.night.resolved:
                self._finish_night()
            if s.night.held is not None:
                # 开门 does not wait: a decision still holding the settlement is answered by day
                self._continue_settlement(wait=False)
        if s.phase == "over":
            return
        s.phase = "day"
        s.day_no += 1
        s.day = Day(number=s.day_no, votes=self.rules.today_votes(self))
        kinds = "、".join(w for k, w in (("election", "警长竞选"), ("exile", "放逐投票")) if k in s.day.votes)
        # one heading for the 开门 post: the morning's announcement carries it, or it stands alone
        self.opening, self.night_before = f"开门，第{s.day_no}天（{kinds}）", after_night
        self.rules.morning(self, list(s.night.deaths) if after_night else [])
        if self.opening:
            self.tell("public", self.opening)
            self.opening = None
        if after_night:
            for what, name in s.carry.pop("at_dawn", []) if s.phase != "over" else ():
                self.rules.public(self, what, s.player(name))
        # "遗言在下一个游戏日白天开始时公示"
        for name, text in words:
            self.tell("public", f"{name} 的遗言：\n{text}")
        if s.phase == "day":
            self.rules.begin_day(self)
            if self.rules.vote_reminder and s.phase == "day" and s.day.votes:
                spec = self.rules.vote_reminder
                self.emit(DeadlineStart(self._reminder_key(), (), VOTE_REMINDER, spec.anchor, spec.minutes))

    def _reminder_key(self) -> str:
        return f"{VOTE_REMINDER}:day{self.state.day_no}"

    def _remind_to_vote(self) -> None:
        """The post's vote reminder passed: each living player who may still vote today is told privately
        what he votes in and where (a private-vote day: the director by QQ, if he has not yet)."""
        s = self.state
        day = s.day
        kinds = [k for k in ("election", "exile") if k in day.votes and day.counted.count(k) < day.rounds.get(k, 1)
                 and not (k == "exile" and day.called_off)]
        if not kinds:
            return  # counted already, or called off: nothing left to vote for today
        words = "、".join({"election": "警长竞选", "exile": "放逐投票"}[k] for k in kinds)
        where = "请私聊我投票：发送“投票 角色 理由”" if day.private_votes else "请在投票帖投票"
        hours = written(Fraction(-self.rules.vote_reminder.minutes, 60))
        for p in s.alive():
            if p.name not in day.may_not_vote and not (day.private_votes and p.name in day.private_ballots):
                self.tell(f"player:{p.name}", f"提醒投票：今天的{words}在关门时截止（约{hours}小时后），{where}。")

    def announce(self, names: list[str], extra: dict | None = None, lines: list[str] = (), earlier: bool = False) -> None:
        """The 开门 list of who went out in the night just ended, in the post's order. `extra`: what the
        ruleset adds to the morning's record, `lines` to its text. The first day of a game that opens by
        day has no night and no day before it. Made at a 开门, it carries that 开门's heading; made later
        (M131's night 1, after the election), its own. `earlier`: the night is not last night, a day lies
        between (M131's night 1 published at day 2 when the election was never counted)."""
        s = self.state
        players = [s.player(n) for n in names]
        if self.rules.announce_order == "seat":
            players.sort(key=lambda p: p.seat)
        ordered = tuple(p.name for p in players)
        s.announcements.append({"phase": "day", "number": s.day_no, "deaths": list(ordered), **(extra or {})})
        # "每个游戏日白天开始时，都会公示前一天因投票出局角色名单、夜晚出局角色名单、当日警长"
        voted = [self.find(d["name"]) for d in s.deaths if d["phase"] == "day" and d["number"] == s.day_no - 1 and d["cause"] == "投票"]
        text = [self.opening or f"第{s.day_no}天公示"]
        # a day after a day has no night, unless an earlier night's list waited for it
        night = s.night is not None and (self.night_before or not self.opening or earlier)
        self.opening = None
        if s.day_no > 1:
            text.append("前一天投票出局：" + ("、".join(self.label(p) for p in voted) or "无"))
        if night:
            text.append((f"第{s.night.number}夜出局：" if earlier else "昨晚出局：")
                        + ("、".join(self.label(p) for p in players) if players else "无人出局（平安夜）"))
        text += self.office_lines("当日")
        text = "\n".join([*text, *lines])
        self.emit(Announcement("day", s.day_no, ordered, text))
        self.tell("public", text)
        offered = self.offer_last_words(list(ordered))
        if night:
            self._told_out([n for n in ordered if n not in offered], f"第{s.night.number}夜")
        self.rules.published(self, list(ordered))
        self.rules.check_end(self)

    def office_lines(self, prefix: str = "") -> list[str]:
        """`警长：3号 果果` (146: and `执警：…`), as the morning and every status name them."""
        s = self.state
        return [f"{prefix}{office}：" + (self.label(s.player(holder)) if holder else "无") for office, holder in self.rules.officers(self)]

    def _close_last_words(self) -> list[tuple[str, str]]:
        """开门: the words offered before it are to be published; a right not used has lapsed."""
        s = self.state
        published = []
        today = s.carry.pop("words_today", [])
        for name in s.carry.get("words_offered", []):
            if self.owes_last_words(name):
                self._waive_last_words(name)
                self.tell("director", f"{name} 未在时限内提交遗言，视为放弃")
            elif s.last_words[name] and name not in today:  # the same day's were published when they came
                published.append((name, s.last_words[name]))
        s.carry.pop("words_offered", None)
        return published

    def _close_day(self, lapse: bool) -> None:
        s = self.state
        if s.phase == "night":
            raise Rejected("现在已经是夜晚")
        if s.phase == "day" and self.rules.day_follows_day(s.day_no):
            raise Rejected("今天之后还是白天：请开门进入下一个白天")
        # a limit counted from 关门 ("关门三十分钟后") passes after what 关门 itself does (a count, an event's
        # end of day), as it does in real time; one asked by 关门 itself runs into the night
        after = [p for p in s.pending if p.from_close and not p.outlives_close] if lapse else []
        if lapse:
            self._lapse(closing=True, keep=after)
        if s.phase == "setup":
            self._begin("night")
        else:
            self.rules.closing(self)
            if self.rules.vote_reminder:  # a day closed before its reminder was due: none is sent
                self.emit(DeadlineEnd(self._reminder_key()))
        for pending in after:
            if s.phase == "day":
                self._expire(pending)
        if s.phase == "over":
            return
        for pending in s.pending:
            pending.closed = pending.from_close
        s.phase = "night"
        s.night_no += 1
        s.night = Night(number=s.night_no)
        s.day = None
        self.tell("public", f"关门，第{s.night_no}夜开始")
        self.rules.begin_night(self)

    def night_complete(self) -> bool:
        return self.phase == "night" and not self.night.resolved and not self.rules.awaiting(self)

    def _resolve_night_early(self) -> None:
        if self.phase != "night" or self.night.resolved:
            raise Rejected("现在没有待结算的夜晚")
        waiting = self.rules.awaiting(self)
        if waiting:
            raise Rejected("还有行动未收齐：" + "、".join(f"{who}<{slot}>" for who, slot in waiting))
        self._settle_night()

    def _finish_night(self) -> None:
        """开门 ends the night: whoever has not acted let the time limit pass."""
        for _ in range(len(self.state.players) * 4):
            waiting = self.rules.awaiting(self)
            if not waiting:
                break
            who, slot = waiting[0]
            self.rules.pass_night(self, who, slot)
            self.rules.route_feedback(self)
        self._settle_night()

    def _settle_night(self) -> None:
        self.rules.route_feedback(self)
        self.night.held = self.rules.resolve_night(self)
        self.night.resolved = True
        self._continue_settlement(wait=True)

    def _continue_settlement(self, wait: bool) -> None:
        """Take the night's deaths out in order. `wait`: stop while a death's decision holds the rest
        (a hunter shooting at once); it goes on once that decision is settled."""
        n = self.night
        while n.held and self.phase != "over":  # a win ends all settlement
            name, cause = n.held.pop(0)
            self.kill(self.state.player(name), cause)
            self._night_fresh()
            if wait and any(p.holds_night for p in self.state.pending):
                return
        n.held = None
        for pending in self.state.pending:
            pending.holds_night = False  # an answer still to come no longer belongs to this settlement
        names = "、".join(n.deaths) or "无人出局"
        self.tell("director", f"夜晚已结算，开门公告草稿：昨晚出局：{names}")
        if self.phase != "over":
            self.rules.settled(self)

    def _night_fresh(self) -> None:
        """Deaths of the night's settlement, with those they caused, join the 开门 list in order."""
        self.night.deaths.extend(self.fresh)
        self.fresh.clear()

    def _after_night_command(self) -> None:
        n = self.night
        if n.resolved:
            self._night_fresh()  # a hunter's shot answered before 开门
            if n.held is not None and not any(p.holds_night for p in self.state.pending):
                self._continue_settlement(wait=True)

    # --- votes --------------------------------------------------------------------------------------
    def count(self, cmd: Ballots) -> None:
        """Count a day's ballots from inside another command (146: the private ballots at 关门)."""
        self._ballots(cmd)

    def _ballots(self, cmd: Ballots) -> None:
        s = self.state
        word = "警长竞选" if cmd.kind == "election" else "放逐投票"
        if s.phase != "day":
            raise Rejected(f"现在不是白天，不能进行{word}")
        if cmd.kind not in s.day.votes:
            raise Rejected(f"今天没有{word}")
        if s.day.counted.count(cmd.kind) >= s.day.rounds.get(cmd.kind, 1):
            raise Rejected(f"今天的{word}已经统计过")
        if cmd.kind == "exile" and s.day.called_off:
            raise Rejected("今天有人自爆，投票取消")
        if s.day.vote_held:
            raise Rejected(s.day.vote_held)
        if cmd.kind == "exile" and "election" in s.day.votes and "election" not in s.day.counted:
            # a day with both: "最先高票者当选警长，出人票最高者出局" — the election is counted first
            raise Rejected("今天先统计警长竞选，再统计放逐投票：请先提交警长竞选的票")
        if unknown := [v for v, _ in cmd.void if s.player(v) is None]:
            raise Rejected(f"没有角色「{unknown[0]}」")
        valid: list[tuple[str, str, Fraction]] = []
        void: list[str] = []
        voted: set[str] = set()
        joint = self.rules.joint_problems(self, cmd.kind, list(cmd.ballots))
        for voter_name, target_name in cmd.ballots:
            # "每名存活角色每个讨论日限投一票": a second ballot by the same voter never counts
            reason = "重复投票，只计第一张" if voter_name in voted else (
                self.rules.ballot_problem(self, cmd.kind, voter_name, target_name) or joint.get(voter_name))
            if reason:
                self.warnings.append(f"{voter_name} 的票无效：{reason}")
                if voter_name not in voted:
                    void.append(voter_name)
                voted.add(voter_name)
                continue
            voted.add(voter_name)
            weight = self.vote_weight(voter_name, cmd.kind)
            valid.append((voter_name, target_name, weight))
        bonus = self.rules.exile_bonus(self) if cmd.kind == "exile" else {}
        counts, result = count(valid, bonus, self.rules.tie_rule(self, cmd.kind))
        s.day.counted.append(cmd.kind)
        shown = {k: shown_count(v) for k, v in counts.items()}
        s.tallies.append({"phase": "day", "number": s.day_no, "kind": cmd.kind, "counts": shown, "result": result})
        public = self.rules.public_counts(self, cmd.kind, counts)
        notes = self.rules.count_notes(self, cmd.kind, valid)
        ballots = _Ballots(self, cmd, valid, void)
        text = ballots.text(f"第{s.day_no}天{word}结果：", public, result, [n for n, open_ in notes if open_])
        secret = []
        if public != counts:
            secret.append("实际计数（含暗记）：" + ballots.counts_line(counts))
        secret += [n for n, open_ in notes if not open_]
        cards = self.rules.no_vote_cards(self) if cmd.kind == "exile" and cmd.whole else ()
        carded = [p for p in ballots.missing() if p.name not in cmd.excused] if cards else []
        if missing := ballots.missing():
            rule = self.rules.no_vote_card(self)
            decided = f"已给{'、'.join(self.label(p) for p in carded)}各记{cards_words(len(cards), cards[0])}（免除请发送“免牌 角色”）" if carded else ""
            spared = [self.label(self.state.player(n)) for n in cmd.excused]
            secret.append("未投票：" + "、".join(self.label(p) for p in missing) + (f"。规则：{rule}，" if rule else "")
                          + (decided if cards else "请决定是否发牌" if rule else "") + (f"；免牌：{'、'.join(spared)}" if spared else ""))
        director = f"第{s.day_no}天{word}（仅导演可见）：\n" + "\n".join(secret) if secret else ""
        self.emit(Tally("day", s.day_no, cmd.kind, shown, result, text, director))
        self.tell("public", text)
        if director:
            self.tell("director", director)
        self.rules.counted(self, cmd.kind, valid, result)
        if cmd.kind == "election":
            self.rules.after_election(self, result)
        elif result:
            self.rules.exile(self, s.player(result))
        for p in carded:  # "没有投票（或弃票）的玩家将记作一张黄牌": given once the count has taken effect
            if self.phase != "over":
                self.give_card(cards[0], p, f"第{s.day_no}天没有投票。规则：{self.rules.no_vote_card(self)}", len(cards))

    def vote_weight(self, voter: str, kind: str) -> Fraction:
        return self.rules.vote_weight(self, voter, kind)

    # --- 加速 -----------------------------------------------------------------------------------------
    def _speed_up(self, cmd: SpeedUp) -> None:
        """"游戏进程是否加速视多数玩家的意愿为准": who asked today, and whether that is enough (or the director's
        own "强制加速"). Sped up, the game stays so, unless the post has 延时 (M131: "延迟成功时，不再视为“执行加速”
        状态"), which passes on the same count."""
        s = self.state
        word = "延时" if cmd.delay else "加速"
        if s.phase != "day":
            raise Rejected(f"只有白天可以记录{word}申请")
        if cmd.delay:
            if not self.rules.delay:
                raise Rejected("本局规则没有延时")
            if cmd.forced:
                raise Rejected("延时须由玩家在进程帖申请：请发送“延时 角色 角色 …”；导演调整时间请用“关门时间”")
            if s.carry.get("delayed", {}).get("day") == s.day_no:
                raise Rejected("今天的延时已经通过")
        elif s.carry.get("sped_up"):
            raise Rejected("游戏进程已经加速")
        askers = []
        for spec in cmd.askers:
            p = self.find(spec)
            if not p.alive:
                raise Rejected(f"{self.label(p)} 已出局，不能申请{word}")
            askers.append(p.name)
        if not askers and not cmd.forced:
            raise Rejected(f"请写出在进程帖申请{word}的角色：“{word} 角色 角色 …”" + ("" if cmd.delay else "（导演执行加速：“加速 强制”）"))
        today = s.carry.setdefault("delay_asks" if cmd.delay else "speed_asks", {}).setdefault(s.day_no, [])
        today += [n for n in dict.fromkeys(askers) if n not in today]
        living = len(s.alive())
        need = self.rules.speed_up_needed(living)
        asked = f"今天申请{word}的存活玩家 {len(today)} 名（" + "、".join(self.label(s.player(n)) for n in today) + f"），存活 {living} 名，需要至少 {need} 名"
        if not (cmd.forced or len(today) >= need):
            self.tell("director", f"{word}申请已记录：{asked}，尚未通过。")
            return
        if cmd.delay:
            was_sped_up = s.carry.pop("sped_up", None)
            s.carry["delayed"] = {"day": s.day_no, "at": cmd.at, "sped_up": was_sped_up}
            self.tell("public", f"延时成功（申请延时的玩家 {len(today)} 名，存活 {living} 名）：本讨论日延长一天。"
                      + (self.rules.delay if was_sped_up else ""))
            self.tell("director", f"延时通过：{asked}。")
            return
        s.carry["sped_up"] = {"day": s.day_no, "at": cmd.at}
        why = "导演执行加速" if cmd.forced and len(today) < need else f"申请加速的玩家 {len(today)} 名，存活 {living} 名"
        self.tell("public", f"游戏进程加速（{why}）。" + (self.rules.speed_up_voids_changes or ""))
        self.tell("director", f"加速通过：{asked if today else '导演执行加速'}。")

    # --- cards --------------------------------------------------------------------------------------
    def _card(self, color: str, p: Player) -> None:
        if color not in ("蓝牌", "黄牌", "红牌"):
            raise Rejected("牌只有蓝牌、黄牌、红牌三种")
        self.give_card(color, p)

    def give_card(self, color: str, p: Player, why: str = "", count: int = 1) -> None:
        """`count` cards of one colour for `p`; he is told. `why`: the post's rule, where the bot gives them
        itself (the director is told that with what caused it: a count, a 违规)."""
        if not why:
            self.tell("director", f"{self.label(p)} 获得{color}")
        if color != "红牌":  # a red card's own messages tell him: he is out
            self.tell(f"player:{p.name}", f"导演判罚：你获得{cards_words(count, color)}" + (f"（{why}）" if why else "") + "。")
        for _ in range(count):
            p.cards[color] += 1
            shown = color
            while shown in CARD_UPGRADE and p.cards[shown] >= 3:
                p.cards[shown] -= 3
                shown = CARD_UPGRADE[shown]
                p.cards[shown] += 1
                self.tell("director", f"{self.label(p)} 累计三张牌，合并为一张{shown}")
                self.tell(f"player:{p.name}", f"你累计三张{CARD_DOWN[shown]}，合并为一张{shown}。")
            if shown == "红牌":
                self._red_card(p)
                return

    def _red_card(self, p: Player) -> None:
        s = self.state
        faction = self.rules.faction_of_red_cards(self, p)
        reds = s.carry.setdefault("red_cards", {})
        reds[faction] = reds.get(faction, 0) + 1
        if p.alive:
            self.kill(p, "红牌")
            self.publish_deaths([p.name], "红牌罚下")
        elif self.phase == "day" and p.death == ("day", s.day_no, "投票"):
            self._red_card_before_vote(p)
        self.tell("director", f"{faction}累计红牌 {reds[faction]} 张；导演可决定是否判负该阵营")
        limit = self.rules.red_cards_to_lose
        if limit is not None and reds[faction] >= limit and faction not in s.lost and s.phase != "over":
            self.lose(faction)

    def _red_card_before_vote(self, p: Player) -> None:
        """"白天红牌罚下在被投票出局之前": the day's count put `p` out and a red card comes the same day.
        He goes out by the red card instead. What his vote-out brought and has not happened yet goes
        (his last words, the decisions still asked of him, the ruleset's own); what was carried out
        stands, for a death published cannot be taken back ("已经公示的出局角色不属于游戏范畴"). The
        director is told each change."""
        s = self.state
        p.death = (*p.death[:2], "红牌")
        at = next(i for i, d in enumerate(s.deaths) if d["name"] == p.name)
        s.deaths[at]["cause"] = "红牌"
        changes = ["出局原因：投票 → 红牌"]
        self.tell("public", f"红牌罚下：{self.label(p)}（白天红牌罚下在被投票出局之前：按红牌罚下出局，不再按投票出局）")
        lost = []
        cancelled = [q for q in s.pending if q.who == p.name]
        for pending in cancelled:
            self.settle(pending)
            lost.append(f"<{pending.skill}>")
        changes += [f"取消<{q.skill}>（尚未答复）" for q in cancelled]
        if p.name in s.last_words:
            changes += self._withdraw_last_words(p, s.deaths[at + 1:])
            lost.insert(0, "遗言权利")
        changes += self.rules.red_card_instead(self, p, [q.skill for q in cancelled])
        changes += [f"已执行，不撤回：{done}" for done in s.carry.get("answered", {}).get(p.name, [])]
        self.tell(f"player:{p.name}", "你被红牌罚下（白天红牌罚下在被投票出局之前），按红牌罚下出局"
                  + (f"：你不再有{'、'.join(lost)}。" if lost else "。"))
        self.tell("director", f"{self.label(p)} 今天被投票出局后又被红牌罚下，改为红牌罚下出局：\n"
                  + "\n".join(f"· {c}" for c in changes))

    def _withdraw_last_words(self, p: Player, later: list[dict]) -> list[str]:
        """"红牌罚下出局的角色没有遗言权利": the right goes, with words sent and not yet published. Where
        the rights are counted, the one it held falls to whoever went out after him (`later`) without one."""
        s = self.state
        words = s.last_words.pop(p.name)
        if p.name in s.carry.get("words_offered", []):
            s.carry["words_offered"].remove(p.name)
        self.emit(DeadlineEnd(f"{LAST_WORDS}:{p.name}"))
        changes = ["取消遗言权利" + ("（已提交的遗言不会公示）" if words else "")]
        for d in later:
            q = s.player(d["name"])
            if q.name not in s.last_words and self.rules.has_last_words(self, q, d["cause"]):
                s.last_words[q.name] = None
                self.offer_last_words([q.name])
                changes.append(f"遗言权利改由 {self.label(q)} 获得")
        return changes

    # --- time limits --------------------------------------------------------------------------------
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


class _Ballots:
    """One count's ballots as the thread reads them: the counts sorted, the 票型 with each 改票, who
    abstained, who did not vote, and whose ballot was void (with why, where the post's format or 改票
    rules made it so)."""

    def __init__(self, g: Game, cmd: Ballots, valid: list[tuple[str, str, Fraction]], void: list[str]):
        self.g, self.kind, self.valid = g, cmd.kind, valid
        self.first = dict(cmd.changed)
        self.cast = {voter for voter, _ in cmd.ballots}
        # a void post is a reply to the vote thread all the same: its poster is not one who did not vote
        self.void = [(name, "") for name in void] + [(v, why) for v, why in cmd.void if v not in self.cast]
        self.void += [(v, why) for v, why in g.rules.void_posts(g, cmd.kind) if v not in self.cast and v not in dict(self.void)]

    def label(self, name: str) -> str:
        return name if name == ABSTAIN else self.g.label(self.g.state.player(name))

    def counts_line(self, counts: dict[str, Fraction]) -> str:
        seat = {p.name: p.seat for p in self.g.state.players}
        ranked = sorted(((n, v) for n, v in counts.items() if v), key=lambda c: (-c[1], seat[c[0]]))
        return "、".join(f"{self.label(n)} {written(v)}票" for n, v in ranked) or "无有效票"

    def missing(self) -> list[Player]:
        """The living who could vote today and cast nothing."""
        day = self.g.state.day
        posted = self.cast | {name for name, _ in self.void}
        return [p for p in self.g.state.alive() if p.name not in posted and p.name not in day.may_not_vote]

    def text(self, heading: str, counts: dict[str, Fraction], result: str | None, notes: list[str]) -> str:
        lines = [heading, self.counts_line(counts), self._result(counts, result)]
        cast = [b for b in self.valid if b[1] != ABSTAIN]
        if cast:
            lines.append("票型：")
            lines += [f"{self.label(v)} → {self.label(t)}" + self._notes(v, w) for v, t, w in cast]
        for word, shown in (("弃权", [self.label(v) + self._notes(v) for v, t, _ in self.valid if t == ABSTAIN]),
                            ("未投票", [self.label(p.name) for p in self.missing()]),
                            ("无效票", [self.label(n) + (f"（{why}）" if why else "") for n, why in self.void])):
            if shown:
                lines.append(f"{word}：" + "、".join(shown))
        if notes:
            lines.append("计票说明：" + "；".join(notes))
        return "\n".join(lines)

    def _notes(self, voter: str, weight: Fraction = ONE) -> str:
        """What a ballot carries beyond one vote: its weight, and the 改票 it was."""
        notes = ([f"{written(weight)}票"] if weight != 1 else []) + ([f"改票，原投 {self.label(self.first[voter])}"] if voter in self.first else [])
        return f"（{'，'.join(notes)}）" if notes else ""

    def _result(self, counts: dict[str, Fraction], result: str | None) -> str:
        best = max(counts.values(), default=ZERO)
        top = sorted((n for n, v in counts.items() if v == best and v > 0), key=lambda n: self.g.state.player(n).seat)
        tied = f"平票（{'、'.join(self.label(n) for n in top)} 各{written(best)}票），" if len(top) > 1 else ""
        if self.kind == "election":
            return f"结果：{tied}" + (f"{self.label(result)} 当选警长" if result else "本局没有警长")
        if result:  # a tie with a result: 146's "平票时警长投票的角色出局"
            return f"结果：{tied}{'按警长的票，' if tied else ''}{self.label(result)}"
        return f"结果：{tied or ('' if top else '无有效票，')}无人出局"

