"""The day: 开门 and 关门, the morning's announcement, the post's vote reminder, 加速 and 延时."""
from __future__ import annotations

from fractions import Fraction

from . import tie_pick
from .commands import SpeedUp
from .errors import Rejected
from .events import Announcement, DeadlineEnd, DeadlineStart
from .state import Day, Night
from .votes import written
from .words import VOTE_REMINDER


class Days:
    """The part of `Game` (engine/game.py) that opens and closes the days."""

    def _open_day(self, lapse: bool) -> None:
        s = self.state
        if s.phase == "day" and not self.rules.day_follows_day(s.day_no):
            raise Rejected("今天之后是夜晚：请先关门")
        if lapse:
            self._lapse()
        if s.phase == "day":  # a day that follows the day: the day's decisions end with it
            tie_pick.day_ends(self, "当天结束前没有决定平票者中谁出局")
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
