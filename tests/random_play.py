"""The harness of the random-game tests (tests/test_random_games*.py), one per ruleset.

A test plays whole games with random commands and checks the engine's invariants after every one.
What does not depend on the ruleset lives here:

- `Play`, one game: every command goes through `Play.do`, which checks what holds in every ruleset —
  a refused command changes nothing (a deep picture of the whole state, the seeded generator
  included) and says why; an accepted act comes from a player of the roster, from the living unless
  the dead may send it, answers a decision only when it is asked, uses a limited skill once and a
  skill only from its identity and in its phase; a tally counts the valid ballots at their weights
  and flags a ballot from a player who is out; nobody dies twice or comes back; a finished game has
  one winner, every other faction has lost, and it accepts nothing more. A ruleset's `Run` subclass
  names its rules (`rules`, `dead_may`, `asked`, `limited`, `owners`, `sheriff_weight`) and adds its
  own invariants through the hooks (`context`, `check_act`, `check_ballots`, `check_deaths`,
  `check_accepted`, `check_state`, `tie`);
- `Play.check_replay`: the accepted commands, replayed on a fresh game, rebuild the same state;
- `Chooser`, the random commands the rulesets share (`any_target`, `any_actor`, `some_noise`), and
  `Play.staying`, which keeps a phase's driver from sending into the next phase;
- `Broken`, the failure of one invariant, with the game's transcript, and `explain`: the shortest
  command sequence that still breaks the same invariant (delta debugging over the commands sent);
  `explained` adds it to a Hypothesis test's final failure, and `WHOLE_GAMES` are such a test's settings.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from fractions import Fraction
from typing import Any, Callable

from hypothesis import HealthCheck, settings
from hypothesis.control import current_build_context

from engine import Act, Ballots, CloseDay, Game, OpenDay, deal
from engine.events import DeadlineStart

PHASE_OF = {"start": "setup", "night": "night", "day": "day"}  # the phase a skill's `when` allows

# For a test that plays whole games from `st.randoms`: the same 200 games on every run; a game is
# slow and draws a lot, which Hypothesis's deadline and health checks would report as faults.
WHOLE_GAMES = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


class Broken(AssertionError):
    """An invariant failed. `tag` names the invariant (a reduction must break the same one)."""

    def __init__(self, tag: str, what: str, run: "Play"):
        super().__init__(f"[{tag}] {what}\n{run.transcript()}")
        self.tag, self.what, self.run = tag, what, run

    @property
    def headline(self) -> str:
        return f"[{self.tag}] {self.what}"


# --- choices ------------------------------------------------------------------------------------------
class Chooser:
    """Every choice goes through `randint`, so Hypothesis shrinks each one to its first option; the
    options are ordered so that the first one is the plain, game-advancing choice."""

    def __init__(self, rnd: random.Random):
        self.r = rnd

    def int(self, lo: int, hi: int) -> int:
        return self.r.randint(lo, hi)

    def rarely(self, pct: int) -> bool:
        """True with probability pct%; shrinks to False."""
        return self.r.randint(0, 99) >= 100 - pct

    def usually(self, pct: int) -> bool:
        """True with probability pct%; shrinks to True."""
        return self.r.randint(0, 99) < pct

    def pick(self, seq):
        seq = list(seq)
        return seq[self.r.randint(0, len(seq) - 1)]

    def shuffled(self, seq) -> list:
        items, out = list(seq), []
        while items:
            out.append(items.pop(self.r.randint(0, len(items) - 1)))
        return out


# --- a deep, comparable picture of the state -----------------------------------------------------------
def freeze(x: Any) -> Any:
    t = type(x)
    if x is None or t in (str, int, bool, float, Fraction):
        return x
    if hasattr(t, "__dataclass_fields__"):
        return (t.__name__, tuple((f, freeze(getattr(x, f))) for f in t.__dataclass_fields__))
    if isinstance(x, dict):  # insertion order kept: it is part of what a replay must rebuild
        return ("dict", tuple((freeze(k), freeze(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (t.__name__, tuple(freeze(v) for v in x))
    if isinstance(x, (set, frozenset)):
        return ("set", tuple(sorted((freeze(v) for v in x), key=repr)))
    if isinstance(x, random.Random):
        return ("rng", x.getstate())
    if hasattr(x, "__dict__"):
        return (t.__name__, freeze(vars(x)))
    return repr(x)


def first_difference(a: Any, b: Any, path: str = "state") -> str:
    """Where two frozen states differ, for the failure message."""
    if type(a) is not type(b) or not isinstance(a, tuple) or len(a) != len(b):
        return f"{path}: {a!r:.300} != {b!r:.300}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            label = x[0] if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) and x[0] == y[0] else i
            return first_difference(x[1] if label != i else x, y[1] if label != i else y, f"{path}.{label}")
    return f"{path}: equal"


def show(cmd: Any) -> str:
    if isinstance(cmd, Act):
        extra = f", text={cmd.text!r}" if cmd.text is not None else ""
        return f"Act({cmd.by!r}, {cmd.skill!r}, {cmd.target!r}{extra})"
    return repr(cmd)


# --- one game, every command checked -------------------------------------------------------------------
class Play:
    """One game of `rules`, dealt to `names` from `seed` (or played with `roster`), its choices drawn by `ch`."""

    dead_may: set[str] | frozenset[str] = frozenset()  # the only acts a player who is out may send
    asked: tuple[str, ...] = ()  # decisions accepted only from a player they are asked of
    limited: tuple[str, ...] = ()  # skills a player uses once in the game
    owners: dict[str, set[str]] = {}  # skill -> the identities that may send it
    sheriff_weight = Fraction(1)  # the weight of the sheriff's ballot, as the post gives it
    options: dict = {}  # how the game is configured (146: which new moons are in play)

    def __init__(self, rules: Any, names: list[str], ch: Chooser, seed: int, roster: list[tuple[str, str]] | None = None):
        self.rules = rules
        self.ch = ch
        self.seed = seed
        self.roster = roster or deal(rules, names, seed)
        self.names = [n for n, _ in self.roster]
        self.role = dict(self.roster)
        self.g = Game(rules, self.roster, seed=seed, options=self.options)
        self.log: list[tuple[Any, bool, str | None]] = []  # every command sent: (command, accepted, error)
        self.accepted: list[tuple[Any, list, list]] = []  # (command, events, warnings)
        self.snaps: list[Any] = []  # the frozen state after each accepted command
        self.snap = self.start_snap = freeze(self.g.state)
        self.keys: list[str] = []  # every deadline key the engine announced
        self.phases = 0
        self.uses: Counter = Counter()  # (player, limited skill) -> accepted uses
        self.where = (self.s.phase, self.s.night_no, self.s.day_no)  # before the command being checked

    def fresh(self) -> "Play":
        """The same deal before any command, with choices that play no part (for the reduction)."""
        raise NotImplementedError

    # -- reporting
    def transcript(self) -> str:
        lines = [f"seed={self.seed}", "roster=" + repr(self.roster), "commands:"]
        lines += [f"  {show(cmd)}" + ("" if ok else f"    # rejected: {err}") for cmd, ok, err in self.log]
        return "\n".join(lines)

    def fail(self, tag: str, what: str) -> None:
        raise Broken(tag, what, self)

    def check(self, cond: bool, tag: str, what: str) -> None:
        if not cond:
            self.fail(tag, what)

    # -- helpers
    @property
    def s(self):
        return self.g.state

    def name_of(self, spec: Any) -> str | None:
        """Whom the engine understands by a `by`/target spec (name or seat number), if anyone."""
        text = str(spec).strip() if spec is not None and not isinstance(spec, list) else ""
        if text.isdigit():
            return self.names[int(text) - 1] if 1 <= int(text) <= len(self.names) else None
        return text if text in self.role else None

    def living(self) -> list[str]:
        return [p.name for p in self.s.players if p.alive]

    def dead(self) -> list[str]:
        return [p.name for p in self.s.players if not p.alive]

    def holders(self, role: str, alive: bool = True) -> list[str]:
        return [p.name for p in self.s.players if p.role == role and (p.alive or not alive)]

    def staying(self) -> Callable[[], bool]:
        """A test of whether the game is still in the phase it is in now: any command may end the
        phase or the game, and what a phase's driver sends next must not spill into the next one."""
        where = (self.s.phase, self.s.night_no, self.s.day_no)
        return lambda: (self.s.phase, self.s.night_no, self.s.day_no) == where

    # -- the one way a command is sent
    def do(self, cmd: Any):
        s = self.s
        before = self.snap
        self.where = where = (s.phase, s.night_no, s.day_no)
        ctx = {
            "where": where,
            "alive": set(self.living()),
            "pending": {(p.who, p.skill) for p in s.pending},
            "used": {p.name: set(p.used) for p in s.players},
            "sheriff": s.sheriff,
            "deaths": len(s.deaths),
            "tallies": len(s.tallies),
            **self.context(),
        }
        try:
            out = self.g.apply(cmd)
        except Exception as exc:  # the engine's only refusal is an Outcome; anything else is a crash
            self.log.append((cmd, False, f"CRASH {type(exc).__name__}: {exc}"))
            self.fail("crash", f"the engine raised {type(exc).__name__}: {exc} on {show(cmd)}")
        self.log.append((cmd, out.ok, out.error))
        after = freeze(self.s)
        if not out.ok:
            self.check(after == before, "refusal-changed-state", f"rejected {show(cmd)} changed the state: {first_difference(before, after)}")
            self.check(not out.events and not out.warnings, "refusal-with-events", f"rejected {show(cmd)} still produced events or warnings")
            self.check(bool(out.error), "refusal-without-reason", f"rejected {show(cmd)} gave no reason")
        else:
            self.check(where[0] != "over", "accepted-after-end", f"{show(cmd)} was accepted after the game had ended")
            self.accepted.append((cmd, out.events, out.warnings))
            self.snaps.append(after)
            self.keys += [e.key for e in out.events if isinstance(e, DeadlineStart)]
            if isinstance(cmd, Act):
                self.check_act(cmd, ctx)
            if isinstance(cmd, Ballots):
                self.check_ballots(cmd, out, ctx)
            self.check_deaths(cmd, ctx)
            self.check_accepted(cmd, out, ctx)
        self.check_state(cmd)
        self.snap = after
        if (self.s.phase, self.s.night_no, self.s.day_no) != where:
            self.phases += 1
        return out

    def advance(self, cmd: Any) -> None:
        """The schedule's next phase, sent by the director while the game goes on: the engine must
        always let the game move on."""
        out = self.do(cmd)
        self.check(out.ok, "stuck", f"{show(cmd)} is refused in {self.where}: {out.error}")

    def next_steps(self) -> tuple:
        """What moves the game on now; a game that refuses them all is stuck."""
        return (OpenDay(lapse=True), CloseDay(lapse=True))

    # -- hooks for a ruleset's own invariants
    def context(self) -> dict:
        """What the ruleset's checks need to know from before the command, beyond `do`'s own."""
        return {}

    def check_accepted(self, cmd: Any, out, ctx: dict) -> None:
        """The ruleset's invariants after an accepted command."""

    def check_state(self, cmd: Any) -> None:
        """The ruleset's invariants after every command, accepted or not."""

    def tie(self, kind: str, counts: dict[str, Fraction], cast: list, top: list[str], ctx: dict) -> str | None:
        """The result of a tie among `top` (`cast`: the valid ballots for a player, in posting order)."""
        return None

    # -- invariants
    def check_act(self, cmd: Act, ctx: dict) -> tuple[str, Any, str]:
        """Who may send an accepted act, and when. Returns the actor, the skill (None for a word that is
        no skill) and the skill's name."""
        actor = self.name_of(cmd.by)
        self.check(actor is not None, "unknown-actor", f"{show(cmd)} accepted from nobody in the roster")
        skill = self.rules.skill(cmd.skill)
        word = skill.name if skill else cmd.skill
        if actor not in ctx["alive"]:
            self.check(word in self.dead_may, "dead-acted", f"{show(cmd)} accepted although {actor} was out")
        if word in self.asked:
            self.check((actor, word) in ctx["pending"], "unasked-decision", f"{show(cmd)} accepted with no <{word}> asked of {actor}")
        if word in self.limited:
            self.uses[(actor, word)] += 1
            self.check(self.uses[(actor, word)] == 1 and word not in ctx["used"][actor], "limited-twice",
                       f"limited <{word}> accepted again from {actor}: {show(cmd)}")
        if skill is not None:
            if word in self.owners:
                self.check(self.role[actor] in self.owners[word], "wrong-identity", f"{show(cmd)} accepted from a {self.role[actor]}")
            want = PHASE_OF.get(skill.when)
            self.check(want is None or ctx["where"][0] == want, "wrong-phase", f"{show(cmd)} accepted in phase {ctx['where'][0]}")
        return actor, skill, word

    def valid_ballots(self, cmd: Ballots, ctx: dict, void: set[str] = frozenset(), unvotable: set[str] = frozenset()) -> list:
        """The ballots that count, as (voter, target or 弃权, weight) in posting order: a voter's first,
        from a living player not in `void`, for a living player not in `unvotable`, or 弃权."""
        valid, voted = [], set()
        for voter, target in cmd.ballots:
            again = voter in voted
            voted.add(voter)
            if again or voter not in ctx["alive"] or voter in void:
                continue
            if target != "弃权" and (target not in ctx["alive"] or target in unvotable):
                continue
            valid.append((voter, target, self.sheriff_weight if voter == ctx["sheriff"] else Fraction(1)))
        return valid

    def tally_fits(self, cmd: Ballots, counts: dict[str, Fraction], expected: dict[str, Fraction]) -> bool:
        """Do the counts of the new tally match what the valid ballots give?"""
        return counts == expected

    def check_ballots(self, cmd: Ballots, out, ctx: dict) -> str | None:
        """One new tally of the valid ballots at their weights, its result by the counts and the tie
        rule; a ballot from a player who is out is void and says so. Returns the result."""
        s = self.s
        self.check(len(s.tallies) == ctx["tallies"] + 1, "tally", f"{show(cmd)} accepted without exactly one new tally")
        tally = s.tallies[-1]
        for voter, _ in cmd.ballots:
            if voter not in ctx["alive"]:
                self.check(any(voter in w for w in out.warnings), "dead-ballot", f"the ballot of {voter} (out) is not in the warnings: {out.warnings}")
        valid = self.valid_ballots(cmd, ctx)
        expected: dict[str, Fraction] = {}
        for _, target, weight in valid:
            if target != "弃权":
                expected[target] = expected.get(target, Fraction(0)) + weight
        counts = {k: Fraction(v) for k, v in tally["counts"].items()}
        self.check(self.tally_fits(cmd, counts, expected), "tally", f"tally {tally} does not match the valid ballots {expected}")
        want = None
        if counts and max(counts.values()) > 0:  # a count lowered to zero or below (146's 统领) sends nobody out
            top = [c for c, v in counts.items() if v == max(counts.values())]
            want = top[0] if len(top) == 1 else self.tie(cmd.kind, counts, [b for b in valid if b[1] != "弃权"], top, ctx)
        self.check(tally["result"] == want, "tally", f"tally {tally}: the result should be {want}")
        return want

    def check_deaths(self, cmd: Any, ctx: dict) -> list[dict]:
        """Nobody dies twice or comes back, and the deaths are exactly who is out. Returns the new deaths."""
        s = self.s
        names = [d["name"] for d in s.deaths]
        self.check(len(names) == len(set(names)), "died-twice", f"a player died twice: {s.deaths} (after {show(cmd)})")
        new = s.deaths[ctx["deaths"]:]
        for d in new:
            self.check(d["name"] in ctx["alive"], "died-twice", f"{d['name']} died ({d}) although already out (after {show(cmd)})")
        alive_now = set(self.living())
        self.check(alive_now <= ctx["alive"], "came-back", f"{sorted(alive_now - ctx['alive'])} came back (after {show(cmd)})")
        self.check(set(names) == set(self.names) - alive_now, "deaths-mismatch", f"deaths {names} do not match who is out (after {show(cmd)})")
        return new

    def check_end(self, factions: list[str] | tuple[str, ...]) -> bool:
        """A finished game has exactly one winner and every other faction has lost; a game that goes on
        has none. Returns whether the game is over."""
        s = self.s
        if s.phase != "over":
            self.check(s.winner is None, "winner", f"winner {s.winner} while the game goes on (phase {s.phase})")
            return False
        self.check(s.winner in factions and set(s.lost) == set(factions) - {s.winner} and len(s.lost) == len(set(s.lost)),
                   "winner", f"the game ended with winner {s.winner!r} and lost {s.lost}")
        return True

    def check_replay(self, every_step: bool = True) -> None:
        """The accepted commands, in order, rebuild the same game from the same roster and seed.
        Without `every_step` only the final state is compared, and a difference is then looked for
        step by step, to name the first command after which it shows."""
        outside = random.getstate()  # chance from outside the game's own generator must not matter
        random.seed(f"replay {self.seed} {len(self.accepted)}")
        try:
            g = Game(self.rules, self.roster, seed=self.seed, options=self.options)
            self.check(freeze(g.state) == self.start_snap, "replay", "a fresh game differs from this one's start")
            for i, (cmd, events, warnings) in enumerate(self.accepted):
                out = g.apply(cmd)
                self.check(out.ok, "replay", f"replay: accepted command #{i} {show(cmd)} is rejected on replay: {out.error}")
                self.check(out.events == events and out.warnings == warnings, "replay", f"replay: {show(cmd)} (#{i}) told something else")
                if every_step:
                    now = freeze(g.state)
                    if now != self.snaps[i]:
                        self.fail("replay", f"replay: after #{i} {show(cmd)} the state differs: {first_difference(self.snaps[i], now)}")
            if not every_step and self.accepted and freeze(g.state) != self.snaps[-1]:
                self.check_replay(every_step=True)
        finally:
            random.setstate(outside)


# --- random commands -------------------------------------------------------------------------------------
def any_target(run: Play) -> Any:
    ch = run.ch
    k = ch.int(0, 11)
    if k <= 5:
        return ch.pick(run.names)
    if k == 6 and run.dead():
        return ch.pick(run.dead())
    if k == 7:
        return ch.int(0, len(run.names) + 1)  # a seat number, sometimes out of range
    if k == 8:
        return str(ch.int(1, len(run.names)))
    if k == 9:
        return None
    if k == 10:
        return "无名氏"
    return [ch.pick(run.names), ch.pick(run.names)]


def any_actor(run: Play) -> str:
    ch = run.ch
    k = ch.int(0, 9)
    if k <= 6:
        return ch.pick(run.names)
    if k == 7 and run.dead():
        return ch.pick(run.dead())
    if k == 8:
        return str(ch.int(1, len(run.names)))
    return "路人"


def some_noise(run: Play, most: int, noise: Callable[[Any], None]) -> None:
    """Up to `most` random commands from `noise`, while the game goes on."""
    for _ in range(run.ch.int(0, most)):
        if run.s.phase == "over":
            return
        noise(run)


# --- the shortest reproduction --------------------------------------------------------------------------
def breaks(run: Play, cmds: list, tag: str) -> bool:
    """Do these commands alone, sent to a fresh game of the same deal, break the same invariant?"""
    again = run.fresh()
    try:
        for cmd in cmds:
            again.do(cmd)
        if tag == "stuck":
            return again.s.phase != "over" and not any(again.g.apply(c).ok for c in again.next_steps())
        if tag == "replay":
            again.check_replay()
    except Broken as exc:
        return exc.tag == tag
    return False


def shortest(run: Play, tag: str, budget: float) -> list | None:
    """Delta debugging over the commands sent (Zeller's ddmin, complements only), within `budget` seconds."""
    cmds = [cmd for cmd, _, _ in run.log]
    if tag == "no-end" or not breaks(run, cmds, tag):
        return None
    stop = time.monotonic() + budget
    items, n = cmds, 2
    while len(items) >= 2 and time.monotonic() < stop:
        size = -(-len(items) // n)
        for start in range(0, len(items), size):
            rest = items[:start] + items[start + size:]
            if time.monotonic() < stop and breaks(run, rest, tag):
                items, n = rest, max(n - 1, 2)
                break
        else:
            if size == 1:
                break
            n = min(2 * n, len(items))
    return items


def explain(exc: Broken, budget: float) -> str:
    """The failure with its game, and the shortest command sequence found within `budget` seconds
    that still breaks the same invariant."""
    run = exc.run
    short = shortest(run, exc.tag, budget)
    if short is None:
        return str(exc)
    again, why = run.fresh(), ""
    try:
        for cmd in short:
            again.do(cmd)
        if exc.tag == "replay":
            again.check_replay()
        if exc.tag == "stuck":  # what the next phase answers
            steps = again.next_steps()
            for cmd in steps:
                again.do(cmd)
            why = " and ".join(show(cmd) for cmd in steps) + " refused"
    except Broken as short_exc:
        why = short_exc.headline
    return f"{exc}\n\nshortest reproduction ({len(short)} of {len(run.log)} commands): {why}\n{again.transcript()}"


def final_run() -> bool:
    """Hypothesis's last run of the minimal failing example (or no Hypothesis at all)."""
    try:
        return current_build_context().is_final
    except Exception:
        return True


def explained(exc: Broken, budget: float = 60.0) -> Broken:
    """Add the shortest reproduction to the failure of a Hypothesis test's final, minimal game (the
    runs before it are many, and only the last one is reported)."""
    if final_run():
        exc.args = (explain(exc, budget),)
    return exc
