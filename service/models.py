"""What the bot stores. The game itself is its roster, its seed, its rules and its accepted commands."""
from __future__ import annotations

from tortoise import fields
from tortoise.models import Model


class GameRow(Model):
    id = fields.IntField(primary_key=True)
    ruleset = fields.CharField(max_length=16)
    title = fields.CharField(max_length=100, default="")
    seed = fields.BigIntField()
    # hidden with the seed in the deal's published hash (engine/commitment.py), revealed at the end;
    # None for a game created before there was one: it gets its salt at 开始
    salt = fields.CharField(max_length=32, null=True)
    # the rules as the game was started with them (engine/snapshot.py), stored at 开始 and replayed from
    rules = fields.JSONField(null=True)
    status = fields.CharField(max_length=16, default="roster")  # roster | running | over
    directors = fields.JSONField(default=list)  # QQ numbers; the creator first, then co-directors
    planned_close = fields.DatetimeField(null=True)  # the running day's announced 关门
    closed_at = fields.DatetimeField(null=True)  # the last 关门: night time limits count from it
    # the QQ account (OneBot self_id) that serves the game: the one its director set it up through;
    # None (a game from before accounts were kept): whichever is connected
    account = fields.CharField(max_length=20, null=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "game"
        indexes = (("status",),)


class GameDirectorRow(Model):
    """A director of a game (the creator or a co-director), kept in step with `GameRow.directors`
    (service/games.py) so that a director's games are found without reading every game."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="director_rows")
    qq = fields.CharField(max_length=20)

    class Meta:
        table = "game_director"
        unique_together = (("game", "qq"),)
        indexes = (("qq",),)


class SeatRow(Model):
    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="seats")
    seat = fields.IntField()
    name = fields.CharField(max_length=32)
    qq = fields.CharField(max_length=20)
    role = fields.CharField(max_length=16, null=True)
    former_qq = fields.JSONField(default=list)  # players a 替补 took over from

    class Meta:
        table = "seat"
        unique_together = (("game", "seat"), ("game", "name"))
        indexes = (("qq",),)


class CommandRow(Model):
    """One accepted command of the game log, stored before anyone is answered."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="commands")
    seq = fields.IntField()
    payload = fields.JSONField()
    source = fields.CharField(max_length=64)
    at = fields.DatetimeField()

    class Meta:
        table = "command"
        unique_together = (("game", "seq"),)


class SeenMessage(Model):
    """A QQ event already handled (its chat and id): the same event seen again is ignored. Stored in
    the transaction of what handling it changed; forgotten after a few days (service/handling.py).
    `time` is OneBot's time of the message (None: stored before it was kept, or an event without
    one): the same key at another time is another message under a reused id."""

    key = fields.CharField(max_length=64, primary_key=True)
    time = fields.BigIntField(null=True)
    at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "seen_message"
        indexes = (("at",),)


class OutboxRow(Model):
    """A OneBot action to perform (a message, a group rename, a kick), kept until OneBot accepts it.

    Actions for one chat run in the order they were queued; chats do not wait for each other. A
    message is stored as plain text and always sent as one text segment, so nothing a player wrote
    is ever read as CQ code (the one other kind: `image`, the chart the bot drew for 模拟). One OneBot refused too often is given up (`given_up_at`); the rows still
    to send are found through a partial index (migration 0003), however many were sent before.
    """

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="outbox", null=True)
    action = fields.CharField(max_length=32)
    params = fields.JSONField()
    created_at = fields.DatetimeField(auto_now_add=True)
    sent_at = fields.DatetimeField(null=True)
    attempts = fields.IntField(default=0)
    last_error = fields.TextField(default="")
    given_up_at = fields.DatetimeField(null=True)
    # the id OneBot gave the message sent: the next one of its chat, in doubt, is looked for after it
    message_id = fields.CharField(max_length=40, null=True)
    # the QQ account it goes through, and only that one (None: whichever is connected)
    account = fields.CharField(max_length=20, null=True)

    class Meta:
        table = "outbox"


class DeadlineRow(Model):
    """A time limit of a game, as an absolute time once its anchor is known.

    One that counts from the moment a player is told (the anchor "now": "收到反馈后半小时") names the
    message that tells him in `waits_for` until OneBot has delivered it. It cannot pass before that,
    and once the message is delivered it counts again from the delivery.
    """

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="deadlines")
    key = fields.CharField(max_length=128)
    what = fields.CharField(max_length=32)
    who = fields.JSONField(default=list)
    anchor = fields.CharField(max_length=8)
    minutes = fields.IntField()
    due_at = fields.DatetimeField(null=True)
    # the message whose delivery starts this limit, until it is delivered (due_at meanwhile: the soonest)
    waits_for = fields.ForeignKeyField("models.OutboxRow", related_name="starts", null=True,
                                       on_delete=fields.SET_NULL)
    reminded = fields.JSONField(default=list)  # reminder offsets already sent
    done = fields.BooleanField(default=False)

    class Meta:
        table = "deadline"
        indexes = (("game_id",), ("waits_for_id",), ("done",))


class PoolGroupRow(Model):
    """A QQ group the bot administers, lent to one team of one game at a time."""

    group_id = fields.CharField(max_length=20, primary_key=True)
    original_name = fields.CharField(max_length=100, default="")
    game = fields.ForeignKeyField("models.GameRow", related_name="groups", null=True)
    team = fields.CharField(max_length=32, null=True)
    # whether a team that joins can read the chat from before it joined: False once OneBot turned
    # new members' view of the history off, True where it could not, None before it was tried
    history_shown = fields.BooleanField(null=True)
    lent_before = fields.BooleanField(null=True)  # a team has had it: its chat is in the history
    # the QQ account that administers it (it was added through): lent only to that account's games
    account = fields.CharField(max_length=20, null=True)

    class Meta:
        table = "pool_group"
        indexes = (("game_id",),)


class TeamRow(Model):
    """A team of a game (狼群...), its members, and its group (none: the bot relays privately)."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="teams")
    team = fields.CharField(max_length=32)
    members = fields.JSONField(default=list)
    group_id = fields.CharField(max_length=20, null=True)
    # the QQs seen joining its group (None: none yet), and the members as its roster was last posted
    # there: posted once every living member is in (nobody reads a post in an empty group, and one who
    # joins later does not see its history), again only when it changes (service/groups.py)
    joined = fields.JSONField(null=True)
    posted = fields.JSONField(null=True)

    class Meta:
        table = "team"
        unique_together = (("game", "team"),)
        indexes = (("group_id",),)


class DeskTokenRow(Model):
    """A link to a game's desk (its director's web page): only the sha256 of the link's token is
    stored, so the database alone opens no desk. A director may hold several; `网页 重置` drops them."""

    id = fields.IntField(primary_key=True)
    game = fields.ForeignKeyField("models.GameRow", related_name="desk_tokens")
    qq = fields.CharField(max_length=20)
    digest = fields.CharField(max_length=64, unique=True)
    created_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "desk_token"
        indexes = (("game_id", "qq"),)


class RevealRow(Model):
    """A finished game whose 揭秘 page its director made public (`揭秘 公开`)."""

    game = fields.OneToOneField("models.GameRow", related_name="reveal", primary_key=True)
    qq = fields.CharField(max_length=20)
    at = fields.DatetimeField()

    class Meta:
        table = "reveal"


class AccountLeaseRow(Model):
    """Which bot process drives a QQ account's games and sends its messages, and until when: with
    several processes on one PostgreSQL, the holder renews it; once it lapses, another process that
    has the account connected takes the account over (service/leases.py)."""

    account = fields.CharField(max_length=20, primary_key=True)
    holder = fields.CharField(max_length=64)
    expires_at = fields.DatetimeField()

    class Meta:
        table = "account_lease"


class RulePostRow(Model):
    """A rule post a director sent the bot (service/rule_posts.py): its file's text as he sent it, played under its id
    beside the shipped ones (rulesets/). Kept here, not in a folder: the database is what several bot processes share."""

    id = fields.CharField(max_length=16, primary_key=True)  # the file's `id`, as GameRow.ruleset names it
    owner = fields.CharField(max_length=20)  # the director who sent it
    text = fields.TextField()
    added_at = fields.DatetimeField(auto_now_add=True)

    class Meta:
        table = "rule_post"
