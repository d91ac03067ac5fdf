"""The `remember` and `forget` tools: the user's own preferences, written through the guard.

The guard runs them only when the user's own utterance asks to remember or forget, in a
conversation that never read device text (ToolSpec.user_words_only), so an injected title
can never write a fact, even through a model that obeys it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, override

from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm
import probatio

from ..const import DOMAIN
from ..guard import Access, InvalidArgument, NoPlayerTargets, ToolCall, ToolSpec, clean_text
from ..llm import GuardedTool
from ..tools.ha_adapter import DATA_GUARD, async_tool_caller, current_turn
from .memory import FACT_ID, MAX_FACT_CHARS, MAX_FACTS, AssistantMemory, MemoryFull

REMEMBER: Final = "remember"
FORGET: Final = "forget"
FORGET_ALL: Final = "all"
SPECS: Final = {
    name: ToolSpec(
        f"agent:{name}",
        Access.CONTROL,
        "memory",
        logged_fields=frozenset({"id"}),  # a fact's text is the user's words: not logged
        user_words_only=True,
    )
    for name in (REMEMBER, FORGET)
}


class _MemoryTool(GuardedTool):
    annotations = llm.ToolAnnotations(
        read_only=False, destructive=False, idempotent=True, open_world=False
    )
    integration = DOMAIN

    def __init__(self, memory: AssistantMemory, agent_id: str | None = None) -> None:
        self.memory = memory
        self.agent_id = agent_id

    @override
    async def async_call(
        self, hass: HomeAssistant, tool_input: llm.ToolInput, llm_context: llm.LLMContext
    ) -> llm.ToolResult:
        runtime = hass.data[DATA_GUARD]
        spec = SPECS[self.name]
        runtime.guard.specs.setdefault(spec.name, spec)
        caller = await async_tool_caller(hass, llm_context, self.agent_id)
        handler = _MemoryHandler(self, self.memory, caller.user_id)
        result = await runtime.guard.run(
            ToolCall(
                spec.name,
                tool_input.tool_args,
                caller,
                current_turn(llm_context.language),
                tool_input.id,
            ),
            handler,
        )
        return llm.ToolResult(data=result.data, error=result.error)


class RememberTool(_MemoryTool):
    """Keep a short fact about the user's preferences."""

    name = REMEMBER
    title = "Remember a preference"
    description = (
        "Remember a short fact about the user's preferences (a favourite station, a usual "
        "volume), only when the user asks you to remember it, in the user's own words, "
        f"copied as they said them. At most {MAX_FACTS} facts."
    )
    parameters = probatio.Schema(
        {
            probatio.Required(
                "fact", description="The user's own words to remember, exactly as said"
            ): probatio.All(str, probatio.Length(min=1, max=MAX_FACT_CHARS))
        }
    )


class ForgetTool(_MemoryTool):
    """Drop a remembered fact, or all of them."""

    name = FORGET
    title = "Forget a preference"
    description = (
        "Forget one remembered fact by its id (r1, r2 ...) or every fact with 'all', only "
        "when the user asks you to forget it."
    )
    parameters = probatio.Schema(
        {
            probatio.Required("id", description="A fact id such as r1, or all"): probatio.All(
                str, probatio.Length(min=2, max=4)
            )
        }
    )


@dataclass(slots=True)
class _MemoryHandler(NoPlayerTargets):
    """The guard's ToolHandler for remember / forget (no player is targeted)."""

    tool: _MemoryTool
    memory: AssistantMemory
    user_id: str | None

    def validate(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The tool's schema; a fact must have words left after cleaning."""
        if not isinstance(arguments, Mapping):
            raise InvalidArgument("arguments must be an object")
        try:
            validated: dict[str, Any] = self.tool.parameters(dict(arguments))
        except probatio.Invalid as err:
            raise InvalidArgument(clean_text(str(err), 200) or "invalid") from None
        if "fact" in validated and not clean_text(validated["fact"], MAX_FACT_CHARS):
            raise InvalidArgument("fact must not be empty")
        if "id" in validated and not (
            validated["id"] == FORGET_ALL or FACT_ID.match(validated["id"])
        ):
            raise InvalidArgument("id must be a fact id such as r1, or all")
        return validated

    def utterance_terms(self, arguments: Mapping[str, Any]) -> Sequence[str]:
        """A fact to remember: it must be the user's own words (the guard checks)."""
        fact = arguments.get("fact")
        return [fact] if isinstance(fact, str) else ()

    async def execute(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Write or remove; the guard has checked the caller is identified."""
        if self.user_id is None:
            raise InvalidArgument("Invalid: facts are kept for identified users only")
        if "fact" in arguments:
            try:
                fact = self.memory.remember(self.user_id, arguments["fact"])
            except MemoryFull:
                raise InvalidArgument(
                    f"Invalid: {MAX_FACTS} facts are remembered already; forget one first"
                ) from None
            return {"remembered": fact.as_data()}
        fact_id = arguments["id"]
        if fact_id == FORGET_ALL:
            return {"forgotten": self.memory.clear(self.user_id)}
        if not self.memory.forget(self.user_id, fact_id):
            raise InvalidArgument(f"Invalid argument: there is no remembered fact {fact_id}")
        return {"forgotten": 1}

    async def reread(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Nothing to re-read."""
        return {}
