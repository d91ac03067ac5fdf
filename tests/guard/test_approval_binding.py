"""An approval is bound to the players its request targeted (their entity ids)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from custom_components.linn.guard import Guard, Outcome, ToolCall, Turn

from .callers import ADMIN
from .calls import check_audit_invariant
from .doubles import Player, PlayerHandler


class NamedPlayers(PlayerHandler):
    """Players by name, as a device reports it: the name may move to another player."""

    def __init__(self, rooms: dict[str, str], players: dict[str, Player]) -> None:
        super().__init__("set_volume_limit", players["media_player.living"])
        self.rooms = rooms
        self.players = players

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        self.player = self.players[self.rooms[arguments["player"]]]
        return dict(arguments)

    def targets(self, arguments: Mapping[str, Any]) -> tuple[str, ...]:
        return (self.rooms[arguments["player"]],)


async def test_an_approval_does_not_follow_a_name_to_another_player(guard: Guard) -> None:
    living, kitchen = Player(), Player()
    players = {"media_player.living": living, "media_player.kitchen": kitchen}
    rooms = {"Living Room": "media_player.living", "Kitchen": "media_player.kitchen"}
    arguments = {"player": "Living Room", "limit": 40}
    pending = await guard.run(
        ToolCall("set_volume_limit", arguments, ADMIN, Turn("c1", 1, "set the limit to 40")),
        NamedPlayers(rooms, players),
    )
    assert pending.outcome is Outcome.PENDING
    rooms["Living Room"] = "media_player.kitchen"  # the kitchen renamed itself
    result = await guard.resolve(
        pending.request_id or "",
        approver=ADMIN,
        approve=True,
        requester=ADMIN,
        handler=NamedPlayers(rooms, players),
    )
    assert result.outcome is Outcome.DENIED
    assert result.code == "changed_target"
    assert (living.limit, kitchen.limit) == (100, 100)
    check_audit_invariant(guard)
