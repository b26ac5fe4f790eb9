"""The night's settlement: resolved early or at 开门, its deaths taken out in order, held while a
death's decision (a hunter's shot) is awaited."""
from __future__ import annotations

from .errors import Rejected


class Nights:
    """The part of `Game` (engine/game.py) that settles the nights."""

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
