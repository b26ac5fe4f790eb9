"""Penalty cards: given, three merged into the next colour, and a red card's consequences."""
from __future__ import annotations

from .errors import Rejected
from .state import Player

CARD_UPGRADE = {"蓝牌": "黄牌", "黄牌": "红牌"}
CARD_DOWN = {up: down for down, up in CARD_UPGRADE.items()}


def cards_words(count: int, color: str) -> str:
    """"两张蓝牌": a number of cards as the posts write it."""
    return ("一两三"[count - 1] if count <= 3 else str(count)) + "张" + color


class Cards:
    """The part of `Game` (engine/game.py) that hands out penalty cards."""

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
