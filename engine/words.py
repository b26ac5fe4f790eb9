"""The words a player sends that are no skill of an identity, and the name of the vote reminder's limit."""

PASS = "放弃"
LAST_WORDS = "遗言"
SURRENDER = "投降"
ABSTAIN = "弃权"
VOTE_REMINDER = "提醒投票"  # the time limit of the post's vote reminder, by day (`Ruleset.vote_reminder`)
