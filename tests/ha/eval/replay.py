"""A stand-in for a real model in live mode: it answers from a case's plan by the utterance
it is sent, the way a real model decides from the request alone.

Live mode never scripts the server; this responder lets a test point live mode at the fake
server (a base URL override) and exercise that code path with no API key.
"""

from __future__ import annotations

from testing.fake_anthropic import ApiError, RecordedRequest, Step

from .case import Case


class ReplayModel:
    """Each request: the turn whose text is the last user utterance, and the step after the
    model messages already sent in that turn."""

    def __init__(self, case: Case) -> None:
        self.plans = {turn.text: turn.plan for turn in case.turns}

    def __call__(self, request: RecordedRequest) -> Step:
        messages = request.messages
        utterance_at = max(
            (
                index
                for index, message in enumerate(messages)
                if message["role"] == "user" and _has_text(message["content"])
            ),
            default=-1,
        )
        steps_taken = sum(1 for m in messages[utterance_at + 1 :] if m["role"] == "assistant")
        plan = self.plans.get(request.last_user_text, ())
        if steps_taken >= len(plan):
            return ApiError(500, "api_error", "the stand-in model has nothing to say")
        return plan[steps_taken]


def _has_text(content: object) -> bool:
    if isinstance(content, str):
        return True
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "text" for block in content
    )
