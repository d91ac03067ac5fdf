"""The assistant's tools: the Linn tools, ask_user, remember / forget and other LLM APIs' tools.

Each call passes the guard: checked, rate-limited and written to the same audit log.

Tool tasks of a turn are tracked, so a cancelled turn cancels the tools still running.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
import logging
from typing import Any, Final, override

from homeassistant.core import HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import llm
import probatio

from ..const import DOMAIN
from ..guard import (
    OTHER_API_TOOLS,
    Access,
    InvalidArgument,
    NoPlayerTargets,
    ToolCall,
    ToolFailure,
    ToolSpec,
    clean_text,
)
from ..guard.untrusted import bound_data
from ..llm import PREFIX, PROMPT as LINN_TOOLS_PROMPT, GuardedTool, LinnTool
from ..service_gate import GATE_FAILURES, gate_refusals
from ..tools.ha_adapter import DATA_GUARD, GuardRuntime, async_planned_turn, async_tool_caller
from ..tools.linn_tools import TOOLS
from ..tools.players import async_players
from .exposed_names import async_exposed_names
from .memory import async_get_memory
from .memory_tools import ForgetTool, RememberTool
from .replies import has_visible_text

_LOGGER = logging.getLogger(__name__)

ASK_USER: Final = "ask_user"
FOREIGN_PREFIX: Final = "ext:"
"""Guard names of other APIs' tools, so they can never pass for a Linn tool."""
FOREIGN_TIMEOUT: Final = 15.0
FOREIGN_FAILED: Final = "Failed: the tool reported an error"
RELAYED_ANNOTATIONS: Final = frozenset({"mcp"})
"""Integrations whose tools carry a remote server's own hints (the MCP client copies each
server's readOnlyHint): such a tool is never taken for a read, whatever it claims."""
INTENT_ACTIONS: Final[Mapping[str, str]] = {
    "HassTurnOn": "wake",
    "HassTurnOff": "standby",
    "HassSetVolume": "volume",
    "HassSetVolumeRelative": "volume",
    "HassMediaPause": "pause",
    "HassMediaUnpause": "play",
    "HassMediaNext": "next",
    "HassMediaPrevious": "previous",
    "HassMediaPlayerMute": "mute",
    "HassMediaPlayerUnmute": "mute",
    "HassMediaSearchAndPlay": "play",
}
"""Home Assistant's own intents (as Assist offers them) by the kind of change the user's
words must ask for (guard/phrases: "turn ... on", "off", "volume" ...). Any other intent
(HassLightSet, HassToggle, HassClimateSetTemperature ...) and any other API's tool has no
kind: once names no user chose are in the request, it is refused."""
TOOL_ACTIONS: Final[Mapping[tuple[str, str], str]] = {
    ("homeassistant.components.media_player.llm", "MediaPlayTool"): "play",
}
"""Other tools of Home Assistant's own by their class (module, name) in code: the kind."""
TARGET_SLOTS: Final = ("name", "area", "floor", "player_name", "player_area", "player_floor")
"""The arguments of an intent that name what it acts on (names the model read)."""
QUESTION_CHARS: Final = 300
OTHER_API_PROMPT_CHARS: Final = 40_000
"""Other LLM APIs' prompt is cut at this length (a huge home would otherwise fill the request)."""


def _has_words(question: str) -> str:
    """A question of only spaces or invisible characters is refused (the model asks again).

    It would end the turn in silence.
    """
    if not has_visible_text(question):
        raise probatio.Invalid("the question must not be empty")
    return question


class AskUserTool(GuardedTool):
    """A question back to the person; the turn ends with it and the satellite listens again."""

    name = ASK_USER
    title = "Ask the user"
    description = (
        "Ask the user a short question when the request is ambiguous (for example which "
        "player) or something is missing. The turn ends with the question."
    )
    parameters = probatio.Schema(
        {
            probatio.Required("question", description="The question to speak"): probatio.All(
                str, probatio.Length(min=1, max=QUESTION_CHARS), _has_words
            )
        }
    )
    annotations = llm.ToolAnnotations(
        read_only=True, destructive=False, idempotent=True, open_world=False
    )
    integration = DOMAIN

    def __init__(self, agent_id: str | None = None) -> None:
        """`agent_id`: the assistant asking (for the guard)."""
        self.agent_id = agent_id

    @override
    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> llm.ToolResult:
        handler = _SchemaHandler(self, hass, tool_input, llm_context, run=False)
        return await _guarded(
            hass, f"agent:{ASK_USER}", self, handler, tool_input, llm_context, self.agent_id
        )


class ForeignTool(GuardedTool):
    """A tool of another LLM API (Assist ...) behind the guard."""

    def __init__(self, tool: llm.Tool, agent_id: str | None = None) -> None:
        """Same name, description and schema as the wrapped tool."""
        self.tool = tool
        self.agent_id = agent_id
        self.name = tool.name
        self.title = tool.title
        self.description = tool.description
        self.parameters = tool.parameters
        self.annotations = tool.annotations
        self.integration = tool.integration

    @override
    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> llm.ToolResult:
        handler = _SchemaHandler(self.tool, hass, tool_input, llm_context, run=True)
        return await _guarded(
            hass,
            FOREIGN_PREFIX + self.name,
            self.tool,
            handler,
            tool_input,
            llm_context,
            self.agent_id,
        )


def intent_action(tool: llm.Tool) -> str | None:
    """The kind of change a Home Assistant intent tool makes (INTENT_ACTIONS), else None.

    Known by the intent handler's type in code (llm.IntentTool), never by a tool's name,
    which another API chooses.
    """
    while isinstance(tool, llm.NamespacedTool):
        tool = tool.tool
    if not isinstance(tool, llm.IntentTool):
        return TOOL_ACTIONS.get((type(tool).__module__, type(tool).__name__))
    return INTENT_ACTIONS.get(tool.intent_type)


def target_names(arguments: Mapping[str, Any]) -> list[str]:
    """The names a call targets (an intent's name, area, floor; a player's)."""
    names: list[str] = []
    for slot in TARGET_SLOTS:
        value = arguments.get(slot)
        values = value if isinstance(value, list) else [value]
        names.extend(str(item) for item in values if isinstance(item, str) and item.strip())
    return names


def _spec_for(runtime: GuardRuntime, guard_name: str, tool: llm.Tool) -> ToolSpec:
    """The guard's spec of a tool it does not know in advance (registered on use).

    A read is what the other API marks read-only in code; anything else is a change under the
    policy for other APIs (docs/assistant.md, "Claude assistant", *Tools of other APIs*).
    """
    read_only = tool.name == ASK_USER or (
        tool.annotations.read_only and tool.integration not in RELAYED_ANNOTATIONS
    )
    foreign = guard_name.startswith(FOREIGN_PREFIX)
    spec = ToolSpec(
        guard_name,
        Access.READ if read_only else Access.CONTROL,
        action=None if read_only or not foreign else intent_action(tool),
        every_term=foreign,
        reads_untrusted=tool.name != ASK_USER,
        timeout=FOREIGN_TIMEOUT,
        policy_name=OTHER_API_TOOLS if foreign else None,
        approvable=not foreign,
        conversation_taint=foreign,
    )
    # made from this tool each time: another API's tool of the same name must not inherit
    # the spec (a read's) of the tool first seen under it
    if runtime.guard.specs.get(guard_name) != spec:
        runtime.guard.specs[guard_name] = spec
    return spec


async def _guarded(  # noqa: PLR0917 - one call site per tool kind
    hass: HomeAssistant,
    guard_name: str,
    tool: llm.Tool,
    handler: _SchemaHandler,
    tool_input: llm.ToolInput,
    llm_context: llm.LLMContext,
    agent_id: str | None,
) -> llm.ToolResult:
    runtime = hass.data[DATA_GUARD]
    _spec_for(runtime, guard_name, tool)
    caller = await async_tool_caller(hass, llm_context, agent_id)
    turn = await async_planned_turn(hass, llm_context.language, guard_name, caller)
    result = await runtime.guard.run(
        ToolCall(guard_name, tool_input.tool_args, caller, turn, tool_input.id), handler
    )
    return llm.ToolResult(data=result.data, error=result.error)


@dataclass(slots=True)
class _SchemaHandler(NoPlayerTargets):
    """The guard's ToolHandler for a tool that checks its own arguments by its schema.

    Its targets are unknown in advance: Home Assistant's own checks apply to the entities.
    """

    tool: llm.Tool
    hass: HomeAssistant
    tool_input: llm.ToolInput
    llm_context: llm.LLMContext
    run: bool

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The tool's own schema, applied in code; the arguments as given pass on.

        The tool validates them again when it runs, and a schema may convert values (an
        Assist volume of 25 becomes 0.25): converting twice would change the call.
        """
        if not isinstance(arguments, Mapping):
            raise InvalidArgument("arguments must be an object")
        try:
            self.tool.parameters(dict(arguments))
        except probatio.Invalid as err:
            raise InvalidArgument(clean_text(str(err), 200) or "invalid") from None
        return dict(arguments)

    def utterance_terms(self, arguments: Mapping[str, Any]) -> Sequence[str]:
        """The names the call targets (an intent's name, area, floor): the user must say them."""
        return target_names(arguments)

    def other_names(self, arguments: Mapping[str, Any]) -> Sequence[str]:
        """Every name the user could say: a target's name counts only whole, not inside one."""
        return async_exposed_names(self.hass)

    async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Run the wrapped tool; its errors become categorical failures."""
        if not self.run:
            return {"asked": True}
        tool_input = llm.ToolInput(self.tool_input.tool_name, dict(arguments), self.tool_input.id)
        try:
            with gate_refusals() as refused:
                result = await self.tool.async_call(self.hass, tool_input, self.llm_context)
        except HomeAssistantError as err:
            # the message may carry device text (a Linn error's description, an entity's
            # name): only the kind of error, or the Linn player's gate's own fixed text,
            # reaches the model
            failure = GATE_FAILURES[refused[0]] if refused else f"Failed: {type(err).__name__}"
            raise ToolFailure(failure) from err
        if isinstance(result, llm.ToolResult):
            if result.error:
                raise ToolFailure(FOREIGN_FAILED)
            return dict(bound_data(dict(result.data)))
        return dict(bound_data(dict(result)))

    async def reread(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Nothing to re-read."""
        return {}


@dataclass(kw_only=True)
class AssistantAPIInstance(llm.APIInstance):
    """Tracks the tool tasks of the turn so a cancelled turn can stop them."""

    running: set[asyncio.Task[Any]] = field(default_factory=set)
    other_api_prompt: str = ""
    """The prompt of the other LLM APIs enabled (Assist: how to use its tools, and the
    names and areas of the exposed entities), sent to the model as data."""

    @override
    async def async_call_tool(self, tool_input: llm.ToolInput) -> llm.ToolResult:
        task = asyncio.current_task()
        if task is not None:
            self.running.add(task)
        try:
            return await super().async_call_tool(tool_input)
        finally:
            if task is not None:
                self.running.discard(task)

    def cancel_running(self) -> None:
        """Cancel the tools still running (the turn was cancelled)."""
        for task in list(self.running):
            task.cancel()


class AssistantAPI(llm.API):
    """The Linn tools and ask_user, plus the tools of the LLM APIs the user enabled."""

    def __init__(
        self, hass: HomeAssistant, extra_api_ids: Sequence[str], agent_id: str | None = None
    ) -> None:
        """Extra APIs by id (llm.async_get_apis); `agent_id`: the assistant's entity id.

        Every tool of the instance carries the agent id into the guard, so the
        assistant's own policies (its options) apply to the calls it makes.
        """
        super().__init__(hass=hass, id=f"{DOMAIN}_assistant", name="Linn assistant")
        self.extra_api_ids = [api_id for api_id in extra_api_ids if api_id != self.id]
        self.agent_id = agent_id

    @override
    async def async_get_api_instance(self, llm_context: llm.LLMContext) -> llm.APIInstance:
        players = async_players(self.hass, llm_context.assistant)
        identified = llm_context.context is not None and llm_context.context.user_id is not None
        tools: list[llm.Tool] = []
        if players:
            tools.extend(
                LinnTool(definition, players, self.agent_id)
                for definition in TOOLS
                if identified or definition.read_only
            )
        tools.append(AskUserTool(self.agent_id))
        if identified:  # facts are kept per user
            memory = await async_get_memory(self.hass)
            tools.extend(
                [
                    RememberTool(memory, self.agent_id),
                    ForgetTool(memory, self.agent_id),
                ]
            )
        serializer = None
        other_prompt = ""
        if self.extra_api_ids:
            try:
                other = await llm.async_get_api(self.hass, self.extra_api_ids, llm_context)
            except HomeAssistantError as err:
                _LOGGER.warning("LLM APIs %s are not available: %s", self.extra_api_ids, err)
            else:
                serializer = other.custom_serializer
                other_prompt = other.api_prompt[:OTHER_API_PROMPT_CHARS]
                # The Linn tools the Assist API offers are ours already (and guarded).
                tools.extend(
                    ForeignTool(tool, self.agent_id)
                    for tool in other.tools
                    if not tool.name.startswith(PREFIX)
                )
        return AssistantAPIInstance(
            api=self,
            api_prompt=LINN_TOOLS_PROMPT,
            llm_context=llm_context,
            tools=tools,
            custom_serializer=serializer,
            other_api_prompt=other_prompt,
        )
