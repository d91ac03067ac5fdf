"""The fake's 400s for a tool_use without its tool_result, and a tool_result without its
tool_use, through the real SDK."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import anthropic
import pytest

from testing.fake_anthropic import FakeAnthropic, Reply

KEY = "sk-ant-fake"
ASK = {"role": "user", "content": "play in the kitchen"}
CALL = {"type": "tool_use", "id": "toolu_x", "name": "linn__play", "input": {}}


def result(tool_use_id: str) -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tool_use_id, "content": "ok"}


@pytest.fixture
async def fake() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY) as server:
        yield server


async def create(fake: FakeAnthropic, messages: list[dict[str, Any]]) -> anthropic.types.Message:
    async with anthropic.AsyncAnthropic(
        api_key=KEY, base_url=fake.base_url, max_retries=0, timeout=5.0
    ) as sdk:
        return await sdk.messages.create(
            model="claude-haiku-4-5", max_tokens=100, messages=messages
        )


async def test_a_call_answered_in_the_next_message_is_accepted(fake: FakeAnthropic) -> None:
    fake.script(Reply("Playing."))
    answered = [
        ASK,
        {"role": "assistant", "content": [CALL]},
        {"role": "user", "content": [result("toolu_x")]},
    ]
    assert (await create(fake, answered)).content[0].type == "text"


UNANSWERED = [
    ASK,
    {"role": "assistant", "content": [CALL]},
    {"role": "user", "content": "and louder"},
]
UNASKED = [
    ASK,
    {"role": "assistant", "content": [CALL]},
    {"role": "user", "content": [result("toolu_x"), result("toolu_y")]},
]


@pytest.mark.parametrize(
    ("messages", "error"),
    [
        (
            UNANSWERED,
            r"messages\.2: `tool_use` ids were found without `tool_result` blocks immediately "
            r"after: toolu_x\. Each `tool_use` block must have a corresponding `tool_result` "
            r"block in the next message\.",
        ),
        (
            UNASKED,
            r"messages\.2\.content\.1: unexpected `tool_use_id` found in `tool_result` "
            r"blocks: toolu_y\. Each `tool_result` block must have a corresponding `tool_use` "
            r"block in the previous message\.",
        ),
    ],
    ids=["tool_use without tool_result", "tool_result without tool_use"],
)
async def test_unpaired_calls_and_results_are_refused(
    fake: FakeAnthropic, messages: list[dict[str, Any]], error: str
) -> None:
    with pytest.raises(anthropic.BadRequestError, match=error):
        await create(fake, messages)
