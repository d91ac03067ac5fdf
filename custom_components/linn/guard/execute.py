"""Running a call: under the circuit breaker and a timeout, its record written ahead."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
import logging
import math
import secrets
from typing import Any

from .breaker import CircuitBreaker
from .clock import Clock
from .decisions import Outcome
from .handler import InvalidArgument, ToolFailure, ToolHandler
from .messages import MSG_CANCELLED, MSG_FAILED, MSG_NOT_RECORDED, MSG_TIMED_OUT
from .records import Attempt, GuardResult, Recorder
from .taint import TaintBook

_LOGGER = logging.getLogger(__name__)


class Executor(Recorder):
    """Runs the calls the guard let through; a device's text read marks the taint book."""

    def __init__(self, clock: Clock, **limits: int) -> None:
        super().__init__(clock, **limits)
        self.breaker = CircuitBreaker(clock)
        self.taint = TaintBook(clock)
        """Which turns and conversations read device text (taint.py)."""

    async def _execute(
        self,
        attempt: Attempt,
        handler: ToolHandler,
        arguments: Mapping[str, Any],
        success: Outcome,
        request_id: str | None,
    ) -> GuardResult:
        assert attempt.spec is not None
        spec = attempt.spec
        breaker_key = (spec.name, attempt.entity_ids[0] if attempt.entity_ids else "")
        if not self.breaker.allow(breaker_key):
            wait = self.breaker.open_seconds
            return self._finish(
                attempt,
                Outcome.FAILED,
                f"Unavailable: this keeps failing on the player; try again in {math.ceil(wait)} s",
                request_id=request_id,
            )
        if spec.changes_state and self.journal is not None:
            # the record of a change is on disk before the change runs: a crash while it
            # runs leaves the attempt in the log (as interrupted), never nothing
            attempt.attempt_id = secrets.token_hex(8)
            try:
                await self.journal.begin(attempt.attempt_id, self._intent(attempt, request_id))
            except Exception:
                self.breaker.release(breaker_key)
                _LOGGER.exception("The guard could not write ahead the record of %s", spec.name)
                attempt.attempt_id = None
                return self._finish(
                    attempt, Outcome.FAILED, MSG_NOT_RECORDED, request_id=request_id
                )
        try:
            async with asyncio.timeout(spec.timeout):
                data = await handler.execute(arguments)
        except asyncio.CancelledError:
            # the caller gave up (a cancelled conversation turn): still one record
            self.breaker.release(breaker_key)
            self._finish(attempt, Outcome.FAILED, MSG_CANCELLED, request_id=request_id)
            raise
        except TimeoutError:
            self.breaker.failure(breaker_key)
            state = await self._reread(handler, arguments, spec.timeout)
            return self._finish(
                attempt, Outcome.TIMED_OUT, MSG_TIMED_OUT, request_id=request_id,
                extra={"state": state} if state is not None else None,
            )  # fmt: skip
        except InvalidArgument as err:
            self.breaker.release(breaker_key)
            return self._finish(attempt, Outcome.INVALID, err.message, request_id=request_id)
        except ToolFailure as err:
            self.breaker.failure(breaker_key)
            return self._finish(attempt, Outcome.FAILED, err.message, request_id=request_id)
        except Exception:
            _LOGGER.exception("Tool %s failed unexpectedly", spec.name)
            self.breaker.failure(breaker_key)
            return self._finish(attempt, Outcome.FAILED, MSG_FAILED, request_id=request_id)
        self.breaker.success(breaker_key)
        if spec.reads_untrusted:
            self.taint.mark(attempt.caller, attempt.turn, read=not spec.changes_state)
        return self._finish(attempt, success, None, data=data, request_id=request_id)

    async def _reread(
        self, handler: ToolHandler, arguments: Mapping[str, Any], seconds: float
    ) -> dict[str, Any] | None:
        try:
            async with asyncio.timeout(seconds):
                return await handler.reread(arguments)
        except Exception:  # noqa: BLE001 - the state is a courtesy; the timed-out outcome stands
            return None
