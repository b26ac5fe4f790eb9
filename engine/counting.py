"""A day's count: the ballots checked against the post's rules, weighed, counted, published with
the 票型, and the no-vote cards given."""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from . import tie_pick
from .cards import cards_words
from .commands import Ballots
from .errors import Rejected
from .events import Tally
from .state import Player
from .votes import ONE, ZERO, count, shown as shown_count, written
from .words import ABSTAIN

if TYPE_CHECKING:
    from .game import Game


class Counting:
    """The part of `Game` (engine/game.py) that counts the day's votes."""

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
        if cmd.kind == "exile" and "election" in s.day.votes and s.day.counted.count("election") < s.day.rounds.get("election", 1):
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
        pk_round = cmd.kind in s.day.pk
        top = _top(self, counts)
        pk = self._pk(cmd.kind, top) if result is None else ()
        picking = tie_pick.tied_for_pick(self, cmd.kind, top) if result is None else ()
        s.day.counted.append(cmd.kind)
        if pk:
            s.day.pk[cmd.kind] = pk
            s.day.rounds[cmd.kind] = s.day.counted.count(cmd.kind) + 1
        shown = {k: shown_count(v) for k, v in counts.items()}
        s.tallies.append({"phase": "day", "number": s.day_no, "kind": cmd.kind, "counts": shown, "result": result})
        public = self.rules.public_counts(self, cmd.kind, counts)
        notes = self.rules.count_notes(self, cmd.kind, valid)
        ballots = _Ballots(self, cmd, valid, void)
        text = ballots.text(f"第{s.day_no}天{word}{'PK' if pk_round else ''}结果：", public, result,
                            [n for n, open_ in notes if open_], pk, picking)
        secret = []
        if public != counts:
            secret.append("实际计数（含暗记）：" + ballots.counts_line(counts))
        secret += [n for n, open_ in notes if not open_]
        # the day's no-vote cards are the first round's: a PK round is the same day's vote, once more
        cards = self.rules.no_vote_cards(self) if cmd.kind == "exile" and cmd.whole and not pk_round else ()
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
        if pk:
            tied = "、".join(self.label(s.player(n)) for n in pk)
            after = "本局没有警长" if cmd.kind == "election" else "无人出局"
            self.tell("public", f"{word}平票，进入PK：{tied} 上PK台发言，其他角色在投票帖重新投票，只能投给 {tied}"
                      f"（PK台上的角色不参与投票）。再次平票则{after}。")
        elif cmd.kind == "election":
            self.rules.after_election(self, result)
        elif result:
            self.rules.exile(self, s.player(result))
        elif picking:
            tie_pick.ask(self, picking)
        for p in carded:  # "没有投票（或弃票）的玩家将记作一张黄牌": given once the count has taken effect
            if self.phase != "over":
                self.give_card(cards[0], p, f"第{s.day_no}天没有投票。规则：{self.rules.no_vote_card(self)}", len(cards))

    def _pk(self, kind: str, top: list[str]) -> tuple[str, ...]:
        """The tied (`top`, in seat order) who go to a PK round: a tie on the top count the ruleset sends to one."""
        return tuple(top) if len(top) > 1 and self.rules.tie_round(self, kind) else ()

    def vote_weight(self, voter: str, kind: str) -> Fraction:
        return self.rules.vote_weight(self, voter, kind)


def _top(g: Game, counts: dict[str, Fraction]) -> list[str]:
    """Who has the top count, in seat order (nobody where it is not above zero)."""
    best = max(counts.values(), default=ZERO)
    return [p.name for p in g.state.players if best > 0 and counts.get(p.name) == best]


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
        """The living who could vote in this count and cast nothing (the tied of a PK round cannot)."""
        g = self.g
        posted = self.cast | {name for name, _ in self.void}
        return [p for p in g.state.alive() if p.name not in posted and g.rules.ballot_problem(g, self.kind, p.name, ABSTAIN) is None]

    def text(self, heading: str, counts: dict[str, Fraction], result: str | None, notes: list[str], pk: tuple[str, ...] = (),
             picking: tuple[str, ...] = ()) -> str:
        lines = [heading, self.counts_line(counts), self._result(counts, result, pk, picking)]
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

    def _result(self, counts: dict[str, Fraction], result: str | None, pk: tuple[str, ...], picking: tuple[str, ...]) -> str:
        best = max(counts.values(), default=ZERO)
        top = _top(self.g, counts)
        tied = f"平票（{'、'.join(self.label(n) for n in top)} 各{written(best)}票），" if len(top) > 1 else ""
        if pk:
            return f"结果：{tied}进入PK"
        if picking:
            return f"结果：{tied}由警长决定其中一名出局"
        if self.kind == "election":
            return f"结果：{tied}" + (f"{self.label(result)} 当选警长" if result else "本局没有警长")
        if result:  # a tie with a result: 146's "平票时警长投票的角色出局"
            return f"结果：{tied}{'按警长的票，' if tied else ''}{self.label(result)}"
        unpicked = "（没有警长决定）" if tied and tie_pick.applies(self.g, self.kind) else ""
        return f"结果：{tied or ('' if top else '无有效票，')}无人出局{unpicked}"
