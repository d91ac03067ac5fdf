"""The Linn tools for loudness: volume, changes of volume, mute and the volume limit."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import probatio

from ..guard import InvalidArgument, RiskFacts
from ..guard.decisions import Policy
from .players import Player
from .tool_def import (
    CallContext,
    SchemaFacts,
    ToolDef,
    control,
    not_bool,
    player_field,
    player_hint,
    player_names,
    toggle_tool,
)

MAX_CHANGE = 20


def _with_volume_max(players: list[Player]) -> SchemaFacts:
    return SchemaFacts(
        player_names(players).players,
        volume_max=max((player.ceiling for player in players), default=0),
    )


def _volume_hint(facts: SchemaFacts) -> dict[str, str]:
    return {**player_hint(facts), "volume": f"volume must be 0\u2013{facts.volume_max}"}


def _with_limit_max(players: list[Player]) -> SchemaFacts:
    highest = max((p.device.state.volume.volume_max or 0 for p in players), default=0)
    return SchemaFacts(player_names(players).players, limit_max=highest)


def _check_volume(ctx: CallContext, arguments: Mapping[str, Any]) -> None:
    player = ctx.player(arguments)
    if not player.device.state.has_volume:
        raise InvalidArgument("this player has no volume control")
    if arguments["volume"] > player.ceiling:
        raise InvalidArgument(f"volume must be 0\u2013{player.ceiling}")


async def _set_volume(ctx: CallContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
    player = ctx.player(arguments)
    applied = await player.device.set_volume(arguments["volume"])
    return {"done": True, "volume": applied}


def _volume_risk(ctx: CallContext, arguments: Mapping[str, Any]) -> RiskFacts:
    player = ctx.player(arguments)
    return RiskFacts(arguments["volume"], player.device.state.volume.volume, player.ceiling)


def _change_target(ctx: CallContext, arguments: Mapping[str, Any]) -> int:
    player = ctx.player(arguments)
    current = player.device.state.volume.volume or 0
    change: int = arguments["change"]
    return max(0, min(player.ceiling, current + change))


def _check_change(ctx: CallContext, arguments: Mapping[str, Any]) -> None:
    if arguments["change"] == 0:
        raise InvalidArgument(f"change must be -{MAX_CHANGE}\u2013{MAX_CHANGE}, not 0")
    if not ctx.player(arguments).device.state.has_volume:
        raise InvalidArgument("this player has no volume control")


async def _change_volume(ctx: CallContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
    applied = await ctx.player(arguments).device.set_volume(_change_target(ctx, arguments))
    return {"done": True, "volume": applied}


def _change_risk(ctx: CallContext, arguments: Mapping[str, Any]) -> RiskFacts:
    player = ctx.player(arguments)
    return RiskFacts(
        _change_target(ctx, arguments), player.device.state.volume.volume, player.ceiling
    )


async def _mute(ctx: CallContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
    await ctx.player(arguments).device.set_mute(arguments["muted"])
    return {"done": True}


def _check_limit(ctx: CallContext, arguments: Mapping[str, Any]) -> None:
    highest = ctx.player(arguments).device.state.volume.volume_max
    if highest is None or arguments["limit"] > highest:
        raise InvalidArgument(f"limit must be 0\u2013{highest or 0}")


async def _set_volume_limit(ctx: CallContext, arguments: Mapping[str, Any]) -> dict[str, Any]:
    await ctx.player(arguments).device.set_volume_limit(arguments["limit"])
    return {"done": True}


# --- the tools ------------------------------------------------------------------------

SET_VOLUME = ToolDef(
    control("set_volume", "volume", "volume"),
    "Set volume",
    "Set the volume of a Linn player, in the player's own units, at most its volume limit.",
    read_only=False,
    destructive=False,
    idempotent=True,
    fields=lambda facts: {
        **player_field(facts),
        probatio.Required("volume", description="The new volume"): probatio.All(
            int, not_bool, probatio.Range(min=0, max=facts.volume_max)
        ),
    },
    run=_set_volume,
    hints=_volume_hint,
    facts=_with_volume_max,
    check=_check_volume,
    risk=_volume_risk,
)
CHANGE_VOLUME = ToolDef(
    control("change_volume", "volume", "change"),
    "Change volume",
    f"Raise or lower the volume of a Linn player by up to {MAX_CHANGE} units.",
    read_only=False,
    destructive=False,
    idempotent=False,
    fields=lambda facts: {
        **player_field(facts),
        probatio.Required("change", description="Units up (+) or down (-)"): probatio.All(
            int, not_bool, probatio.Range(min=-MAX_CHANGE, max=MAX_CHANGE)
        ),
    },
    run=_change_volume,
    hints=lambda facts: {
        **player_hint(facts),
        "change": f"change must be -{MAX_CHANGE}\u2013{MAX_CHANGE}, not 0",
    },
    check=_check_change,
    risk=_change_risk,
)
MUTE = toggle_tool(
    control("mute", "mute", "muted"),
    "Mute",
    "Mute (true) or unmute (false) a Linn player.",
    "muted",
    _mute,
)
SET_VOLUME_LIMIT = ToolDef(
    # anyone who may control the player may ask; an admin decides (min_policy), also on an
    # admin's own request
    control("set_volume_limit", "limit", "limit", min_policy=Policy.APPROVE),
    "Set volume limit",
    "Ask for a Linn player's volume limit: an administrator decides.",
    read_only=False,
    destructive=True,  # a safety setting; lowering it also lowers the volume
    idempotent=True,
    fields=lambda facts: {
        **player_field(facts),
        probatio.Required("limit"): probatio.All(
            int, not_bool, probatio.Range(min=0, max=facts.limit_max)
        ),
    },
    run=_set_volume_limit,
    hints=lambda facts: {
        **player_hint(facts),
        "limit": "limit must be within the player's range",
    },
    facts=_with_limit_max,
    check=_check_limit,
)
