"""Test doubles for the guard: a clock that moves when told, a tiny in-memory player and its
tool handler, and the tools' specs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from custom_components.linn.guard import (
    Access,
    InvalidArgument,
    RiskFacts,
    ToolFailure,
    ToolSpec,
)


class FakeClock:
    """Time that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 10, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@dataclass
class Player:
    """What the handler acts on: enough state to see whether a call changed anything."""

    volume: int = 20
    limit: int = 100
    standby: bool = False
    track: int = 1
    title: str = "Song"
    fail: int = 0
    hang: bool = False
    calls: list[str] = field(default_factory=list)


class PlayerHandler:
    """A ToolHandler over Player for one tool; validation like the real tools'."""

    def __init__(self, tool: str, player: Player, entity_id: str = "media_player.living") -> None:
        self.tool = tool
        self.player = player
        self.entity_id = entity_id

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        allowed = {"set_volume": {"volume"}, "set_volume_limit": {"limit"}}.get(self.tool, set())
        if set(arguments) - allowed:
            raise InvalidArgument("unexpected field")
        if self.tool == "set_volume":
            volume = arguments.get("volume")
            if not isinstance(volume, int) or isinstance(volume, bool):
                raise InvalidArgument("volume must be a whole number")
            if not 0 <= volume <= self.player.limit:
                raise InvalidArgument(f"volume must be 0-{self.player.limit}")
        return dict(arguments)

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        return (self.entity_id,)

    def risk_facts(self, arguments: Mapping[str, Any]) -> RiskFacts:
        if self.tool != "set_volume":
            return RiskFacts()
        return RiskFacts(arguments["volume"], self.player.volume, self.player.limit)

    def utterance_terms(self, arguments: Mapping[str, Any]) -> Sequence[str]:
        return ()

    async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        self.player.calls.append(self.tool)
        if self.player.hang:
            import asyncio

            await asyncio.sleep(3600)
        if self.player.fail:
            self.player.fail -= 1
            raise ToolFailure
        match self.tool:
            case "set_volume":
                self.player.volume = arguments["volume"]
            case "set_volume_limit":
                self.player.limit = arguments["limit"]
            case "standby":
                self.player.standby = True
            case "next":
                self.player.track += 1
            case "get_state":
                return {"volume": self.player.volume, "device_text": {"title": self.player.title}}
        return {"done": True}

    async def reread(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return {"volume": self.player.volume}


SPECS = {
    "get_state": ToolSpec("get_state", Access.READ, reads_untrusted=True),
    "set_volume": ToolSpec(
        "set_volume", Access.CONTROL, "volume", logged_fields=frozenset({"volume"}), timeout=0.05
    ),
    "standby": ToolSpec("standby", Access.CONTROL, "standby"),
    "next": ToolSpec("next", Access.CONTROL, "next"),
    "set_volume_limit": ToolSpec("set_volume_limit", Access.ADMIN, "limit"),
}
