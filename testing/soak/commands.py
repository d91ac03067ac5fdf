"""The soak's commands: random Home Assistant media player actions and guarded tools."""

from __future__ import annotations

import asyncio
from collections import Counter
import random
import time
from typing import Any

from homeassistant.components.media_player import (
    ATTR_MEDIA_VOLUME_LEVEL,
    ATTR_MEDIA_VOLUME_MUTED,
    DOMAIN as MP_DOMAIN,
)
from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm

from .report import SoakReport, SoakSettings


class Commands:
    """Issues commands within their bounds; what each did goes into the report."""

    def __init__(
        self,
        hass: HomeAssistant,
        *,
        entity_id: str,
        player: str,
        api: llm.APIInstance,
        rng: random.Random,
        settings: SoakSettings,
        report: SoakReport,
    ) -> None:
        self.hass = hass
        self.entity_id = entity_id
        self.player = player
        self.api = api
        self.rng = rng
        self.settings = settings
        self.report = report

    async def issue(self, called: Counter[str]) -> None:
        """One random command after a random pause: an HA action or a tool (counted in `called`)."""
        await asyncio.sleep(self.rng.uniform(0, 0.3))
        if self.rng.random() < 0.5:
            await self._action()
        else:
            await self._tool(called)

    async def _action(self) -> None:
        rng, report = self.rng, self.report
        choices: list[tuple[str, dict[str, Any]]] = [
            ("volume_set", {ATTR_MEDIA_VOLUME_LEVEL: rng.randint(5, 50) / 100}),
            ("media_play", {}),
            ("media_pause", {}),
            ("media_stop", {}),
            ("volume_mute", {ATTR_MEDIA_VOLUME_MUTED: rng.random() < 0.5}),
        ]
        service, data = rng.choice(choices)
        report.commands[f"action {service}"] += 1
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.settings.action_bound):
                await self.hass.services.async_call(
                    MP_DOMAIN, service, {ATTR_ENTITY_ID: self.entity_id, **data}, blocking=True
                )
        except HomeAssistantError:
            report.outcomes["action raised"] += 1
        except TimeoutError:
            report.outcomes["action hung"] += 1
            report.violations.append(
                f"round {report.rounds}: {service} still running after "
                f"{time.perf_counter() - started:.1f} s"
            )
        except Exception as err:  # noqa: BLE001 - any other exception is the finding
            report.outcomes[f"action {type(err).__name__}"] += 1
            report.violations.append(f"round {report.rounds}: {service} raised {err!r}")
        else:
            report.outcomes["action completed"] += 1

    async def _tool(self, called: Counter[str]) -> None:
        rng, report = self.rng, self.report
        choices: list[tuple[str, dict[str, Any]]] = [
            ("play", {}),
            ("pause", {}),
            ("set_volume", {"volume": rng.randint(5, 40)}),
            ("change_volume", {"change": rng.choice([-5, -2, 2, 5])}),
            ("mute", {"muted": rng.random() < 0.5}),
        ]
        tool, arguments = rng.choice(choices)
        report.commands[f"tool {tool}"] += 1
        called[tool] += 1
        started = time.perf_counter()
        try:
            async with asyncio.timeout(self.settings.tool_bound):
                await self.api.async_call_tool(
                    llm.ToolInput(f"linn__{tool}", {"player": self.player, **arguments})
                )
        except TimeoutError:
            report.outcomes["tool hung"] += 1
            report.violations.append(
                f"round {report.rounds}: tool {tool} still running after "
                f"{time.perf_counter() - started:.1f} s"
            )
        except Exception as err:  # noqa: BLE001 - a tool reports failures in its result
            report.outcomes[f"tool raised {type(err).__name__}"] += 1
            report.violations.append(f"round {report.rounds}: tool {tool} raised {err!r}")
