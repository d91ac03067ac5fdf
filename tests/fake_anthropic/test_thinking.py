"""The fake's thinking models and its rules for sending thinking back, through the real SDK."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anthropic
import pytest

from testing.fake_anthropic import FakeAnthropic, Reply, ToolUse

KEY = "sk-ant-fake"
TOOL = {
    "name": "linn__play",
    "description": "Play",
    "input_schema": {"type": "object", "properties": {"player": {"type": "string"}}},
}
ASK = {"role": "user", "content": "play in the kitchen"}


@pytest.fixture
async def fake() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY) as server:
        yield server


@pytest.fixture
async def sdk(fake: FakeAnthropic) -> AsyncIterator[anthropic.AsyncAnthropic]:
    client = anthropic.AsyncAnthropic(
        api_key=KEY, base_url=fake.base_url, max_retries=0, timeout=5.0
    )
    yield client
    await client.close()


async def _create(sdk: anthropic.AsyncAnthropic, **kwargs: Any) -> anthropic.types.Message:
    args: dict[str, Any] = {"model": "claude-haiku-5-5", "max_tokens": 200, "tools": [TOOL]}
    return await sdk.messages.create(**{**args, **kwargs})


def _as_param(message: anthropic.types.Message) -> dict[str, Any]:
    """The assistant message as a client sends it back: every block, exactly."""
    return {"role": "assistant", "content": [block.model_dump() for block in message.content]}


def _result(tool_use_id: str) -> dict[str, Any]:
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": tool_use_id, "content": "ok"}],
    }


async def _tool_step(fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic, **kwargs: Any) -> Any:
    fake.script(Reply(tool_uses=(ToolUse("linn__play", {"player": "Kitchen"}, id="toolu_1"),)))
    return await _create(sdk, messages=[ASK], **kwargs)


async def test_models_give_capabilities(fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic) -> None:
    new = await sdk.models.retrieve("claude-haiku-5-5")
    old = await sdk.models.retrieve("claude-haiku-4-5")
    assert new.capabilities is not None
    assert old.capabilities is not None
    assert new.capabilities.thinking.types.adaptive.supported
    assert new.capabilities.effort.supported
    assert not old.capabilities.thinking.types.adaptive.supported
    assert old.capabilities.thinking.types.enabled.supported
    with pytest.raises(anthropic.NotFoundError):
        await sdk.models.retrieve("claude-nonesuch")


async def test_a_local_server_may_list_no_capabilities(sdk: anthropic.AsyncAnthropic) -> None:
    async with FakeAnthropic(api_key=KEY, capabilities=False) as bare:
        client = anthropic.AsyncAnthropic(api_key=KEY, base_url=bare.base_url, max_retries=0)
        assert (await client.models.retrieve("claude-haiku-5-5")).capabilities is None
        await client.close()


async def test_haiku_5_5_thinks_by_default_with_its_text_omitted(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    message = await _tool_step(fake, sdk)
    kinds = [block.type for block in message.content]
    assert kinds == ["thinking", "tool_use"]
    thinking = message.content[0]
    assert isinstance(thinking, anthropic.types.ThinkingBlock)
    assert thinking.thinking == ""
    assert thinking.signature


async def test_summarized_thinking_and_redacted_blocks_stream(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    fake.script(Reply("Playing.", thinking="Kitchen it is.", redacted_thinking=True))
    stream = sdk.messages.stream(
        model="claude-haiku-5-5",
        max_tokens=200,
        messages=[ASK],
        thinking={"type": "adaptive", "display": "summarized"},
    )
    async with stream as events:
        message = await events.get_final_message()
    assert [block.type for block in message.content] == ["thinking", "redacted_thinking", "text"]
    thinking = message.content[0]
    assert isinstance(thinking, anthropic.types.ThinkingBlock)
    assert thinking.thinking == "Kitchen it is."
    assert thinking.signature


async def test_disabled_or_older_models_do_not_think(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    fake.script(Reply("One."), Reply("Two."))
    off = await _create(sdk, messages=[ASK], thinking={"type": "disabled"})
    old = await _create(sdk, messages=[ASK], model="claude-haiku-4-5")
    assert [b.type for b in off.content] == ["text"]
    assert [b.type for b in old.content] == ["text"]


async def test_an_exact_echo_is_accepted(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    first = await _tool_step(fake, sdk)
    fake.script(Reply("Playing."))
    reply = await _create(sdk, messages=[ASK, _as_param(first), _result("toolu_1")])
    assert reply.content[-1].type == "text"


async def test_dropping_the_active_loops_thinking_is_refused(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    first = _as_param(await _tool_step(fake, sdk))
    rebuilt = {"role": "assistant", "content": first["content"][1:]}
    fake.script(Reply("Playing."))
    with pytest.raises(anthropic.BadRequestError, match="Expected `thinking`"):
        await _create(sdk, messages=[ASK, rebuilt, _result("toolu_1")])
    assert fake.unplayed, "a refused request plays no step"


async def test_an_altered_message_or_signature_is_refused(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    first = _as_param(await _tool_step(fake, sdk))
    altered_input = {
        "role": "assistant",
        "content": [first["content"][0], {**first["content"][1], "input": {"player": "Den"}}],
    }
    forged = {
        "role": "assistant",
        "content": [{**first["content"][0], "signature": "Zm9yZ2Vk"}, first["content"][1]],
    }
    for message in (altered_input, forged):
        with pytest.raises(anthropic.BadRequestError, match="Invalid `signature`"):
            await _create(sdk, messages=[ASK, message, _result("toolu_1")])


async def test_a_changed_prefix_unbinds_later_thinking(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    system = [{"type": "text", "text": "You run a hi-fi."}]
    first = _as_param(await _tool_step(fake, sdk, system=system))
    later = [ASK, first, _result("toolu_1")]
    with pytest.raises(anthropic.BadRequestError, match="bound to a different conversation"):
        await _create(sdk, messages=later, system=[{"type": "text", "text": "Changed."}])
    with pytest.raises(anthropic.BadRequestError, match="bound to a different conversation"):
        await _create(sdk, messages=[{"role": "user", "content": "other words"}, *later[1:]])
    fake.script(Reply("Playing."))
    reply = await _create(sdk, messages=later, system=system)
    assert reply.content[-1].type == "text"


async def test_a_completed_turns_thinking_may_be_removed(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    first = _as_param(await _tool_step(fake, sdk))
    fake.script(Reply("Playing."))
    done = _as_param(await _create(sdk, messages=[ASK, first, _result("toolu_1")]))
    stripped = {"role": "assistant", "content": first["content"][1:]}
    fake.script(Reply("Louder."))
    next_turn = [
        ASK,
        stripped,
        _result("toolu_1"),
        {"role": "assistant", "content": done["content"][1:]},
        {"role": "user", "content": "louder"},
    ]
    reply = await _create(sdk, messages=next_turn)
    assert reply.content[-1].type == "text"


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"temperature": 0.2}, "`temperature` is not supported"),
        ({"thinking": {"type": "enabled", "budget_tokens": 1024}}, "thinking.type.enabled"),
        (
            {"thinking": {"type": "disabled"}, "output_config": {"effort": "max"}},
            "disabled only at effort high or below",
        ),
    ],
)
async def test_what_5x_models_refuse(
    sdk: anthropic.AsyncAnthropic, extra: dict[str, Any], message: str
) -> None:
    with pytest.raises(anthropic.BadRequestError, match=message):
        # as the request's body: anthropic 2.x's create() takes no temperature argument
        await _create(sdk, messages=[ASK], extra_body=extra)


async def test_a_prefill_is_refused_by_5x_models(sdk: anthropic.AsyncAnthropic) -> None:
    prefill = {"role": "assistant", "content": "Sure,"}
    with pytest.raises(anthropic.BadRequestError, match="prefill"):
        await _create(sdk, messages=[ASK, prefill])


async def test_a_reply_may_skip_thinking_and_is_echoed_as_it_came(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    use = ToolUse("linn__play", {"player": "Kitchen"}, id="toolu_1")
    fake.script(Reply(tool_uses=(use,), thinks=False), Reply("Playing."))
    first = await _create(sdk, messages=[ASK])
    assert [b.type for b in first.content] == ["tool_use"]
    reply = await _create(sdk, messages=[ASK, _as_param(first), _result("toolu_1")])
    assert reply.content[-1].type == "text"


async def test_interleaved_thinking_between_tool_calls_must_be_echoed_whole(
    fake: FakeAnthropic, sdk: anthropic.AsyncAnthropic
) -> None:
    uses = (
        ToolUse("linn__play", {"player": "Kitchen"}, id="toolu_1"),
        ToolUse("linn__play", {"player": "Hall"}, id="toolu_2"),
    )
    fake.script(Reply(tool_uses=uses, interleaved=True))
    first = _as_param(await _create(sdk, messages=[ASK]))
    assert [b["type"] for b in first["content"]] == ["thinking", "tool_use", "thinking", "tool_use"]
    results = {
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": call, "content": "ok"}
            for call in ("toolu_1", "toolu_2")
        ],
    }
    without_middle = {**first, "content": [first["content"][i] for i in (0, 1, 3)]}
    with pytest.raises(anthropic.BadRequestError, match="Invalid `signature`"):
        await _create(sdk, messages=[ASK, without_middle, results])
    fake.script(Reply("Playing in both."))
    reply = await _create(sdk, messages=[ASK, first, results])
    assert reply.content[-1].type == "text"


async def test_effort_is_refused_by_a_model_without_it(sdk: anthropic.AsyncAnthropic) -> None:
    with pytest.raises(anthropic.BadRequestError, match="does not support effort"):
        await _create(
            sdk, messages=[ASK], model="claude-haiku-4-5", output_config={"effort": "low"}
        )
