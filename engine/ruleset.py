"""What a rule post declares, and the hooks its code fills in.

A ruleset is declarations (line-up, teams, phases, weights, time limits) plus a few functions for
the skills with real behaviour. The engine calls the hooks; it never names an identity itself.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import TYPE_CHECKING, Callable

from . import votes
from .errors import Rejected

if TYPE_CHECKING:
    from .game import Game
    from .state import Pending, Player


@dataclass(frozen=True)
class Role:
    name: str
    faction: str
    count: int
    team: str | None = None  # the QQ group its members share from the start
    hidden_as: str | None = None  # what the player is told he is (a hidden identity); he fills one of its places
    summary: str = ""  # the skills, as the player is told them at the start


@dataclass(frozen=True)
class TimeLimit:
    """A time limit as the post states it: `minutes` after `anchor` (`open`: the next 开门)."""

    anchor: str  # "close" (关门) | "now" (the moment it is asked) | "open" | "clock" (a time of day) | "opened" (the day's 开门)
    minutes: int  # after the anchor; for "clock", after midnight
    text: str  # the post's words


@dataclass(frozen=True)
class Skill:
    """A skill a player sends. `when`: start | night | day | decision (answering a pending ask)."""

    name: str
    when: str
    run: Callable[["Game", "Player", object], None]
    aliases: tuple[str, ...] = ()
    team: bool = False  # sent for the whole team by any living member
    # the identities that hold it; empty where the holder is decided otherwise (a team, a decision asked)
    holders: tuple[str, ...] = ()
    takes_target: bool = True
    targets: int = 1  # how many players one use names (丘比特之箭: two)
    with_text: bool = False  # `run` also gets the free text sent with it (a private ballot's reason)
    usage: str = ""  # what to send, where it is not "skill 座位号" (a card's number, a number 0-99...)
    # the team skill it is added to (154's 姥姥之怒 "在该阵营吸食角色时，可以附加"): sent in the team's
    # group like the team's own, and with no target it attaches to the team's choice already sent
    attaches_to: str | None = None


@dataclass(frozen=True)
class DayLength:
    """讨论日长短 as a post states it: a day opened on date A closes on A+`days` at `at` (minutes after
    midnight, the forum's time), a day later when its span meets a weekend (`weekend`), except day 1 where
    `first_exempt`. The director may change it; the bot only proposes it. `text`: the post's words."""

    days: int
    at: int
    weekend: bool
    first_exempt: bool
    text: str

    def closes(self, opened: date, day_no: int) -> tuple[date, int]:
        """The date and time of day (minutes) a day opened on `opened` closes."""
        last = opened + timedelta(days=self.days)
        span = [opened + timedelta(days=i) for i in range(self.days + 1)]
        if self.weekend and not (self.first_exempt and day_no == 1) and any(d.weekday() >= 5 for d in span):
            last += timedelta(days=1)
        return last, self.at


@dataclass(frozen=True)
class Quota:
    """How many times something may happen, with the post's words."""

    count: int
    text: str


class Ruleset:
    id: str
    # Raised with a change of this ruleset's code that makes a game play otherwise than its declarations
    # say (a settlement's order, a skill's effect): a game started before is then paused, never replayed
    # by the new code (engine/snapshot.py).
    version: int = 1
    title: str
    roles: tuple[Role, ...]
    first_phase: str  # "night" | "day"
    sheriff_weight: Fraction
    announce_order: str  # "seat" (电梯楼) | "death"
    limits: dict[str, TimeLimit]
    skills: dict[str, Skill]
    # False where a start-of-game choice can reshape the teams (146: "1、游戏开始时，丘比特选择情侣。2、所有角色
    # 的阵营确定，狼人共群，情侣共群，非情侣的两姐妹共群"): the groups are formed when the first phase opens.
    teams_known_when_dealt: bool = True
    # whether <殉职> may tear the badge instead of naming a successor (M131: "可以撕警徽")
    badge_may_be_torn: bool = False
    # Red cards within one faction that make it lose by themselves (M131: "同一阵营的角色累计获得两张或以上
    # 红牌时，阵营判负"); None where only the director decides (FactionLoss).
    red_cards_to_lose: int | None = 2
    # True: the game is judged the moment each death is settled, so a win stops the rest of a
    # settlement; False: only when deaths are published.
    judge_each_death: bool = False
    # How many substitutes (替补) one character may have (M131: "每名角色仅限更换一次替补"); None where
    # the post sets no limit.
    substitutes: Quota | None = None
    # 行动时限 as the post writes it, line by line: what every player's brief lists
    deadline_rules: tuple[str, ...] = ()
    # 讨论日长短: what 开门 proposes as the day's closing time (None: the post sets none)
    day_length: DayLength | None = None
    # "关门前一小时不得改票": minutes before 关门 from which a 改票 is void (None: no such rule), with its words
    change_cutoff: Quota | None = None
    # the post's words making a 改票 after a speed-up void (None: the post says nothing of it)
    speed_up_voids_changes: str | None = None
    # 延时: the post's words for a day extended at the players' request (None: the post has no 延时)
    delay: str | None = None
    # how long before the day's end the players' requests (加速, 延时) must be in, with the post's words
    asks_cutoff: Quota | None = None
    # the witch's night slot, whose answer is one of her potions (救药 / 毒药) or 放弃
    potion_slot: str | None = None
    # what the post calls the night's harm that <通灵> senses (154: the ghosts' 吸精)
    harm_word: str = "指杀"
    # causes of a death caused on the spot that the thread is not told (154's 殉情 names 小倩 and 宁采臣, and
    # "游戏进行期间以任何方式出局的角色均不公示其身份"): the death is listed, its cause left out
    secret_causes: frozenset[str] = frozenset()
    # When the post has the living reminded to vote, counted back from 关门 (146, 154: "在投票结束前一个半至
    # 两个小时之间提醒玩家投票"); None: it has none. Only a message, which plays nothing: kept out of the
    # declarations a game's snapshot compares (no annotation), so no game started before it is paused for it.
    vote_reminder = None

    # what `configure` reads, each key with what it takes, in Chinese (`python -m engine simulate --set`)
    settings: dict[str, str] = {}

    def configure(self, options: dict) -> dict:
        """The game's options as this ruleset reads them (146: which new moons are in play); raises
        ValueError, in Chinese, on one it cannot use."""
        if options:
            raise ValueError("本局规则没有这些设置：" + "、".join(options))
        return {}

    def choices(self) -> dict[str, dict]:
        """What the options choose from, by kind and name, each with its declaration (146: every new-moon
        event): a game keeps those it started with, and one added later is no choice of its own."""
        return {}

    def factions(self, g: "Game") -> list[str]:
        """The factions in this game, in the post's order: one that forms during play joins them."""
        return list(dict.fromkeys(r.faction for r in self.roles))

    @property
    def size(self) -> int:
        return sum(r.count for r in self.roles if r.hidden_as is None)

    def role(self, name: str) -> Role | None:
        return next((r for r in self.roles if r.name == name), None)

    def skill(self, word: str) -> Skill | None:
        if word in self.skills:
            return self.skills[word]
        return next((s for s in self.skills.values() if word in s.aliases), None)

    # --- phases -------------------------------------------------------------------------------
    def day_votes(self, day_no: int) -> frozenset[str]:
        raise NotImplementedError

    def day_follows_day(self, day_no: int) -> bool:
        return False

    def today_votes(self, g: "Game") -> frozenset[str]:
        """The counts the day just opened holds: its schedule, unless the game changed it."""
        return self.day_votes(g.state.day_no)

    # --- what the bot shows -------------------------------------------------------------------
    def officers(self, g: "Game") -> list[tuple[str, str | None]]:
        """The offices every morning and status names, with their holders: the sheriff (146: and the 执警)."""
        return [("警长", g.state.sheriff)]

    def slot_text(self, g: "Game", who: str, slot: str) -> str | None:
        """What `who` sends for a night slot that is not one skill's name (`帮助`), from what he still has
        (the witch's slot: `potion_slot`)."""
        return None

    def speed_up_needed(self, living: int) -> int:
        """加速: how many living players must ask. "如果在进程帖中申请加速的玩家大于等于所有存活玩家的二分之一则游戏进程加速"."""
        return (living + 1) // 2

    def no_vote_card(self, g: "Game") -> str | None:
        """The card the post gives a living player who did not vote, in its words, or None."""
        return None

    def no_vote_cards(self, g: "Game") -> tuple[str, ...]:
        """The cards, of one colour, the bot gives each living player who did not vote in the exile count (the
        director may spare one: `免牌`); () where the director decides (`no_vote_card` is then only told him)."""
        return ()

    def count_notes(self, g: "Game", kind: str, ballots: list[tuple[str, str, Fraction]]) -> list[tuple[str, bool]]:
        """Every weight that changed this count, each with whether the thread may be told it (a secret
        mark is the director's only). `ballots`: the valid ones, with their weights."""
        sheriff = g.state.sheriff
        if self.sheriff_weight != 1 and any(voter == sheriff for voter, _, _ in ballots):
            return [(f"警长 {g.label(g.state.player(sheriff))} 的票计为{votes.written(self.sheriff_weight)}票", True)]
        return []

    # --- hooks the engine calls ---------------------------------------------------------------
    def start_game(self, g: "Game") -> None:
        """The first phase is about to open: settle start-of-game choices nobody made."""

    def begin_night(self, g: "Game") -> None:
        """A night opened: say who may act tonight and until when."""

    def begin_day(self, g: "Game") -> None:
        """A day opened, after its announcement."""

    def awaiting(self, g: "Game") -> list[tuple[str, str]]:
        """Night decisions still open, as (who, slot); the night is complete when this is empty."""
        return []

    def pass_night(self, g: "Game", who: str, slot: str) -> None:
        """`who` let `slot` go (放弃 or its time limit)."""
        g.mark_done(who, slot)

    def route_feedback(self, g: "Game") -> None:
        """Deliver every feedback whose inputs are now in."""

    def resolve_night(self, g: "Game") -> list[tuple[str, str]]:
        """Settle the night in the post's order; returns (name, cause) of everyone who goes out."""
        return []

    def morning(self, g: "Game", night_deaths: list[str]) -> None:
        """A day opened: publish who went out in the night before it (none at the first 开门, or after a day)."""
        g.announce(night_deaths)

    def ballot_problem(self, g: "Game", kind: str, voter: str, target: str) -> str | None:
        """Why a ballot is void, or None when it counts."""
        v = g.state.player(voter)
        if v is None:
            return f"没有角色「{voter}」"
        if not v.alive:
            return f"{voter} 已出局，不能投票"
        day = g.state.day
        if voter in day.may_not_vote:
            return f"{voter} 今天不能投票（{day.may_not_vote[voter]}）"
        pk = day.pk.get(kind)
        if pk and voter in pk:
            return f"{voter} 在PK台上，不参与PK投票"
        if target == "弃权":
            return None
        t = g.state.player(target)
        if t is None:
            return f"没有角色「{target}」"
        if not t.alive:
            return f"{target} 已出局，不能被投票"
        if target in day.may_not_be_voted:
            return f"{target} 今天不能成为投票对象（{day.may_not_be_voted[target]}）"
        if pk and target not in pk:
            return "PK只能投给平票者：" + "、".join(pk)
        allowed = day.only_for.get(voter, day.only_for.get("*"))
        if allowed is not None and target not in allowed:
            return f"{voter} 今天只能投票给 " + "、".join(sorted(allowed))
        return None

    def void_posts(self, g: "Game", kind: str) -> list[tuple[str, str]]:
        """(voter, why) of each who voted where the day's rule made it void before any count (146's ballot
        posted in the thread on a private-vote day): the count lists him among its 无效票."""
        return []

    def joint_problems(self, g: "Game", kind: str, ballots: list[tuple[str, str]]) -> dict[str, str]:
        """Ballots void because of how they stand together (two sisters bound to one target), by voter."""
        return {}

    def vote_weight(self, g: "Game", voter: str, kind: str) -> Fraction:
        """What one ballot of `voter` counts (the sheriff's: the post's weight)."""
        return self.sheriff_weight if g.state.sheriff == voter else votes.ONE

    def public_counts(self, g: "Game", kind: str, counts: dict[str, Fraction]) -> dict[str, Fraction]:
        """The counts as the thread is told them (a mark the director keeps secret left out)."""
        return counts

    def exile(self, g: "Game", p: "Player") -> None:
        """The exile vote sends `p` out (a ruleset may let him avoid it)."""
        g.kill(p, "投票")
        g.publish_deaths([p.name], "放逐投票")

    def tie_rule(self, g: "Game", kind: str) -> votes.TieRule:
        return votes.nobody

    def tie_round(self, g: "Game", kind: str) -> bool:
        """Whether a tie in this count, with no result by `tie_rule`, goes to a PK round today: a second count
        between the tied only, in which they do not vote."""
        return False

    def counted(self, g: "Game", kind: str, ballots: list[tuple[str, str, Fraction]], result: str | None) -> None:
        """A count was tallied (`ballots`: the valid ones), before its result takes effect."""

    def after_election(self, g: "Game", elected: str | None) -> None:
        g.state.sheriff = elected
        if elected:
            g.tell(f"player:{elected}", "你当选了警长。" + self.sheriff_text(g))

    def told_as(self, g: "Game", p: "Player") -> str:
        """The identity `p` knows he has: a hidden one's cover, until the game tells him (154's 宁采臣 found)."""
        role = self.role(p.role)
        return role.hidden_as or role.name

    def sheriff_duties(self, g: "Game") -> str:
        """What more the post asks of a sheriff in this game, told him when he is elected (146: 任命, 决策)."""
        return ""

    def sheriff_text(self, g: "Game") -> str:
        """What the sheriff is told of his office ("成为警长的角色将收到告知"): his ballot's weight (带队) and his
        <殉职>, and what more the post asks of him in this game (`sheriff_duties`)."""
        must = "可以" if self.badge_may_be_torn else "须"
        tear = "，或“殉职 撕”撕毁警徽" if self.badge_may_be_torn else ""
        return (f"<带队>：你的投票计为{votes.written(self.sheriff_weight)}票。<殉职>：你非因红牌出局后{must}选择一名未出局的角色"
                f"继任警长（发送“殉职 座位号”{tear}）。" + self.sheriff_duties(g))

    def timeout(self, g: "Game", key: str) -> list[str]:
        """A time limit this ruleset started itself passed; returns what it settled."""
        return []

    def expire(self, g: "Game", pending: "Pending") -> None:
        """A decision asked of a player was not answered in time: the post's consequence."""

    def exile_bonus(self, g: "Game") -> dict[str, Fraction]:
        """Extra votes counted on a player in today's exile (乌鸦 <诽谤>...)."""
        return {}

    def instead(self, g: "Game", player: "Player", cause: str) -> "tuple[Player, str] | None":
        """Someone else who goes out in `player`'s place, and the cause (146's 试验鸳鸯); None: nobody."""
        return None

    def target_problem(self, g: "Game", target: "Player", skill: str) -> str | None:
        """Why a living player may not be the target of `skill` now (146's 狼王的生日); None: he may."""
        return None

    def closing(self, g: "Game") -> None:
        """The day is about to close (关门): what happens 即将入夜前."""

    def settled(self, g: "Game") -> None:
        """The night's settlement is complete: every death of it has gone out."""

    def breach(self, g: "Game", p: "Player") -> None:
        """`Breach`: `p` broke the rule the day's event sets."""
        raise Rejected("今天没有可以违反的新月规则")

    def speech_window(self, g: "Game") -> tuple[str, int] | None:
        """A speech rule of today's that holds for a while from 开门: its name and minutes (146's 英语考试)."""
        return None

    def day_options(self, g: "Game", name: str) -> list[str]:
        """What `name` may send today beyond his night slots and the decisions asked of him (`帮助`)."""
        return []

    def fix_moon(self, g: "Game", event: str, start: str | None, drawn: bool) -> None:
        """The director fixes the next new-moon draw (`Moon`)."""
        raise Rejected("本局没有新月事件")

    def after_death(self, g: "Game", player: "Player", cause: str) -> None:
        """Whatever a death triggers (a successor, an extra kill...)."""

    def public(self, g: "Game", what: str, p: "Player") -> None:
        """Give what `Game.when_public` held for a death to be public (a question to ask `p`...)."""

    def published(self, g: "Game", names: list[str]) -> None:
        """These deaths were just made public (at 开门, or at once by day): what the post publishes with them."""

    def has_last_words(self, g: "Game", player: "Player", cause: str) -> bool:
        return cause != "红牌"

    def red_card_instead(self, g: "Game", p: "Player", cancelled: list[str]) -> list[str]:
        """"白天红牌罚下在被投票出局之前": `p`, whom today's count put out, was red-carded the same day and
        goes out by the red card instead. Undo what his vote-out brought that has not happened yet and
        give what a red card brings. `cancelled`: the decisions asked of him that were withdrawn.
        Returns each change, for the director."""
        return []

    def check_end(self, g: "Game") -> None:
        """Judge wins and losses; called each time deaths are published."""

    def faction_of_red_cards(self, g: "Game", player: "Player") -> str:
        return player.faction

    def surrender_voters(self, g: "Game", faction: str) -> list[str]:
        """Everyone who must agree for `faction` to surrender (dead included)."""
        return []
