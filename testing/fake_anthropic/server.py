"""A fake Anthropic Messages API over real HTTP (aiohttp), for the real `anthropic` SDK.

It speaks POST /v1/messages (JSON, or server-sent events when `stream` is true, with text,
thinking and tool_use blocks and usage including cache tokens) and GET /v1/models (with each
model's capabilities, models.py); answers 401 to an unknown key; and plays scripted steps
(replies, 401/429/529 errors, stalls) or asks a responder; `delay` holds every Messages
request (model and planning alike) for a fixed time, a model latency for benchmarks.
Thinking models open each reply with a thinking block (unless the reply chooses not to
think; a reply may also interleave thinking between its tool calls), and a request that
does not send it back as the API requires gets the API's 400 (thinking.py); so does a
tool_use without its tool_result in the next message, or a tool_result without its
tool_use (tool_pairing.py). Every request is recorded.

Prompt caching is simulated the way the API documents it: the prompt (tools, then system,
then messages) up to each `cache_control` marker (at most four) is a cacheable prefix. A
request reads the longest of its prefixes already cached (cache_read_input_tokens), writes
the rest up to its last marker (cache_creation_input_tokens), and pays the tokens after the
last marker as input. A prefix shorter than the model's minimum cacheable length (per model,
from cache_floors.py, unless a fixed floor is given) is not cached at all. Tokens are
estimated at four characters each.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
import hashlib
import inspect
import itertools
import json
import math
from types import TracebackType
from typing import Any, Self

from aiohttp import web

from .cache_floors import min_cacheable_tokens
from .canonical import canonical, without_cache_control
from .models import model_info
from .plans import (
    ApiError,
    PlanAnswer,
    RecordedRequest,
    Reply,
    Responder,
    Stall,
    Step,
    ToolUse,
    is_planning,
)
from .thinking import ThinkingRules
from .tool_pairing import check_tool_pairing

DEFAULT_MODELS: tuple[tuple[str, str], ...] = (
    ("claude-haiku-5-5", "Claude Haiku 5.5"),
    ("claude-haiku-4-5", "Claude Haiku 4.5"),
    ("claude-sonnet-4-5", "Claude Sonnet 4.5"),
)
CHARS_PER_TOKEN = 4


def estimate_tokens(value: Any) -> int:
    """Tokens of a JSON value, estimated from its canonical size."""
    return math.ceil(len(canonical(value)) / CHARS_PER_TOKEN)


def prompt_tokens(body: dict[str, Any]) -> tuple[int, int]:
    """Estimated tokens of a request's prompt, and of its cacheable prefix.

    The prefix runs (tools, then system, then messages) up to the last `cache_control`
    marker; 0 when nothing is marked.
    """
    items = _prompt_items(body)
    total = estimate_tokens(without_cache_control(items))
    prefix = cache_prefix(body)
    return total, estimate_tokens(prefix) if prefix is not None else 0


def cache_prefix(body: dict[str, Any]) -> list[Any] | None:
    """The prompt items up to the last `cache_control` marker (markers removed), or None."""
    prefixes = cache_prefixes(body)
    return prefixes[-1] if prefixes else None


def cache_prefixes(body: dict[str, Any]) -> list[list[Any]]:
    """The prompt items up to each `cache_control` marker (markers removed), shortest first."""
    items = _prompt_items(body)
    marked = [i for i, item in enumerate(items) if _has_cache_control(item)]
    return [without_cache_control(items[: i + 1]) for i in marked]


def prefix_key(model: Any, prefix: list[Any]) -> str:
    """What the cache is keyed on: the model and the prefix's content."""
    return hashlib.sha256((str(model) + canonical(prefix)).encode()).hexdigest()


LOOKBACK_BLOCKS = 20
"""How many blocks before a marker the API looks for an earlier cached prefix."""


def simulate_cache(body: dict[str, Any], cache: set[str], floor: int) -> tuple[int, int, int]:
    """(uncached input, cache read, cache write) tokens of one request; `cache` is updated.

    The longest prefix already in `cache` is read, found at a marker or up to
    LOOKBACK_BLOCKS blocks before one (so last turn's marked history is found after its
    marker moved on); the rest up to the last marker is written. Prefixes shorter than
    `floor` tokens are not cached.
    """
    items = without_cache_control(_prompt_items(body))
    total = estimate_tokens(items)
    model = body.get("model")
    marked = [i for i, item in enumerate(_prompt_items(body)) if _has_cache_control(item)]
    written = [(prefix_key(model, items[: i + 1]), estimate_tokens(items[: i + 1])) for i in marked]
    written = [(key, n) for key, n in written if n >= floor]
    if not written:
        return total, 0, 0
    looked = {j for i in marked for j in range(max(0, i - LOOKBACK_BLOCKS + 1), i + 1)}
    read = 0
    for j in sorted(looked, reverse=True):
        size = estimate_tokens(items[: j + 1])
        if size >= floor and prefix_key(model, items[: j + 1]) in cache:
            read = size
            break
    last = written[-1][1]
    cache.update(key for key, _n in written)
    return max(0, total - last), read, max(0, last - read)


def _prompt_items(body: dict[str, Any]) -> list[Any]:
    """Tools, system blocks, then each message's content blocks: the cache's order."""
    items: list[Any] = list(body.get("tools") or [])
    system = body.get("system")
    if isinstance(system, str):
        items.append({"type": "text", "text": system})
    elif system:
        items.extend(system)
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            items.append({"role": message["role"], "text": content})
        else:
            items.extend({"role": message["role"], **block} for block in content or [])
    return items


class FakeAnthropic:
    """The server. Use as `async with FakeAnthropic() as fake:` and point base_url at it."""

    def __init__(
        self,
        *,
        api_key: str = "sk-ant-fake",
        responder: Responder | None = None,
        models: tuple[tuple[str, str], ...] = DEFAULT_MODELS,
        min_cache_tokens: int | None = 0,
        capabilities: bool | dict[str, Any] = True,
        host: str = "127.0.0.1",
        port: int = 0,
        delay: float = 0.0,
    ) -> None:
        self.api_keys = {api_key}
        self.delay = delay
        """Seconds every POST /v1/messages waits before it is answered, model and planning
        requests alike (a fixed model latency, for benchmarks); 0: none."""
        self.responder = responder
        self.models = models
        self.min_cache_tokens = min_cache_tokens
        """A fixed minimum cacheable length for every model; None: each model's own."""
        self.capabilities = capabilities
        """Whether the model list gives each model's capabilities (a local server may not);
        a dict is given as every model's capabilities (a partial answer)."""
        self.thinking = ThinkingRules()
        self.requests: list[RecordedRequest] = []
        self.usages: list[tuple[RecordedRequest, dict[str, int]]] = []
        """Each answered model request with the usage the fake reported for it."""
        self.hangups = 0
        """Requests the client abandoned while the server was still answering."""
        self._plan: deque[Step] = deque()
        self._plans: deque[PlanAnswer] = deque()
        self.planner: Callable[[RecordedRequest], PlanAnswer] | None = None
        """Answers a planning request no test stated a plan for (the stand-in's rules)."""
        self.plan_requests: list[RecordedRequest] = []
        """Planning requests (a forced tool call), kept apart from the model's requests."""
        self.plan_usages: list[dict[str, int]] = []
        self._cache: set[str] = set()
        self._ids = itertools.count(1)
        self._host = host
        self._port = port
        self._runner: web.AppRunner | None = None
        self.port = 0

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on host:port (port 0: a free one)."""
        app = web.Application()
        app.router.add_post("/v1/messages", self._messages)
        app.router.add_get("/v1/models", self._models)
        app.router.add_get("/v1/models/{model_id}", self._model)
        # a client that hangs up cancels its handler, so a stopped call is seen here
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def close(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    @property
    def base_url(self) -> str:
        """What the SDK's base_url should be."""
        return f"http://{self._host}:{self.port}"

    # --- scripting -----------------------------------------------------------------------

    def script(self, *steps: Step) -> None:
        """Queue steps; each model request takes the next one."""
        self._plan.extend(steps)

    def plan(self, *answers: PlanAnswer) -> None:
        """Queue the planner's answers; each planning request takes the next one.

        An answer is the forced tool call's input (a dict), an ApiError or a Stall. With
        none queued (and no `planner`), a planning request gets a 500: the turn has no plan.
        """
        self._plans.extend(answers)

    @property
    def unplayed_plans(self) -> list[PlanAnswer]:
        """Stated plans no planning request took."""
        return list(self._plans)

    @property
    def unplayed(self) -> list[Step]:
        """Steps not yet used (a test may assert this is empty)."""
        return list(self._plan)

    def discard_plan(self) -> list[Step]:
        """Drop the steps not yet used (a run that ended early); returns them."""
        unplayed = list(self._plan)
        self._plan.clear()
        return unplayed

    def discard_plans(self) -> list[PlanAnswer]:
        """Drop the stated plans no planning request took; returns them."""
        unplayed = list(self._plans)
        self._plans.clear()
        return unplayed

    def revoke(self, api_key: str) -> None:
        """From now on this key gets 401."""
        self.api_keys.discard(api_key)

    @property
    def message_requests(self) -> list[RecordedRequest]:
        """The recorded POST /v1/messages requests, planning requests left out."""
        planning = {id(r) for r in self.plan_requests}
        return [r for r in self.requests if r.path == "/v1/messages" and id(r) not in planning]

    # --- handlers ------------------------------------------------------------------------

    async def _record(self, request: web.Request) -> RecordedRequest:
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        recorded = RecordedRequest(
            request.method,
            request.path,
            {k.lower(): v for k, v in request.headers.items()},
            body,
            raw,
        )
        self.requests.append(recorded)
        return recorded

    def _authorized(self, request: web.Request) -> bool:
        """The key as `x-api-key` (SDK < 2) or as a bearer token (what SDK 2.x sends)."""
        if request.headers.get("x-api-key") in self.api_keys:
            return True
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        return scheme.lower() == "bearer" and token in self.api_keys

    async def _models(self, request: web.Request) -> web.StreamResponse:
        await self._record(request)
        if not self._authorized(request):
            return self._error(ApiError.unauthorized())
        data = [
            model_info(model_id, name, with_capabilities=self.capabilities)
            for model_id, name in self.models
        ]
        return web.json_response(
            {
                "data": data,
                "has_more": False,
                "first_id": data[0]["id"] if data else None,
                "last_id": data[-1]["id"] if data else None,
            }
        )

    async def _model(self, request: web.Request) -> web.StreamResponse:
        await self._record(request)
        if not self._authorized(request):
            return self._error(ApiError.unauthorized())
        wanted = request.match_info["model_id"]
        for model_id, name in self.models:
            if model_id == wanted:
                return web.json_response(
                    model_info(model_id, name, with_capabilities=self.capabilities)
                )
        return self._error(ApiError(404, "not_found_error", f"model: {wanted}"))

    async def _messages(self, request: web.Request) -> web.StreamResponse:
        recorded = await self._record(request)
        if not self._authorized(request):
            return self._error(ApiError.unauthorized())
        if recorded.body is None or "messages" not in recorded.body:
            return self._error(ApiError(400, "invalid_request_error", "messages: required"))
        refused = check_tool_pairing(recorded.messages) or self.thinking.check(recorded.body)
        if refused is not None:
            return self._error(refused)
        if self.delay > 0:
            try:
                await asyncio.sleep(self.delay)
            except asyncio.CancelledError:
                self.hangups += 1
                raise
        if is_planning(recorded.body):
            return await self._planning(recorded)
        step = await self._next_step(recorded)
        if isinstance(step, Stall):
            try:
                await asyncio.sleep(step.seconds)
            except asyncio.CancelledError:
                self.hangups += 1
                raise
            step = step.then
        if isinstance(step, ApiError):
            return self._error(step)
        message = self._message(recorded.body, step)
        self.usages.append((recorded, message["usage"]))
        if recorded.stream:
            return await self._stream(request, message, step)
        return web.json_response(message)

    async def _planning(self, recorded: RecordedRequest) -> web.StreamResponse:
        """A forced tool call: the stated plan, the planner's, or a 500 (no plan)."""
        self.plan_requests.append(recorded)
        assert recorded.body is not None
        if self._plans:
            answer = self._plans.popleft()
        elif self.planner is not None:
            answer = self.planner(recorded)
        else:
            answer = ApiError(500, "api_error", "the fake has no plan for this turn")
        if isinstance(answer, Stall):
            await asyncio.sleep(answer.seconds)
            return self._error(ApiError(500, "api_error", "stalled"))
        if isinstance(answer, ApiError):
            return self._error(answer)
        name = recorded.body["tool_choice"]["name"]
        message = self._message(
            recorded.body, Reply(tool_uses=(ToolUse(name, answer),), thinks=False)
        )
        message["stop_reason"] = "tool_use"
        self.plan_usages.append(message["usage"])
        return web.json_response(message)

    async def _next_step(self, recorded: RecordedRequest) -> Step:
        if self._plan:
            return self._plan.popleft()
        if self.responder is not None:
            result = self.responder(recorded)
            if inspect.isawaitable(result):
                return await result
            return result
        return ApiError(500, "api_error", "the fake has no scripted reply left")

    def _error(self, error: ApiError) -> web.Response:
        headers = {}
        if error.retry_after is not None:
            headers["retry-after"] = str(error.retry_after)
        return web.json_response(
            {"type": "error", "error": {"type": error.type, "message": error.message}},
            status=error.status,
            headers=headers,
        )

    # --- building the reply ----------------------------------------------------------------

    def floor(self, model: str) -> int:
        """The minimum cacheable length applied to a model's requests."""
        if self.min_cache_tokens is not None:
            return self.min_cache_tokens
        return min_cacheable_tokens(model)

    def _usage(self, body: dict[str, Any]) -> dict[str, int]:
        uncached, read, write = simulate_cache(
            body, self._cache, self.floor(str(body.get("model", "")))
        )
        return {
            "input_tokens": uncached,
            "cache_creation_input_tokens": write,
            "cache_read_input_tokens": read,
        }

    def _message(self, body: dict[str, Any], reply: Reply) -> dict[str, Any]:
        content = self.thinking.opening_blocks(body, reply)
        if reply.text:
            content.append({"type": "text", "text": reply.text})
        for number, use in enumerate(reply.tool_uses):
            if number:
                content.extend(self.thinking.between_tools(body, reply))
            content.append(
                {
                    "type": "tool_use",
                    "id": use.id or f"toolu_fake{next(self._ids):04d}",
                    "name": use.name,
                    "input": use.input,
                }
            )
        self.thinking.record(body, content)
        usage = self._usage(body)
        output = reply.output_tokens
        if output is None:
            output = max(1, estimate_tokens(content))
        return {
            "id": f"msg_fake{next(self._ids):04d}",
            "type": "message",
            "role": "assistant",
            "model": body.get("model", ""),
            "content": content,
            "stop_reason": reply.effective_stop_reason,
            "stop_sequence": None,
            "usage": {**usage, "output_tokens": output},
        }

    async def _stream(
        self, request: web.Request, message: dict[str, Any], reply: Reply
    ) -> web.StreamResponse:
        response = web.StreamResponse(headers={"content-type": "text/event-stream"})
        await response.prepare(request)
        for sent, event in enumerate(_events(message, reply)):
            if reply.stall_after_events is not None and sent == reply.stall_after_events:
                await asyncio.sleep(reply.stall_seconds)
            payload = f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"
            await response.write(payload.encode())
        await response.write_eof()
        return response


def _has_cache_control(item: Any) -> bool:
    return isinstance(item, dict) and "cache_control" in item


def _events(message: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
    """The SSE events of one message, in the API's order."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None}
    start["usage"] = {**usage, "output_tokens": 1}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {"type": "text", "text": ""},
                }
            )
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": chunk},
                }
                for chunk in _chunks(block["text"], reply.chunk_words)
            )
        elif block["type"] == "thinking":
            events.extend(_thinking_events(index, block, reply.chunk_words))
        elif block["type"] == "redacted_thinking":
            events.append({"type": "content_block_start", "index": index, "content_block": block})
        else:
            events.append(
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": {**block, "input": {}},
                }
            )
            arguments = json.dumps(block["input"])
            middle = len(arguments) // 2
            events.extend(
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": part},
                }
                for part in (arguments[:middle], arguments[middle:])
                if part
            )
        events.append({"type": "content_block_stop", "index": index})
    events.append(
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": usage["output_tokens"]},
        }
    )
    events.append({"type": "message_stop"})
    return events


def _thinking_events(index: int, block: dict[str, Any], words: int) -> list[dict[str, Any]]:
    """A thinking block: empty at its start, text in deltas, the signature just before its stop."""
    events: list[dict[str, Any]] = [
        {
            "type": "content_block_start",
            "index": index,
            "content_block": {"type": "thinking", "thinking": "", "signature": ""},
        }
    ]
    if block["thinking"]:
        events.extend(
            {
                "type": "content_block_delta",
                "index": index,
                "delta": {"type": "thinking_delta", "thinking": chunk},
            }
            for chunk in _chunks(block["thinking"], words)
        )
    events.append(
        {
            "type": "content_block_delta",
            "index": index,
            "delta": {"type": "signature_delta", "signature": block["signature"]},
        }
    )
    return events


def _chunks(text: str, words: int) -> list[str]:
    parts = text.split(" ")
    return [
        " ".join(parts[i : i + words]) + (" " if i + words < len(parts) else "")
        for i in range(0, len(parts), max(1, words))
    ]


__all__ = [
    "ApiError",
    "FakeAnthropic",
    "RecordedRequest",
    "Reply",
    "Stall",
    "ToolUse",
    "cache_prefix",
    "cache_prefixes",
    "estimate_tokens",
    "prefix_key",
    "prompt_tokens",
    "simulate_cache",
]
