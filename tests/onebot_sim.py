"""A simulated OneBot v11 implementation for end-to-end tests.

It plays the part NapCat plays in production: a WebSocket *client* that connects to the bot's
reverse WebSocket (`ws://HOST:PORT/onebot/v11/ws`) with `X-Self-ID` and `Authorization: Bearer`,
pushes events (messages, requests, notices) in the array message format, and answers the bot's API
calls `{"action", "params", "echo"}` with `{"status", "retcode", "data", "echo"}`.

Everything the bot does is recorded and checked:
- every API call must be an action of `tests/onebot11-actions.json` (standard or extension) and
  use only that action's parameter names; anything else is recorded in `violations`;
- every message the bot sends must be a list of segments, all of type "text" (so no player's text
  can ever be read as CQ code); its text is recorded per target in `inbox`;
- `fail_when` makes chosen calls fail (status "failed") to exercise the bot's outbox retry;
  `hang` leaves chosen calls unanswered (nothing done), `drop_after` performs a call and then drops
  the connection before answering (the answer is lost);
- with `history`, `get_friend_msg_history` / `get_group_msg_history` answer as NapCat does (the
  chat's recent messages, the bot's own among them); without it they fail as where they are missing;
- NapCat's group history setting (`set_group_new_member_history_visibility`, kept per group), the
  friend requests QQ filtered (`filtered_friend_request` files one, never pushed as an event;
  `get_doubt_friends_add_request` / `set_doubt_friends_add_request`) and one-way friends
  (`one_way`, `get_unidirectional_friend_list`) are answered, except the actions named in `lacks`,
  which fail as in an implementation without them (Lagrange.OneBot, go-cqhttp; LLBot lacks the first);
- a file a friend sends (`private_file`: NapCat's and LLBot's `file` segment, its url given or left to
  `get_private_file_url` / `get_file`; `offline_file`: go-cqhttp's notice) names a url the test serves.

The simulator keeps its state (friends, groups, inboxes, message ids) across reconnects, so a test
can kill the bot, start it again and connect the same simulator.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SPEC = Path(__file__).resolve().parent / "onebot11-actions.json"

Target = tuple[str, int]  # ("private", user id) | ("group", group id)
CallFilter = Callable[[str, dict], bool]


def load_spec(path: Path = SPEC) -> dict[str, set[str]]:
    """Action name -> the parameter names OneBot 11 (plus the listed extensions) allows."""
    raw = json.loads(path.read_text(encoding="utf-8"))
    allowed: dict[str, set[str]] = {}
    for section in ("actions", "extensions"):
        for action, params in raw.get(section, {}).items():
            allowed.setdefault(action, set()).update(params)
    return allowed


def cq_escape(text: str) -> str:
    """How a OneBot implementation writes plain text into `raw_message` (CQ code form)."""
    return text.replace("&", "&amp;").replace("[", "&#91;").replace("]", "&#93;")


@dataclass
class Group:
    name: str
    members: set[int] = field(default_factory=set)  # not counting the bot itself
    bot_role: str = "owner"  # the bot's own role: "owner", "admin" or "member"
    roles: dict[int, str] = field(default_factory=dict)  # members who are more than "member" (owner, admin)
    history_visible: bool = True  # whether a new member sees the chat from before he joined (QQ's default)

    def member_list(self, group_id: int, self_id: int) -> list[dict]:
        """What get_group_member_list answers: the bot itself and every member, with their roles."""
        everyone = [(self_id, self.bot_role)] + [(qq, self.roles.get(qq, "member")) for qq in sorted(self.members)]
        return [{"group_id": group_id, "user_id": qq, "nickname": str(qq), "card": "", "role": role} for qq, role in everyone]


@dataclass
class Call:
    action: str
    params: dict
    at: float  # time.monotonic() when it arrived
    ok: bool  # answered "ok" (False: the simulator made it fail)
    connection: int  # which connection (1 = first, 2 = after a reconnect...)


@dataclass
class Delivered:
    target: Target
    text: str
    at: float  # time.monotonic()
    wall: float  # time.time(), to compare with times the bot stored
    connection: int


class OneBotSim:
    def __init__(self, self_id: int, token: str, *, friends: set[int] = (), groups: dict[int, Group] | None = None,
                 nicknames: dict[int, str] | None = None, spec: Path = SPEC, history: bool = False,
                 send_delay: float = 0.0, first_message_id: int = 50001, lacks: set[str] = frozenset()):
        self.self_id = self_id
        self.token = token
        self.friends: set[int] = set(friends)
        self.groups: dict[int, Group] = groups or {}
        self.nicknames = nicknames or {}
        self.allowed = load_spec(spec)

        self.calls: list[Call] = []
        self.delivered: list[Delivered] = []
        self.inbox: dict[Target, list[str]] = {}
        self.violations: list[str] = []
        self.answered_requests: dict[str, dict] = {}  # flag -> the set_*_add_request params
        self.fail_when: CallFilter | None = None  # calls matching it are answered "failed"
        self.hang_when: CallFilter | None = None  # calls matching it are never answered (nor done)
        self.drop_when: CallFilter | None = None  # calls matching it are done, then the connection drops
        self.history = history  # whether the message history extensions are there
        self.lacks = set(lacks)  # extension actions this implementation does not offer
        self.filtered: dict[int, str] = {}  # friend requests QQ filtered: user -> flag
        self.one_way: set[int] = set()  # who added the bot while it does not have them
        self.send_delay = send_delay  # seconds each send takes before it is answered (a slow QQ)
        self.hung: list[Call] = []
        self.on_delivered: Callable[[Delivered], None] | None = None  # told of each message as it arrives
        self.sent_ids: dict[int, tuple[Target, str, float]] = {}  # message id -> (chat, text, time)
        self.files: dict[str, tuple[str, str]] = {}  # file id -> (name, url) of a file a friend sent

        self._ids = itertools.count(1001)
        self._msg_ids = itertools.count(first_message_id)  # another OneBot session: ids go on
        self._private_times: dict[int, int] = {}  # OneBot's time of each private message, by its id
        self._requests: dict[str, tuple[str, int, int | None]] = {}  # flag -> (kind, user, group)
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task | None = None
        self._changed = asyncio.Condition()
        self._consumed: set[int] = set()  # indexes in `delivered` already matched by wait_for
        self.connection = 0

    # --- connection ------------------------------------------------------------------------------
    async def connect(self, port: int, timeout: float = 30.0, alive: Callable[[], bool] = lambda: True) -> None:
        """Connect to the bot's reverse WebSocket, retrying until it listens (it may still be starting)."""
        url = f"ws://127.0.0.1:{port}/onebot/v11/ws"
        headers = {"X-Self-ID": str(self.self_id), "Authorization": f"Bearer {self.token}"}
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._ws = await connect(url, additional_headers=headers, open_timeout=5, max_size=None)
                break
            except (OSError, asyncio.TimeoutError, ConnectionClosed) as exc:
                if time.monotonic() > deadline or not alive():
                    raise TimeoutError(f"could not connect to the bot at {url}: {exc!r}") from exc
                await asyncio.sleep(0.1)
        self.connection += 1
        self._reader = asyncio.create_task(self._read(self._ws, self.connection))
        await self._push({"post_type": "meta_event", "meta_event_type": "lifecycle", "sub_type": "connect"})

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            await asyncio.wait([self._reader], timeout=5)
        self._ws = self._reader = None

    @property
    def connected(self) -> bool:
        return self._reader is not None and not self._reader.done()

    async def _read(self, ws: ClientConnection, connection: int) -> None:
        try:
            async for raw in ws:
                frame = json.loads(raw)
                if "action" not in frame:
                    self.violations.append(f"a frame that is no API call: {frame!r}")
                    continue
                action, params = frame.get("action"), frame.get("params") or {}
                if self.hang_when and self.hang_when(action, params):
                    self.hung.append(Call(action, params, time.monotonic(), False, connection))
                    continue
                if self.drop_when and self.drop_when(action, params):
                    self._answer(frame, connection)  # done, and the answer never leaves
                    await ws.close()
                    break
                if self.send_delay and action.startswith("send_"):
                    asyncio.get_running_loop().create_task(self._answer_later(ws, frame, connection))
                    continue
                await ws.send(json.dumps(self._answer(frame, connection), ensure_ascii=False))
        except ConnectionClosed:
            pass
        finally:
            async with self._changed:
                self._changed.notify_all()

    async def _answer_later(self, ws: ClientConnection, frame: dict, connection: int) -> None:
        await asyncio.sleep(self.send_delay)
        try:
            await ws.send(json.dumps(self._answer(frame, connection), ensure_ascii=False))
        except ConnectionClosed:
            pass

    # --- events the simulator pushes --------------------------------------------------------------
    def _base(self) -> dict:
        return {"time": int(time.time()), "self_id": self.self_id}

    async def _push(self, event: dict) -> None:
        if self._ws is None:
            raise RuntimeError("not connected")
        await self._ws.send(json.dumps({**self._base(), **event}, ensure_ascii=False))

    def _message(self, text: str) -> dict:
        message_id = next(self._msg_ids)
        return {
            "message_id": message_id, "message_seq": message_id, "real_id": message_id,
            "message": [{"type": "text", "data": {"text": text}}], "message_format": "array",
            "raw_message": cq_escape(text), "font": 14,
        }

    async def private(self, user_id: int, text: str, message_id: int | None = None, at: int | None = None) -> int:
        """A private message to the bot (a friend's, or a stranger's) at OneBot's time `at` (now); returns its
        message id (pass it again to repeat it)."""
        body = self._message(text)
        if message_id is not None:
            body.update(message_id=message_id, message_seq=message_id, real_id=message_id)
        # a message delivered again carries its first delivery's time: the time tells a redelivery from a message
        # set up anew under an old id (service/handling.py, Seen.verdict)
        body["time"] = self._private_times.setdefault(body["message_id"], int(time.time()) if at is None else at)
        await self._push({
            "post_type": "message", "message_type": "private", "user_id": user_id,
            "sub_type": "friend" if user_id in self.friends else "other",  # a non-friend's: NapCat's temp session or other
            "target_id": self.self_id, "sender": {"user_id": user_id, "nickname": self.nicknames.get(user_id, str(user_id)), "card": ""},
            **body,
        })
        return body["message_id"]

    async def private_file(self, user_id: int, name: str, url: str, size: int, with_url: bool = False) -> str:
        """A file a friend sends the bot, as NapCat posts it: a private message of one `file` segment, its url only
        `with_url` (NapCat gives one where it can fetch it at once); returns its file id."""
        file_id = f"file-{len(self.files) + 1}"
        self.files[file_id] = (name, url)
        body = self._message("")
        data = {"file": name, "file_id": file_id, "file_size": str(size), **({"url": url} if with_url else {})}
        body.update(message=[{"type": "file", "data": data}], raw_message=f"[CQ:file,file={cq_escape(name)}]")
        await self._push({
            "post_type": "message", "message_type": "private", "user_id": user_id, "sub_type": "friend",
            "target_id": self.self_id, "sender": {"user_id": user_id, "nickname": self.nicknames.get(user_id, str(user_id)), "card": ""},
            **body,
        })
        return file_id

    async def offline_file(self, user_id: int, name: str, url: str, size: int) -> None:
        """A file a friend sends the bot, as go-cqhttp posts it: the notice `offline_file`."""
        await self._push({"post_type": "notice", "notice_type": "offline_file", "user_id": user_id,
                          "file": {"name": name, "size": size, "url": url}})

    async def group_message(self, group_id: int, user_id: int, text: str) -> int:
        body = self._message(text)
        await self._push({
            "post_type": "message", "message_type": "group", "sub_type": "normal", "group_id": group_id,
            "user_id": user_id, "anonymous": None,
            "sender": {"user_id": user_id, "nickname": self.nicknames.get(user_id, str(user_id)), "card": "", "role": "member"},
            **body,
        })
        return body["message_id"]

    async def friend_request(self, user_id: int, comment: str = "") -> str:
        flag = f"friend-{next(self._ids)}"
        self._requests[flag] = ("friend", user_id, None)
        await self._push({"post_type": "request", "request_type": "friend", "user_id": user_id, "comment": comment, "flag": flag})
        return flag

    def filtered_friend_request(self, user_id: int) -> str:
        """A friend request QQ filters: no event comes, only get_doubt_friends_add_request lists it."""
        flag = f"doubt-{next(self._ids)}"
        self.filtered[user_id] = flag
        return flag

    async def group_request(self, group_id: int, user_id: int, comment: str = "") -> str:
        flag = f"group-{next(self._ids)}"
        self._requests[flag] = ("group", user_id, group_id)
        await self._push({"post_type": "request", "request_type": "group", "sub_type": "add", "group_id": group_id,
                          "user_id": user_id, "comment": comment, "flag": flag})
        return flag

    async def group_increase(self, group_id: int, user_id: int, sub_type: str = "approve", operator_id: int | None = None) -> None:
        """Someone joined (`approve`: an admin let him in; `invite`: a member invited him)."""
        self.groups[group_id].members.add(user_id)
        await self._push({"post_type": "notice", "notice_type": "group_increase", "sub_type": sub_type, "group_id": group_id,
                          "operator_id": operator_id if operator_id is not None else self.self_id, "user_id": user_id})

    # --- answering the bot's calls -----------------------------------------------------------------
    def _check(self, action: str, params: Any) -> None:
        if action not in self.allowed:
            self.violations.append(f"{action}: not a OneBot v11 action")
            return
        if not isinstance(params, dict):
            self.violations.append(f"{action}: params is {type(params).__name__}, not an object")
            return
        for name in params:
            if name not in self.allowed[action]:
                self.violations.append(f"{action}: parameter {name!r} is not one of {sorted(self.allowed[action])}")
        for name in ("user_id", "group_id"):
            if name in params and not isinstance(params[name], int):
                self.violations.append(f"{action}: {name} should be a number, got {params[name]!r}")
        if "message" in params:
            message = params["message"]
            if not isinstance(message, list) or not message:
                self.violations.append(f"{action}: message is not a list of segments: {message!r}")
            elif any(not isinstance(s, dict) or s.get("type") != "text" or not isinstance(s.get("data", {}).get("text"), str) for s in message):
                self.violations.append(f"{action}: message has a segment that is not plain text: {message!r}")

    def _answer(self, frame: dict, connection: int) -> dict:
        action, params, echo = frame.get("action"), frame.get("params") or {}, frame.get("echo")
        self._check(action, params)
        failed = bool(self.fail_when and self.fail_when(action, params))
        if action in ("get_friend_msg_history", "get_group_msg_history") and not self.history or action in self.lacks:
            failed = True  # as an implementation without the extension answers
        self.calls.append(Call(action, params, time.monotonic(), not failed, connection))
        if failed:
            result = {"status": "failed", "retcode": 1200, "data": None, "message": "simulated failure", "wording": "模拟发送失败", "echo": echo}
        else:
            result = {"status": "ok", "retcode": 0, "data": self._perform(action, params, connection), "message": "", "wording": "", "echo": echo}
        asyncio.get_running_loop().create_task(self._notify())
        return result

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    def _perform(self, action: str, params: dict, connection: int) -> Any:
        if action in ("send_private_msg", "send_group_msg", "send_msg"):
            kind = "group" if action == "send_group_msg" or params.get("message_type") == "group" else "private"
            target = (kind, int(params["group_id"] if kind == "group" else params["user_id"]))
            text = "".join(s.get("data", {}).get("text", "") for s in params.get("message") or [] if isinstance(s, dict))
            delivered = Delivered(target, text, time.monotonic(), time.time(), connection)
            self.delivered.append(delivered)
            self.inbox.setdefault(target, []).append(text)
            if self.on_delivered is not None:
                self.on_delivered(delivered)
            message_id = next(self._msg_ids)
            self.sent_ids[message_id] = (target, text, time.time())
            return {"message_id": message_id}
        if action in ("get_friend_msg_history", "get_group_msg_history"):
            private = action == "get_friend_msg_history"
            target = ("private", int(params["user_id"])) if private else ("group", int(params["group_id"]))
            mine = [(i, t, at) for i, (chat, t, at) in self.sent_ids.items() if chat == target][-int(params.get("count", 20)):]
            return {"messages": [{
                "message_id": i, "message_seq": i, "real_id": i, "time": int(at),
                "message_type": "private" if private else "group", "user_id": self.self_id,
                "sender": {"user_id": self.self_id, "nickname": "banshabot"},
                "message": [{"type": "text", "data": {"text": t}}], "raw_message": cq_escape(t),
            } for i, t, at in mine]}
        if action == "get_friend_list":
            return [{"user_id": qq, "nickname": self.nicknames.get(qq, str(qq)), "remark": ""} for qq in sorted(self.friends)]
        if action == "get_doubt_friends_add_request":
            return [{"flag": flag, "uin": qq, "nick": self.nicknames.get(qq, str(qq)), "source": "QQ号查找", "reason": "",
                     "msg": "", "group_code": "0", "time": str(int(time.time())), "type": "doubt"}
                    for qq, flag in list(self.filtered.items())[:int(params.get("count", 50))]]
        if action == "get_unidirectional_friend_list":
            return [{"uin": qq, "uid": f"u_{qq}", "nick_name": self.nicknames.get(qq, str(qq)), "age": 0, "source": ""}
                    for qq in sorted(self.one_way)]
        if action == "get_private_file_url":
            return {"url": self.files[str(params["file_id"])][1]}
        if action == "get_file":
            name, url = self.files[str(params.get("file_id") or params.get("file"))]
            return {"file": "", "url": url, "file_name": name}
        if action == "get_login_info":
            return {"user_id": self.self_id, "nickname": "banshabot"}
        if action == "get_group_member_list":
            group = self.groups.get(int(params.get("group_id", 0)))
            return group.member_list(int(params["group_id"]), self.self_id) if group else []
        if action == "set_friend_add_request":
            self.answered_requests[str(params.get("flag"))] = params
            kind, user, _ = self._requests.get(str(params.get("flag")), (None, None, None))
            if kind == "friend" and params.get("approve", True):
                self.friends.add(user)
        elif action == "set_group_add_request":
            self.answered_requests[str(params.get("flag"))] = params
            kind, user, group = self._requests.get(str(params.get("flag")), (None, None, None))
            if kind == "group" and params.get("approve", True) and group in self.groups:
                # as NapCat does: the member is in, and a group_increase notice follows
                asyncio.get_running_loop().create_task(self.group_increase(group, user, "approve"))
        elif action == "set_group_kick":
            group = self.groups.get(int(params.get("group_id", 0)))
            if group:
                group.members.discard(int(params["user_id"]))
        elif action == "set_doubt_friends_add_request":
            user = next((qq for qq, flag in self.filtered.items() if flag == params.get("flag")), None)
            if user is not None:
                del self.filtered[user]
                self.friends.add(user)
        elif action == "set_group_new_member_history_visibility":
            group = self.groups.get(int(params.get("group_id", 0)))
            if group:
                group.history_visible = bool(params["visible"])
        elif action == "set_group_name":
            group = self.groups.get(int(params.get("group_id", 0)))
            if group:
                group.name = params["group_name"]
        return None

    def fail(self, predicate: CallFilter, times: int = 1) -> list[Call]:
        """Answer "failed" to the next `times` calls matching `predicate`; returns the list those
        failed calls are added to."""
        return self._some(predicate, times, "fail_when")

    def hang(self, predicate: CallFilter, times: int = 1) -> list[Call]:
        """Leave the next `times` calls matching `predicate` unanswered (and undone)."""
        return self._some(predicate, times, "hang_when")

    def drop(self, predicate: CallFilter, times: int = 1) -> list[Call]:
        """Do the next `times` calls matching `predicate`, then drop the connection before answering."""
        return self._some(predicate, times, "drop_when")

    def _some(self, predicate: CallFilter, times: int, attribute: str) -> list[Call]:
        picked: list[Call] = []

        def once(action: str, params: dict) -> bool:
            if len(picked) < times and predicate(action, params):
                picked.append(Call(action, params, time.monotonic(), False, self.connection))
                return True
            return False

        setattr(self, attribute, once)
        return picked

    # --- what the tests look at --------------------------------------------------------------------
    def messages(self, target: Target) -> list[str]:
        return list(self.inbox.get(target, []))

    def mark(self) -> int:
        """A point in the delivery record: wait_for(..., since=mark) looks only at what came after."""
        return len(self.delivered)

    def calls_of(self, action: str) -> list[Call]:
        return [c for c in self.calls if c.action == action]

    async def wait_until(self, condition: Callable[[], Any], timeout: float, what: str = "condition") -> Any:
        """Wait until `condition()` is truthy (checked after every call the bot makes); its value."""
        async def waiting():
            async with self._changed:
                while not (value := condition()):
                    try:  # woken by every call the bot makes; state changed elsewhere is polled
                        await asyncio.wait_for(self._changed.wait(), 0.1)
                    except asyncio.TimeoutError:
                        pass
                return value

        try:
            return await asyncio.wait_for(waiting(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}") from None

    async def wait_for(self, target: Target | int, predicate: str | Callable[[str], bool], timeout: float = 10.0, since: int = 0) -> str:
        """The first message to `target` (a user id: his private chat; or ("group", id)) matching
        `predicate` (a substring or a function), delivered at or after `since`, that no earlier
        wait_for returned; waits for it up to `timeout` seconds."""
        if isinstance(target, int):
            target = ("private", target)
        match = (lambda text: predicate in text) if isinstance(predicate, str) else predicate

        def find():
            for i in range(since, len(self.delivered)):
                d = self.delivered[i]
                if i not in self._consumed and d.target == target and match(d.text):
                    self._consumed.add(i)
                    return d.text
            return None

        try:
            return await self.wait_until(find, timeout, f"a message to {target} matching {predicate!r}")
        except AssertionError as exc:
            got = "\n---\n".join(self.messages(target)[-6:])
            raise AssertionError(f"{exc}; its last messages:\n{got}") from None

    async def wait_call(self, action: str, predicate: Callable[[dict], bool] = lambda p: True, timeout: float = 10.0) -> Call:
        def find():
            return next((c for c in self.calls if c.action == action and c.ok and predicate(c.params)), None)

        return await self.wait_until(find, timeout, f"a call to {action}")

    async def quiet(self, seconds: float, timeout: float = 10.0) -> None:
        """Wait until the bot has made no call for `seconds` (it has finished what it was doing)."""
        give_up = time.monotonic() + timeout
        while True:
            last = self.calls[-1].at if self.calls else 0.0
            left = last + seconds - time.monotonic()
            if left <= 0:
                return
            if time.monotonic() > give_up:
                raise AssertionError(f"the bot never went quiet for {seconds}s within {timeout}s")
            await asyncio.sleep(left)
