"""A plain asyncio LPEC client for the emulator tests, and the `connect` fixture's type."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
import contextlib

import pytest

from custom_components.linn.lpec.codec import (
    Alive,
    DeviceMessage,
    Error,
    Event,
    Response,
    Subscribed,
    format_action,
    format_subscribe,
    parse_device_line,
)
from custom_components.linn.lpec.framing import MessageReader

TIMEOUT = 2.0


class Client:
    """A minimal LPEC client for tests: raw lines or messages framed by quotes in, parsed out.

    `line()`/`raw_line()` read the stream line by line; `message()` and everything built on
    it frame messages by quotes (a value may span lines). Do not mix them while framed
    bytes are still buffered.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.messages = MessageReader(reader, 4 * 1024 * 1024)
        self.writer = writer
        self.events: list[Event] = []
        self.other: list[DeviceMessage] = []

    @classmethod
    async def connect(cls, port: int, *, workaround: bool = True, alive: bool = True) -> Client:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=4 * 1024 * 1024)
        client = cls(reader, writer)
        if alive:
            first = await client.message()
            second = await client.message()
            assert isinstance(first, Alive)
            assert isinstance(second, Alive)
        if workaround:
            await client.send("")
        return client

    async def send(self, line: str) -> None:
        self.writer.write(f"{line}\r\n".encode())
        await self.writer.drain()

    async def raw_line(self, wait: float = TIMEOUT) -> bytes:
        assert not self.messages.buffered, "framed bytes are buffered: use message()"
        data = await asyncio.wait_for(self.reader.readline(), wait)
        if not data:
            raise EOFError
        return data

    async def line(self, wait: float = TIMEOUT) -> str:
        data = await self.raw_line(wait)
        assert data.endswith(b"\r\n"), data
        return data.decode()

    async def raw_message(self, wait: float = TIMEOUT) -> str:
        """The next message as framed (escaping intact, line breaks in values as LF)."""
        text = await asyncio.wait_for(self.messages.read(), wait)
        if text is None:
            raise EOFError
        return text

    async def message(self, wait: float = TIMEOUT) -> DeviceMessage:
        while True:
            message = parse_device_line(await self.raw_message(wait))
            if message is not None:
                return message

    async def reply(self, wait: float = TIMEOUT) -> Response | Error | Subscribed:
        """Next RESPONSE/ERROR/SUBSCRIBE ack; events on the way are kept in `events`."""
        while True:
            message = await self.message(wait)
            if isinstance(message, Event):
                self.events.append(message)
            elif isinstance(message, Response | Error | Subscribed):
                return message
            else:
                self.other.append(message)

    async def action(self, path: str, action: str, *args: str, version: int = 1) -> Response:
        await self.send(format_action(path, version, action, list(args)))
        reply = await self.reply()
        assert isinstance(reply, Response), reply
        return reply

    async def error(self, line: str) -> Error:
        await self.send(line)
        reply = await self.reply()
        assert isinstance(reply, Error), reply
        return reply

    async def subscribe(self, path: str) -> tuple[int, dict[str, str]]:
        await self.send(format_subscribe(path))
        ack = await self.reply()
        assert isinstance(ack, Subscribed), ack
        event = await self.message()
        assert isinstance(event, Event)
        assert event.subscription_id == ack.subscription_id
        assert event.sequence == 0
        return ack.subscription_id, event.variables

    async def event(
        self,
        sub_id: int,
        predicate: Callable[[dict[str, str]], bool] = lambda _v: True,
        wait: float = TIMEOUT,
    ) -> Event:
        """The first event of `sub_id` matching `predicate` (kept or new)."""
        for index, event in enumerate(self.events):
            if event.subscription_id == sub_id and predicate(event.variables):
                return self.events.pop(index)
        async with asyncio.timeout(wait):
            while True:
                message = await self.message(wait)
                if not isinstance(message, Event):
                    self.other.append(message)
                    continue
                if message.subscription_id == sub_id and predicate(message.variables):
                    return message
                self.events.append(message)

    async def silent(self, duration: float = 0.2) -> None:
        """Assert nothing arrives for `duration`."""
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(self.messages.read(), duration)

    async def closed(self, wait: float = TIMEOUT) -> None:
        """Assert the device closes the connection (after any lines still queued)."""
        async with asyncio.timeout(wait):
            while True:
                try:
                    data = await self.reader.read(65536)
                except ConnectionError:
                    return
                if not data:
                    return

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError):
            await self.writer.wait_closed()


type Connect = Callable[..., Awaitable[Client]]
