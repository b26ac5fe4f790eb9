"""Deaths and last words: a player taken out, the deaths published, the right to last words offered,
used, waived, lapsed at 开门 or withdrawn (a red card after the vote)."""
from __future__ import annotations

from typing import Any

from .discuz import discuz_code
from .events import Death, DeadlineEnd, DeadlineStart, Notice
from .errors import Rejected
from .state import Player
from .words import LAST_WORDS

LAST_WORDS_LIMIT = 2000  # characters: what a player can have published in the 开门 post


class Deaths:
    """The part of `Game` (engine/game.py) that takes players out and keeps their last words."""

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
