"""One conversation turn: a pending confirmation, then the model and tool loop over the chat log.

Before every model call the budgets are checked, counting the estimates of the calls in
flight; each call's usage goes to the guard's ledger. A rate limit or overload is retried
once; any other failure of the model (and a used-up budget, an open circuit, a rejected
key) hands the utterance to Home Assistant's local intents, in limited mode. The person
never hears a traceback.

The pieces live beside it: the budget checks (turn_budget), the streamed model call and
its retry (model_call), limited mode (fallback), reauth (reauth) and what the chat log
says of the turn (turn_log).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import anthropic
from homeassistant.components import conversation
from homeassistant.core import HomeAssistant
from homeassistant.helpers import llm

from ..const import DOMAIN
from ..guard.plan import NoPlan, Plan
from ..service_gate import ASSISTANT
from ..tools.ha_adapter import DATA_GUARD, async_caller, content_id, current_turn
from ..tools.players import async_players
from .confirm import async_resolve_confirmation
from .const import (
    CONF_INSTRUCTIONS,
    CONF_LLM_APIS,
    CONF_MAX_STEPS,
    CONF_MAX_TOKENS,
    CONF_MODEL,
    CONF_THINKING_EFFORT,
    MAX_UTTERANCE_CHARS,
    option,
)
from .fallback import Limited, async_local_reply, local_changes_allowed
from .history import messages_to_send
from .memory import async_get_memory
from .messages import chat_messages
from .model_call import async_stream_with_retry
from .model_info import ModelCapabilities, async_fetch_capabilities
from .planner import async_plan_counted, planning_request
from .prompt import SYSTEM_PROMPT, system_blocks, tool_params, turn_facts
from .ran import changes_that_ran
from .reauth import start_reauth
from .refusal import RefusedTurn
from .replies import Say, say
from .runtime import AssistantConfigEntry
from .stream import MalformedToolInput
from .thinking_notice import warn_if_not_applied
from .thinking_params import EFFORT_OFF, thinking_params, too_few_tokens_for_thinking
from .tools import AssistantAPI, AssistantAPIInstance, ForeignTool
from .turn_budget import check_budget, trim_if_budget_near
from .turn_log import (
    active_model_message,
    asked,
    last_utterance,
    spoken,
    this_turn,
    tools_ran,
    waits_for_user,
)
from .usage import BudgetExceeded, exceeded_budget, in_flight_estimate

_LOGGER = logging.getLogger(__name__)

MODEL_CIRCUIT = "model"


class AssistantTurn:
    """Handles one user input for one assistant entry."""

    def __init__(
        self,
        hass: HomeAssistant,
        entry: AssistantConfigEntry,
        agent_id: str,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
    ) -> None:
        self.hass = hass
        self.entry = entry
        self.runtime = entry.runtime_data
        self.options = entry.options
        self.agent_id = agent_id
        self.user_input = user_input
        self.chat_log = chat_log
        self.language = user_input.language
        self.ledger = hass.data[DATA_GUARD].guard.ledger
        self.model: str = option(self.options, CONF_MODEL)
        self.first_index = len(chat_log.content)
        self.identified = False
        self.is_admin = False
        self._plan_task: asyncio.Task[Plan | NoPlan] | None = None

    async def async_run(self) -> conversation.ConversationResult:
        """The reply to the user's input.

        A change to a Linn player that reaches its service handlers in this turn (an intent
        of another API, a local intent of limited mode) is decided with this assistant's
        policies (service_gate).
        """
        token = ASSISTANT.set(self.agent_id)
        try:
            return await self._async_run()
        finally:
            ASSISTANT.reset(token)

    async def _async_run(self) -> conversation.ConversationResult:
        if len(self.user_input.text) > MAX_UTTERANCE_CHARS:
            # before any model call or local intent: a flood of text buys nothing
            self._say(say(Say.TOO_LONG, self.language))
            return conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)
        llm_context = self.user_input.as_llm_context(DOMAIN)
        caller = await async_caller(self.hass, self.user_input.context, self.agent_id)
        self.identified = caller.identified
        self.is_admin = caller.is_admin
        turn = current_turn(self.language)
        resolution = await async_resolve_confirmation(
            self.hass, self.chat_log, self.agent_id, llm_context, caller, turn
        )
        if resolution is not None:
            self._say(resolution.speech)
            return conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)

        api = AssistantAPI(self.hass, option(self.options, CONF_LLM_APIS), self.agent_id)
        try:
            await self.chat_log.async_provide_llm_data(
                llm_context, api, SYSTEM_PROMPT, self.user_input.extra_system_prompt
            )
        except conversation.ConverseError as err:
            return err.as_conversation_result()
        instance = cast(AssistantAPIInstance, self.chat_log.llm_api)
        if self._sends_names_no_user_chose(instance):
            # before the model's first tool call: this turn and the rest of its conversation
            # follow the rules of a conversation that read device text
            self.hass.data[DATA_GUARD].guard.request_carries_untrusted_text(
                caller, current_turn(self.language)
            )
        try:
            await self._async_loop(instance, llm_context)
        except asyncio.CancelledError:
            instance.cancel_running()
            if self._plan_task is not None:
                self._plan_task.cancel()
            raise
        except Limited as limited:
            await self._async_plan_settled()
            return await self._async_limited(limited.prefix, local=limited.local)
        await self._async_plan_settled()
        result = conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)
        if waits_for_user(self.chat_log, self.first_index):
            result.continue_conversation = True
        return result

    def _sends_names_no_user_chose(self, instance: AssistantAPIInstance) -> bool:
        """The request carries text no user chose that can steer another API's change.

        Other APIs' prompt (Assist's static context: every exposed entity's, alias's and
        area's name, which devices and integrations pick), an extra system prompt (an
        automation's or a satellite's), and any request that offers another API's tools,
        whose changes have no soft limit or per-player settings behind them (the turn
        facts' player and area names reach them too). The Linn tools need the user's own
        words for every change in any case.
        """
        return (
            bool(instance.other_api_prompt.strip())
            or bool((self.user_input.extra_system_prompt or "").strip())
            or any(isinstance(tool, ForeignTool) for tool in instance.tools)
        )

    # --- the loop ------------------------------------------------------------------------

    async def _async_loop(
        self, instance: AssistantAPIInstance, llm_context: llm.LLMContext
    ) -> None:
        tools = tool_params(instance.tools, instance.custom_serializer)
        tool_names = {tool.name for tool in instance.tools}
        players = async_players(self.hass, llm_context.assistant)
        memory = await async_get_memory(self.hass)
        remembered = [fact.as_data() for fact in memory.facts(self.user_input.context.user_id)]
        record = self.runtime.conversations.get(
            self.chat_log.conversation_id, self.chat_log.content
        )
        self._add_facts(
            record.facts,
            turn_facts(self.hass, self.user_input.device_id, players, remembered, self.language),
        )
        api_prompt = instance.other_api_prompt
        request: dict[str, Any] = {
            "model": self.model,
            "max_tokens": option(self.options, CONF_MAX_TOKENS),
            "system": system_blocks(
                option(self.options, CONF_INSTRUCTIONS), api_context=bool(api_prompt.strip())
            ),
            "tools": tools,
            **self._thinking_params(await self._async_capabilities()),
        }
        self.runtime.thinking_params = {
            key: request[key] for key in ("thinking", "output_config") if key in request
        }
        # the first call's budget check comes before the planning request reserves its
        # estimate: a turn is never refused for its own plan
        self._check_budget()
        # before the turn's first call only: the active tool loop's thinking is bound to
        # the history it was produced under
        trim_if_budget_near(
            self.ledger, self.chat_log, self.user_input.context.user_id, self.options, record
        )
        self._start_planner()
        for step in range(option(self.options, CONF_MAX_STEPS)):
            if step:
                self._check_budget()
            request["messages"] = messages_to_send(
                record,
                self.chat_log.content,
                self.model,
                {key: value for key, value in request.items() if key != "messages"},
                lambda dropped: chat_messages(
                    self.chat_log.content,
                    record.facts,
                    tool_names,
                    api_prompt,
                    agent_id=self.agent_id,
                    model=self.model,
                    drop_thinking=dropped,
                    trim_before=record.trim_before,
                ),
                active=active_model_message(self.chat_log, self.first_index),
            ).messages
            # no await since the check: a parallel turn's check counts this call in flight
            with self.ledger.reserved(
                self.chat_log.conversation_id,
                in_flight_estimate(request),
                user_id=self.user_input.context.user_id,
            ):
                stop_reason = await self._async_model_call(request)
            if stop_reason == "refusal":
                # the refused turn (from its utterance) is never sent again
                self._say(say(Say.REFUSED, self.language), native=RefusedTurn())
                return
            if (question := asked(self.chat_log, self.first_index)) is not None:
                self._say(question)
                return
            if not self.chat_log.unresponded_tool_results:
                if not spoken(self.chat_log):
                    # never silence: a cut-off or empty answer gets a short reply of ours
                    what = Say.MODEL_ERROR if stop_reason == "max_tokens" else Say.NO_ANSWER
                    self._say(say(what, self.language))
                return
        self._say(say(Say.MAX_STEPS, self.language))

    async def _async_capabilities(self) -> ModelCapabilities:
        """The model's capabilities, looked up at setup.

        Looked up again for another model (the option changed) or after a failed look-up
        (at most every few minutes).
        """
        known = self.runtime.capabilities
        if known is None or known.model != self.model or known.stale:
            known = await async_fetch_capabilities(self.runtime.client, self.model)
            self.runtime.capabilities = known
        return known

    def _thinking_params(self, capabilities: ModelCapabilities) -> dict[str, Any]:
        effort = option(self.options, CONF_THINKING_EFFORT)
        if too_few_tokens_for_thinking(effort, option(self.options, CONF_MAX_TOKENS)):
            # stored before the options form required room for thinking: the small output
            # limit the user chose wins, since thinking would use it up before any reply
            effort = EFFORT_OFF
        warn_if_not_applied(self.runtime, self.entry.title, capabilities, effort)
        return thinking_params(capabilities, effort)

    def _add_facts(self, sent: dict[int, str], facts: str) -> None:
        """The facts of this turn for its utterance, beside those sent with earlier utterances."""
        last_user = last_utterance(self.chat_log)
        if last_user is not None:
            sent[last_user] = facts

    def _start_planner(self) -> None:
        """Plan the turn from the user's words alone, beside its first model call.

        Called after the turn's first budget check (a member over their share sends no
        planning request either). A change after device text waits for the plan
        (guard/turn_plans.py).
        """
        items = [
            item for item in self.chat_log.content if isinstance(item, conversation.UserContent)
        ]
        if not items:
            return
        utterances = [item.content for item in items]
        request = planning_request(
            self.model, utterances[-1], utterances[:-1], self.language, self.runtime.capabilities
        )
        # eager: the request is on its way before the first model request is built, so its
        # answer comes first and is handled while the loop waits for the model's
        self._plan_task = self.hass.async_create_task(
            self._async_planned(request, utterances), "linn turn plan", eager_start=True
        )
        self.hass.data[DATA_GUARD].plans.add(
            self.chat_log.conversation_id, content_id(items[-1]), self._plan_task
        )

    async def _async_plan_settled(self) -> None:
        """The turn's planning request has ended (usually long before the turn).

        No request of a turn outlives it: its usage is counted in its turn, and the next
        turn's plan cannot be answered to this one's request. async_plan never raises and
        is bounded by its own timeout.
        """
        if self._plan_task is not None:
            await self._plan_task

    async def _async_planned(self, request: dict[str, Any], utterances: list[str]) -> Plan | NoPlan:
        return await async_plan_counted(
            self.hass,
            self.runtime,
            request,
            utterances,
            conversation_id=self.chat_log.conversation_id,
            user_id=self.user_input.context.user_id,
            counter="planner_calls",
        )

    def _exceeded_budget(self) -> BudgetExceeded | None:
        return exceeded_budget(
            self.ledger,
            self.chat_log.conversation_id,
            self.user_input.context.user_id,
            self.options,
            is_admin=self.is_admin,
        )

    def _check_budget(self) -> None:
        check_budget(self._exceeded_budget())

    async def _async_model_call(self, request: dict[str, Any]) -> str | None:
        """Stream one model message into the chat log (its tools start as they arrive)."""
        breaker = self.runtime.breaker
        if not breaker.allow(MODEL_CIRCUIT):
            raise Limited
        try:
            stop_reason = await async_stream_with_retry(
                self.hass,
                self.runtime,
                self.chat_log,
                request,
                agent_id=self.agent_id,
                model=self.model,
                ledger=self.ledger,
                user_id=self.user_input.context.user_id,
            )
        except (anthropic.AuthenticationError, anthropic.PermissionDeniedError) as err:
            breaker.release(MODEL_CIRCUIT)
            _LOGGER.warning("The API rejected the assistant's key: %s", err.message)
            start_reauth(self.hass, self.entry)
            raise Limited(Say.AUTH) from err
        except anthropic.APIError as err:
            breaker.failure(MODEL_CIRCUIT)
            _LOGGER.warning("The model is not available (%s): %s", type(err).__name__, err)
            raise Limited from err
        except MalformedToolInput as err:
            breaker.success(MODEL_CIRCUIT)
            _LOGGER.warning("The model sent malformed input for tool %s", err)
            self._say(say(Say.MODEL_ERROR, self.language))
            return None
        breaker.success(MODEL_CIRCUIT)
        return stop_reason

    # --- endings ---------------------------------------------------------------------------

    async def _async_limited(
        self, prefix: Say | None, *, local: bool = True
    ) -> conversation.ConversationResult:
        """Local intents, unless tools already ran this turn (the intent could repeat them).

        `local=False`: only what ran and why the turn stopped, never local intents.
        """
        prefix_text = say(prefix, self.language) if prefix is not None else None
        if tools_ran(self.chat_log, self.first_index) or not local:
            # what ran is said first, whatever stopped the turn afterwards
            ran = changes_that_ran(this_turn(self.chat_log, self.first_index), self.language)
            why = prefix_text or say(Say.INTERRUPTED, self.language)
            self._say(f"{ran} {why}" if ran else why)
            return conversation.async_get_result_from_chat_log(self.user_input, self.chat_log)
        response = await async_local_reply(
            self.hass,
            self.user_input,
            self.chat_log,
            prefix_text,
            identified=self.identified,
            changes=local_changes_allowed(self.hass, self.agent_id),
        )
        self._say(response.speech["plain"]["speech"])
        return conversation.ConversationResult(
            response=response, conversation_id=self.chat_log.conversation_id
        )

    def _say(self, speech: str, native: object = None) -> None:
        self.chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.agent_id, content=speech, native=native)
        )
