"""The contract of a tool's handler with the guard: what it checks, targets and runs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .messages import MSG_FAILED
from .risk import RiskFacts


class InvalidArgument(Exception):
    """Arguments failed the schema or the live device's limits; the message is categorical."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message if message.startswith("Invalid") else f"Invalid argument: {message}"


class ToolFailure(Exception):
    """The device refused or failed; the message is categorical (no device text)."""

    def __init__(self, message: str = MSG_FAILED) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class PlayerTerms:
    """The players a change targets and the others offered, by the names a user says.

    From a handler's optional `player_terms(arguments)`: each target must be one the
    user's words name, or one they imply (players_named); before device text every target
    is implied unless the words name another player.
    """

    targets: tuple[tuple[str, ...], ...]
    """Per target player (in order: the player, then join's members): its names."""
    others: tuple[tuple[str, ...], ...]
    """Per other player offered: its names."""
    implied: tuple[bool, ...]
    """Per target: the words need not name it (the only player; the satellite's area's)."""


class NoPlayerTargets:
    """ToolHandler's `targets` and `risk_facts` for a tool that targets no known player.

    No player the guard knows of in advance, and no volume.
    """

    __slots__ = ()

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        """None the guard knows of."""
        return ()

    def risk_facts(self, arguments: Mapping[str, Any]) -> RiskFacts:
        """No volume."""
        return RiskFacts()


class ToolHandler(Protocol):
    """How one tool is checked and run; implemented outside the guard."""

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The arguments after the schema and live-device checks, or InvalidArgument."""

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        """The entity ids the call reads or changes."""

    def risk_facts(self, arguments: Mapping[str, Any]) -> RiskFacts:
        """What the call would do to the volume, if anything."""

    def utterance_terms(self, arguments: Mapping[str, Any]) -> Sequence[str]:
        """User-visible names of what the call targets (source, preset, player)."""

    async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run it; ToolFailure, InvalidArgument or TimeoutError on failure."""

    async def reread(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The targets' state now (after a timeout)."""
