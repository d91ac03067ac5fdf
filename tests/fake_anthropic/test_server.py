"""The fake Messages API, spoken to by the real anthropic SDK over real HTTP."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
import time

import anthropic
import httpx
import pytest

from testing.fake_anthropic import (
    ApiError,
    FakeAnthropic,
    Reply,
    Stall,
    ToolUse,
    planned,
    planned_change,
)
from testing.helpers import wait_for

KEY = "sk-ant-fake"
TOOL = {
    "name": "linn__play",
    "description": "Play",
    "input_schema": {"type": "object", "properties": {"player": {"type": "string"}}},
}


@pytest.fixture
async def fake() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY) as server:
        yield server


type ClientFactory = Callable[..., anthropic.AsyncAnthropic]


@pytest.fixture
async def client() -> AsyncIterator[ClientFactory]:
    """Real SDK clients (no retries) on the fake; all closed at the end."""
    clients: list[anthropic.AsyncAnthropic] = []

    def make(fake: FakeAnthropic, key: str = KEY, timeout: float = 5.0) -> anthropic.AsyncAnthropic:
        sdk = anthropic.AsyncAnthropic(
            api_key=key, base_url=fake.base_url, max_retries=0, timeout=timeout
        )
        clients.append(sdk)
        return sdk

    yield make
    for sdk in clients:
        await sdk.close()


async def test_json_reply_with_tool_use_and_usage(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    fake.script(Reply("On it.", (ToolUse("linn__play", {"player": "Kitchen"}, id="toolu_1"),)))
    message = await client(fake).messages.create(
        model="claude-haiku-4-5",
        max_tokens=100,
        tools=[TOOL],  # type: ignore[list-item]
        messages=[{"role": "user", "content": "play in the kitchen"}],
    )
    assert message.stop_reason == "tool_use"
    assert message.content[0].type == "text"
    tool_use = message.content[1]
    assert tool_use.type == "tool_use"
    assert (tool_use.id, tool_use.name, tool_use.input) == (
        "toolu_1",
        "linn__play",
        {"player": "Kitchen"},
    )
    assert message.usage.input_tokens > 0
    assert message.usage.output_tokens > 0
    recorded = fake.message_requests[0]
    assert recorded.body is not None
    assert recorded.body["tools"] == [TOOL]
    assert recorded.last_user_text == "play in the kitchen"


async def test_stream_delivers_text_deltas_and_tool_input_in_order(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    fake.script(Reply("one two three four five", (ToolUse("linn__play", {"player": "Kitchen"}),)))
    stream = await client(fake).messages.create(
        model="claude-haiku-4-5",
        max_tokens=100,
        stream=True,
        messages=[{"role": "user", "content": "hi"}],
    )
    kinds = []
    texts = []
    json_parts = []
    async for event in stream:
        kinds.append(event.type)
        if event.type == "content_block_delta" and event.delta.type == "text_delta":
            texts.append(event.delta.text)
        if event.type == "content_block_delta" and event.delta.type == "input_json_delta":
            json_parts.append(event.delta.partial_json)
    assert kinds[0] == "message_start"
    assert kinds[-2:] == ["message_delta", "message_stop"]
    assert texts == ["one two ", "three four ", "five"]
    assert "".join(json_parts) == '{"player": "Kitchen"}'
    assert fake.message_requests[0].stream


async def test_the_cached_prefix_is_written_once_then_read(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    fake.script(Reply("a"), Reply("b"), Reply("c"))
    system = [{"type": "text", "text": "stable " * 50, "cache_control": {"type": "ephemeral"}}]

    async def ask(text: str, system_blocks: list[dict[str, object]]) -> anthropic.types.Usage:
        message = await client(fake).messages.create(
            model="claude-haiku-4-5",
            max_tokens=10,
            system=system_blocks,  # type: ignore[arg-type]
            messages=[{"role": "user", "content": text}],
        )
        return message.usage

    first = await ask("one", system)
    assert (first.cache_creation_input_tokens or 0) > 0
    assert first.cache_read_input_tokens == 0
    second = await ask("two, a different question", system)
    assert second.cache_read_input_tokens == first.cache_creation_input_tokens
    assert second.cache_creation_input_tokens == 0
    changed = [{**system[0], "text": "changed " * 50}]
    third = await ask("three", changed)
    assert third.cache_read_input_tokens == 0
    assert third.cache_creation_input_tokens


@pytest.mark.parametrize(
    ("model", "floor"),
    [
        ("claude-haiku-4-5-20251001", 4096),
        ("claude-sonnet-4-5", 1024),
        ("claude-opus-5", 512),
        ("claude-opus-5-5", 0),  # minimum not known: the fake caches anything
        ("local-model", 0),
    ],
)
async def test_each_model_caches_only_from_its_minimum_length(
    client: ClientFactory, model: str, floor: int
) -> None:
    async with FakeAnthropic(api_key=KEY, min_cache_tokens=None) as fake:
        assert fake.floor(model) == floor
        fake.script(Reply("a"), Reply("b"))
        usages = []
        for words in (400, 1100):  # about 700 and 1,900 tokens: below and above 1,024
            system = [
                {"type": "text", "text": "word " * words, "cache_control": {"type": "ephemeral"}}
            ]
            message = await client(fake).messages.create(
                model=model,
                max_tokens=10,
                system=system,  # type: ignore[arg-type]
                messages=[{"role": "user", "content": "hi"}],
            )
            usages.append(message.usage)
    for usage, prefix in zip(usages, (400 * 5 // 4, 1100 * 5 // 4), strict=True):
        cached = (usage.cache_creation_input_tokens or 0) > 0
        assert cached == (prefix >= floor), (model, prefix)


async def test_the_longest_cached_breakpoint_is_read_and_the_rest_written(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    """A stable breakpoint and a moving one on the last message, as the agent sends them."""
    fake.script(Reply("a"), Reply("b"), Reply("c"))
    system = [{"type": "text", "text": "stable " * 50, "cache_control": {"type": "ephemeral"}}]
    marked = {"type": "ephemeral"}
    history: list[dict[str, object]] = []

    async def ask(text: str) -> anthropic.types.Usage:
        for message in history:  # earlier markers move on: only the last message has one
            message["content"] = [
                {k: v for k, v in block.items() if k != "cache_control"}
                for block in message["content"]  # type: ignore[attr-defined]
            ]
        history.append(
            {"role": "user", "content": [{"type": "text", "text": text, "cache_control": marked}]}
        )
        message = await client(fake).messages.create(
            model="claude-sonnet-4-5",
            max_tokens=10,
            system=system,  # type: ignore[arg-type]
            messages=history,  # type: ignore[arg-type]
        )
        history.append({"role": "assistant", "content": [{"type": "text", "text": "ok"}]})
        return message.usage

    first = await ask("one " * 20)
    second = await ask("two " * 20)
    third = await ask("three " * 20)
    # the first request writes all it marked; each later one reads the whole earlier prompt
    assert first.cache_read_input_tokens == 0
    assert first.input_tokens == 0
    for before, after in ((first, second), (second, third)):
        written = (before.cache_read_input_tokens or 0) + (before.cache_creation_input_tokens or 0)
        assert after.cache_read_input_tokens == written
        assert (after.cache_creation_input_tokens or 0) > 0


@pytest.mark.parametrize(
    ("step", "error"),
    [
        (ApiError.unauthorized(), anthropic.AuthenticationError),
        (ApiError.rate_limited(), anthropic.RateLimitError),
        (ApiError.overloaded(), anthropic.APIStatusError),
    ],
)
async def test_scripted_errors(
    fake: FakeAnthropic, client: ClientFactory, step: ApiError, error: type[Exception]
) -> None:
    fake.script(step)
    with pytest.raises(error) as raised:
        await client(fake).messages.create(
            model="m", max_tokens=1, messages=[{"role": "user", "content": "x"}]
        )
    assert isinstance(raised.value, anthropic.APIStatusError)
    assert raised.value.status_code == step.status


async def test_unknown_key_is_unauthorized_and_models_are_listed(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    with pytest.raises(anthropic.AuthenticationError):
        await client(fake, "sk-wrong").models.list()
    models = await client(fake).models.list()
    assert [model.id for model in models.data] == [
        "claude-haiku-5-5",
        "claude-haiku-4-5",
        "claude-sonnet-4-5",
    ]
    fake.revoke(KEY)
    with pytest.raises(anthropic.AuthenticationError):
        await client(fake).models.list()


async def test_a_stall_times_the_client_out_and_the_hangup_is_seen(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    fake.script(Stall(2.0))
    with pytest.raises(anthropic.APITimeoutError):
        await client(fake, timeout=0.2).messages.create(
            model="m", max_tokens=1, messages=[{"role": "user", "content": "x"}]
        )
    await wait_for(lambda: fake.hangups == 1)


async def test_no_script_left_is_a_loud_server_error(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    with pytest.raises(anthropic.InternalServerError):
        await client(fake).messages.create(
            model="m", max_tokens=1, messages=[{"role": "user", "content": "x"}]
        )


async def test_a_responder_computes_replies_from_the_request(client: ClientFactory) -> None:
    async with FakeAnthropic(
        api_key=KEY, responder=lambda request: Reply(f"you said {request.last_user_text}")
    ) as fake:
        message = await client(fake).messages.create(
            model="m", max_tokens=10, messages=[{"role": "user", "content": "hello"}]
        )
    assert message.content[0].type == "text"
    assert message.content[0].text == "you said hello"


async def test_plain_http_clients_see_the_same_api(
    fake: FakeAnthropic, client: ClientFactory
) -> None:
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{fake.base_url}/v1/models", headers={"x-api-key": KEY})
    assert response.status_code == 200
    assert response.json()["data"][0]["type"] == "model"


async def test_the_key_may_come_as_a_bearer_token(fake: FakeAnthropic) -> None:
    """anthropic SDK 2.x (Home Assistant 2026.11 pins 2.3.0) sends the key that way."""
    async with httpx.AsyncClient() as http:
        right = await http.get(
            f"{fake.base_url}/v1/models", headers={"authorization": f"Bearer {KEY}"}
        )
        wrong = await http.get(
            f"{fake.base_url}/v1/models", headers={"authorization": "Bearer sk-ant-other"}
        )
    assert right.status_code == 200
    assert wrong.status_code == 401


async def test_a_delay_holds_model_and_planning_answers_alike(client: ClientFactory) -> None:
    async with FakeAnthropic(api_key=KEY, delay=0.2) as fake:
        fake.script(Reply("Done."))
        fake.plan(planned(planned_change("volume", volume="level", level=35)))
        sdk = client(fake)
        messages = [{"role": "user", "content": "set the living room to 35"}]
        started = time.perf_counter()
        reply = await sdk.messages.create(
            model="claude-haiku-4-5",
            max_tokens=100,
            messages=messages,  # type: ignore[arg-type]
        )
        model_took = time.perf_counter() - started
        started = time.perf_counter()
        plan = await sdk.messages.create(
            model="claude-haiku-4-5",
            max_tokens=100,
            tools=[TOOL],  # type: ignore[list-item]
            tool_choice={"type": "tool", "name": "linn__play"},
            messages=messages,  # type: ignore[arg-type]
        )
        plan_took = time.perf_counter() - started
    assert reply.content[0].type == "text"
    assert plan.content[0].type == "tool_use"
    assert len(fake.plan_requests) == 1
    assert model_took >= 0.2
    assert plan_took >= 0.2
