"""The one way a command is refused."""


class Rejected(Exception):
    """A command the rules do not allow. The message is Chinese and is shown to whoever sent it."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason
