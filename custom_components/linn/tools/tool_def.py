"""What every Linn tool is made of: its ToolDef, the context it runs in, shared schema pieces.

Why one ToolDef per tool and schemas built from SchemaFacts alone (CONTRIBUTING.md, "Tools:
one ToolDef each").
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from homeassistant.core import HomeAssistant
import probatio

from ..guard import InvalidArgument, RiskFacts
from ..guard.decisions import Access
from ..guard.policy import ToolSpec
from .players import Player
from .shortids import ShortIds

MSG_AMBIGUOUS = (
    "{key}: more than one player has this name; use one of the listed names, which tell "
    "them apart by entity id"
)
MSG_SHARED_NAMES = (
    "player must be one of the listed players, exactly as listed: players that share a "
    "name are listed with their entity id"
)
PLAYER = frozenset({"player"})
"""The argument every tool's audit log entry shows."""


def control(name: str, action: str, *logged: str, **options: Any) -> ToolSpec:
    """The guard spec of a tool that changes a player: `logged` fields besides the player."""
    return ToolSpec(name, Access.CONTROL, action, logged_fields=PLAYER | set(logged), **options)


def not_bool(value: Any) -> Any:
    """JSON true is an int to Python, but no volume."""
    if isinstance(value, bool):
        raise probatio.Invalid("expected a whole number")
    return value


def flag(value: Any) -> bool:
    """A JSON true or false, nothing Python would take for one."""
    if not isinstance(value, bool):
        raise probatio.Invalid("expected true or false")
    return value


def bounded_text(max_chars: int) -> Any:
    """A string of 1 to `max_chars` characters: every string in a schema is bounded."""
    return probatio.All(str, probatio.Length(min=1, max=max_chars))


@dataclass(slots=True)
class CallContext:
    """What a tool run needs besides its arguments."""

    hass: HomeAssistant
    players: list[Player]
    conversation: str
    short_ids: ShortIds

    def player(self, arguments: Mapping[str, Any], key: str = "player") -> Player:
        """The player an argument names (the schema already checked the name).

        Names are unique (async_players adds the entity id to names players share); a
        name that still fits more than one player, or none, is refused, never guessed.
        """
        name = arguments[key]
        found = [player for player in self.players if player.name == name]
        if len(found) == 1:
            return found[0]
        if found or any(_base_name(player) == name for player in self.players):
            raise InvalidArgument(MSG_AMBIGUOUS.format(key=key))
        raise InvalidArgument(f"{key} must be one of the listed players")


def _base_name(player: Player) -> str:
    """The player's name without the entity id added to tell players of one name apart."""
    return player.name.removesuffix(f" ({player.entity_id})")


def bind_players(
    arguments: Mapping[str, Any], entity_ids: tuple[str, ...], players: list[Player]
) -> dict[str, Any]:
    """The arguments with their player names taken from these entity ids, in order.

    An approved request runs on the players it targeted when it was made: `player` is
    the first entity id, `members` (join) the rest. A player's name may have changed
    since (a device reports its room name), and another player may have taken it; the
    entity id stays. InvalidArgument when a player is gone.
    """
    by_id = {player.entity_id: player.name for player in players}
    names = [by_id.get(entity_id) for entity_id in entity_ids]
    if not names or None in names:
        raise InvalidArgument("Invalid: the request's player is not available")
    bound = dict(arguments)
    if "player" in bound:
        bound["player"] = names[0]
    if "members" in bound:
        if len(names) != 1 + len(bound["members"]):
            raise InvalidArgument("Invalid: the request's players are not available")
        bound["members"] = names[1:]
    return bound


@dataclass(frozen=True, slots=True)
class SchemaFacts:
    """Everything a tool's schema and its error hints depend on, from the live players.

    Each tool takes only what its schema uses; the rest stay empty.
    """

    players: tuple[str, ...]
    """The players' names, in order."""
    volume_max: int = 0
    """The highest volume limit of any player (set_volume)."""
    limit_max: int = 0
    """The highest volume any player's hardware allows (set_volume_limit)."""
    pins: tuple[int, ...] = ()
    presets: tuple[int, ...] = ()


def player_names(players: list[Player]) -> SchemaFacts:
    """The facts of a tool whose schema only names players."""
    return SchemaFacts(tuple(player.name for player in players))


type Fields = dict[Any, Any]
type Runner = Callable[[CallContext, Mapping[str, Any]], Awaitable[dict[str, Any]]]
type Checker = Callable[[CallContext, Mapping[str, Any]], None]


@dataclass(frozen=True, slots=True)
class ToolDef:
    """One Linn tool: its guard spec, its schema from the live players, its checks and work."""

    spec: ToolSpec
    """What the guard knows of it (linn_tools.TOOL_SPECS); its name is the tool's."""
    title: str
    description: str
    read_only: bool
    destructive: bool
    idempotent: bool
    fields: Callable[[SchemaFacts], Fields]
    run: Runner
    hints: Callable[[SchemaFacts], dict[str, str]]
    facts: Callable[[list[Player]], SchemaFacts] = player_names
    """What `fields` and `hints` are built from."""
    check: Checker | None = None
    risk: Callable[[CallContext, Mapping[str, Any]], RiskFacts] | None = None
    prepare: Callable[[list[Player]], Awaitable[None]] | None = None
    """Device reads the schema and the checks need, before the guard sees the call."""

    @property
    def name(self) -> str:
        """The tool's name, as its guard spec has it."""
        return self.spec.name


# --- schema pieces ------------------------------------------------------------------


def player_field(facts: SchemaFacts, *, required: bool = True) -> Fields:
    """The `player` argument: one of the listed players' names."""
    marker = probatio.Required if required else probatio.Optional
    return {
        # no description: the name and its enum of player names say it (sent with every tool)
        marker("player"): probatio.In(list(facts.players))
    }


def player_hint(facts: SchemaFacts) -> dict[str, str]:
    """The hint for a wrong `player` argument."""
    if any(name.endswith(")") and " (media_player." in name for name in facts.players):
        # a name two players share is listed with each one's entity id (async_players)
        return {"player": MSG_SHARED_NAMES}
    return {"player": "player must be one of the listed players"}


def toggle_tool(
    spec: ToolSpec,
    title: str,
    description: str,
    key: str,
    run: Runner,
    *,
    check: Checker | None = None,
) -> ToolDef:
    """A tool that turns one setting of a player on or off: its `key` argument, true or false."""
    return ToolDef(
        spec,
        title,
        description,
        read_only=False,
        destructive=False,
        idempotent=True,
        fields=lambda facts: {
            **player_field(facts),
            probatio.Required(key): probatio.All(bool, flag),  # bool: typed in the schema
        },
        run=run,
        hints=lambda facts: {**player_hint(facts), key: f"{key} must be true or false"},
        check=check,
    )
