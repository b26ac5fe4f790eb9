"""Counting weighted votes with exact fractions (1.5 and 2.5 are real weights)."""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

ZERO, ONE = Fraction(0), Fraction(1)

# Given the counts and the ballots in posting order, pick the result among the top candidates.
TieRule = Callable[[dict[str, Fraction], list[tuple[str, str, Fraction]], list[str]], str | None]


def shown(n: Fraction) -> int | float:
    """A number of votes as the thread and the transcript show it: 1.5 and 2.5 stay halves, the rest whole."""
    return int(n) if n.denominator == 1 else float(n)


def written(n: Fraction) -> str:
    return str(shown(n))


def nobody(counts, ballots, top):
    """A tie: nobody is elected or sent out."""
    return None


def first_to_reach(counts, ballots, top):
    """最先高票者: of the tied, the one who reached the top count first as ballots were posted."""
    best = max(counts.values())
    running: dict[str, Fraction] = {}
    for _, target, weight in ballots:
        running[target] = running.get(target, ZERO) + weight
        if target in top and running[target] >= best:
            return target
    return None


def sheriffs_vote(sheriff: str | None) -> TieRule:
    """146: "平票时警长投票的角色出局，警长未投票则无人出局。" As written: on a tie for the top count the player the
    sheriff voted for goes out, among the tied or not (his 2.5 leave his candidate on a half count no whole-vote
    rival equals); a sheriff who did not vote, or abstained, sends nobody."""

    def rule(counts, ballots, top):
        return next((t for voter, t, _ in ballots if voter == sheriff), None)

    return rule


def count(ballots: list[tuple[str, str, Fraction]], bonus: dict[str, Fraction], tie: TieRule) -> tuple[dict[str, Fraction], str | None]:
    """`ballots`: (voter, target or 弃权, weight) in posting order. Returns the counts and the result."""
    counts: dict[str, Fraction] = {}
    for _, target, weight in ballots:
        if target != "弃权":
            counts[target] = counts.get(target, ZERO) + weight
    for target, extra in bonus.items():
        counts[target] = counts.get(target, ZERO) + extra
    if not counts:
        return counts, None
    best = max(counts.values())
    if best <= 0:  # a count lowered below every vote (146's 统领) sends nobody out
        return counts, None
    top = [name for name, n in counts.items() if n == best]
    if len(top) == 1:
        return counts, top[0]
    return counts, tie(counts, [b for b in ballots if b[1] != "弃权"], top)
