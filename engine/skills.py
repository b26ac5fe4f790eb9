"""Skill mechanics more than one rule post shares, written once and parameterised by each ruleset.

Each ruleset's own skill function quotes its post and calls these with the post's parameters
(whether the witch may save herself, whether the badge may be torn...).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import Rejected

if TYPE_CHECKING:
    from .game import Game
    from .state import Player


def living_with_role(g: "Game", role: str) -> "Player | None":
    return next((p for p in g.state.players if p.role == role and p.alive), None)


def once_tonight(g: "Game", skill: str, who: str, slot: str | None = None) -> None:
    """A night action is final once sent, and gone once its slot was passed or timed out."""
    done = g.night.actions.get(skill)
    if done:
        raise Rejected(f"{who}今晚已经发动过<{skill}>（目标 {done[1]}），不能更改")
    if g.decided(who, slot or skill):
        raise Rejected(f"{who}今晚已经放弃<{slot or skill}>或已超过时限")


def team_passes(g: "Game", actor: "Player", team: str, slot: str) -> None:
    """A team skill sent with no target (“杀人 空”): the team lets it go tonight, for good."""
    g.mark_done(team, slot)
    g.tell(f"team:{team}", f"{actor.name} 代表{team}放弃了今晚的<{slot}>。已确认，不能更改。")


def night_target(g: "Game", actor: "Player", skill: str, target) -> "Player":
    """A night action on one living player, final once sent: recorded, its slot closed, the sender told."""
    once_tonight(g, skill, actor.name)
    t = g.living_target(target, skill)
    g.night.actions[skill] = (actor.name, t.name)
    g.mark_done(actor.name, skill)
    g.tell(f"player:{actor.name}", f"已收到：{skill} {g.label(t)}。")
    return t


def sensed(g: "Game", names: list[str], harm: str) -> str:
    """<通灵>'s feedback: who was `harm`ed (指杀, 吸精) tonight, by seat and name, or that nobody was."""
    if not names:
        return f"通灵：今晚没有角色被{harm}。"
    return f"通灵：今晚被{harm}的角色是 " + "、".join(g.label(g.state.player(n)) for n in names) + "。"


def save(g: "Game", actor: "Player", target, *, slot: str, self_save_refusal: str | None) -> None:
    """救药: once a game, only after the 通灵 feedback, never with 毒药 the same night; it takes 通灵 away.

    `self_save_refusal`: the refusal when the post forbids saving oneself (None: allowed).
    """
    if "救药" in actor.used:
        raise Rejected("<救药>已经用过")
    if "毒药" in g.night.actions:
        raise Rejected("今晚已经使用<毒药>，不能再使用<救药>")
    once_tonight(g, "救药", actor.name, slot)
    if not g.feedback_given(actor.name, "通灵"):
        raise Rejected("还没有收到<通灵>反馈，请等待反馈后再决定是否使用<救药>")
    t = g.living_target(target, "救药")
    if self_save_refusal and t.name == actor.name:
        raise Rejected(self_save_refusal)
    actor.used.add("救药")
    actor.lost.add("通灵")
    g.night.actions["救药"] = (actor.name, t.name)
    g.mark_done(actor.name, slot)
    g.tell(f"player:{actor.name}", f"已收到：救药 {g.label(t)}。今晚不能再使用毒药。")


def poison(g: "Game", actor: "Player", target, *, slot: str) -> None:
    """毒药: once a game, never with 救药 the same night; the target goes out before the night ends."""
    if "毒药" in actor.used:
        raise Rejected("<毒药>已经用过")
    if "救药" in g.night.actions:
        raise Rejected("今晚已经使用<救药>，不能再使用<毒药>")
    once_tonight(g, "毒药", actor.name, slot)
    t = g.living_target(target, "毒药")
    actor.used.add("毒药")
    g.night.actions["毒药"] = (actor.name, t.name)
    g.mark_done(actor.name, slot)
    g.tell(f"player:{actor.name}", f"已收到：毒药 {g.label(t)}。")


def charge_lost(g: "Game", p: "Player", team: str, holder_role: str) -> None:
    """冲锋 is lost "当任意一名{team}内角色因除红牌罚下以外的原因出局后" (146's 狼王, 154's 姥姥); the holder
    keeps whose going out took it, for a red card that turns out to have come first (charge_back)."""
    if p.name not in g.state.teams.get(team, ()):
        return
    for holder in g.state.with_role(holder_role):
        if "冲锋" not in holder.lost:
            holder.lost.add("冲锋")
            holder.marks["冲锋"] = p.name
            if holder.alive:
                g.tell(f"player:{holder.name}", f"{team}内有角色出局，你失去了<冲锋>。")


def charge_back(g: "Game", p: "Player", team: str, holders: list["Player"]) -> list[str]:
    """`p`'s going out is a red card after all: the 冲锋 it took from `holders` comes back, unless another
    member of `team` went out other than by a red card. Returns the change, for the director."""
    s = g.state
    changes = []
    for holder in holders:
        if holder.marks.get("冲锋") != p.name:
            continue
        other = next((q.name for q in s.players if q.name in s.teams[team] and q.death and q.death[2] != "红牌"), None)
        if other:
            holder.marks["冲锋"] = other
            continue
        del holder.marks["冲锋"]
        holder.lost.discard("冲锋")
        if holder.alive:
            g.tell(f"player:{holder.name}", f"{g.label(p)} 改为红牌罚下出局，你重新获得<冲锋>。")
        changes.append(f"{g.label(holder)} 重新获得<冲锋>（{team}内没有角色因红牌以外的原因出局）")
    return changes
