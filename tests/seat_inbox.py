"""A seat's front end for tests: it keeps every message a table sends it, as a remote
seat would receive it (each message's JSON decoded again). The framework's table
tests and the server's tests both sit seats with it."""

from __future__ import annotations

import json

from tabletop.framework.seats import (
    LogLine,
    Notice,
    SeatMessage,
    SeatUpdate,
    TableInfo,
    message_from_json,
)


class Inbox:
    """A seat channel (``deliver``) that keeps what it is told, in order."""

    def __init__(self) -> None:
        self.messages: list[SeatMessage] = []

    def deliver(self, message: SeatMessage) -> None:
        self.messages.append(message_from_json(json.loads(json.dumps(message.to_json()))))

    def updates(self) -> list[SeatUpdate]:
        return [m for m in self.messages if isinstance(m, SeatUpdate)]

    def notices(self, topic: str | None = None) -> list[Notice]:
        return [m for m in self.messages if isinstance(m, Notice) and topic in (None, m.topic)]

    @property
    def info(self) -> TableInfo:
        return next(m for m in self.messages if isinstance(m, TableInfo))

    @property
    def last(self) -> SeatUpdate:
        return self.updates()[-1]

    def story(self) -> list[str]:
        """The log as this seat holds it: every update's lines, rewinds applied."""
        lines: list[LogLine] = []
        for update in self.updates():
            if update.rewind is not None:
                lines = [line for line in lines if line.action <= update.rewind]
            lines += update.log
        return [line.text for line in lines]
