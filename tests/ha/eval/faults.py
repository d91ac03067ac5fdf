"""A case's fault: the emulator's own fault API, triggered from an httpx response hook on
Home Assistant's shared client (the one the SDK uses) when the model's n-th response
arrives, before its tool calls run."""

from __future__ import annotations

import asyncio
import json

import httpx

from testing.fake_anthropic.plans import is_planning
from testing.helpers import wait_for

from .case import Fault
from .world import World, player_state

RECOVER = 20.0
"""Seconds a player may take to come back after a fault (reconnect backoff)."""


def _model_call(request: httpx.Request) -> bool:
    """A Messages API request of the turn's loop (not the planner's forced tool call)."""
    if not request.url.path.endswith("/v1/messages"):
        return False
    try:
        body = json.loads(request.content)
    except ValueError:
        return True
    return not is_planning(body)


class FaultHook:
    """Counts the model's responses; at the fault's response, makes the player misbehave."""

    def __init__(self, world: World, fault: Fault | None) -> None:
        self.world = world
        self.fault = fault
        self.responses = 0
        self.requests = 0
        self.fired = False
        self._reboot: asyncio.Task[None] | None = None

    async def on_request(self, request: httpx.Request) -> None:
        """Counts the model calls (a stalled one has no response), planning left out."""
        if _model_call(request):
            self.requests += 1

    async def __call__(self, response: httpx.Response) -> None:
        if not _model_call(response.request):
            return
        self.responses += 1
        fault = self.fault
        if fault is None or self.fired or self.responses != fault.at_response:
            return
        self.fired = True
        emulator = self.world.players[fault.player]
        if fault.kind == "drop":
            # connections drop and new ones hang until healed: deterministic for the tool
            emulator.faults.drop_connections()
            emulator.faults.half_open(True)
        elif fault.kind == "reboot":
            # down for longer than the guard's 3 s timeout: the call cannot reach it
            self._reboot = asyncio.create_task(emulator.faults.reboot(downtime=4.0))
        else:  # the device answers late: past the guard's 3 s timeout, or within it
            emulator.faults.response_delay = 4.0 if fault.kind == "slow" else 1.0
            return
        await wait_for(lambda: player_state(self.world.hass, fault.player) == "unavailable", 5.0)

    async def heal(self) -> None:
        """End the fault after the turn it fired in, and wait for the player to be back."""
        if self.fault is None or not self.fired:
            return
        emulator = self.world.players[self.fault.player]
        emulator.faults.response_delay = 0.0
        if emulator.faults.hung:
            emulator.faults.half_open(False)
        if self._reboot is not None:
            await self._reboot
            self._reboot = None
        await wait_for(
            lambda: (
                player_state(self.world.hass, self.fault.player) not in (None, "unavailable")
                if self.fault
                else True
            ),
            RECOVER,
        )
        self.fault = None
