"""Budget counters per conversation, per player and per day; the agent fills tokens and cost."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import date
from typing import Any

from .clock import Clock

type Counters = defaultdict[str, float]

_ANY = object()
"""A user or conversation id that matches every reservation."""

NO_USER_KEY = ""
"""How the callers with no user (None) are stored: no Home Assistant user id is empty."""


def _counters() -> Counters:
    return defaultdict(float)


class Ledger:
    """Counters that reset with the day (of the clock's time zone)."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._day: date = clock().date()
        self.today: Counters = _counters()
        self.conversations: dict[str | tuple[str | None, str], Counters] = {}
        """By conversation id, or by (user, conversation id) when the caller names the user."""
        self.players: dict[str, Counters] = {}
        self.users: dict[str | None, Counters] = {}
        """By user (None: every caller with no user, together): today's, whatever the
        conversation id, so a new conversation id resets nothing."""
        self._reserved: dict[object, tuple[str | None, str | None, dict[str, float]]] = {}
        """The estimates of the calls in flight (conversation id, user, amounts), by call."""

    def add(
        self,
        conversation_id: str | None,
        *,
        entity_ids: Iterable[str] = (),
        user_id: str | None = None,
        **amounts: float,
    ) -> None:
        """Add e.g. tool_calls=1 or input_tokens=... to today, the conversation, each player."""
        self.add_amounts(conversation_id, amounts, entity_ids=entity_ids, user_id=user_id)

    def add_amounts(
        self,
        conversation_id: str | None,
        amounts: Mapping[str, float],
        *,
        entity_ids: Iterable[str] = (),
        user_id: str | None = None,
    ) -> None:
        """Like add, with the amounts as a mapping (e.g. a model call's usage).

        With `user_id`, the amounts count for that user too, and the conversation's
        counters are that user's in that conversation (another user's calls under the same
        id, such as an automation's `kitchen`, are not theirs). Without one they count for
        the callers with no user, together (`for_user(None)`).
        """
        self._roll()
        buckets = [self.today, self.users.setdefault(user_id, _counters())]
        if conversation_id is not None:
            key = conversation_id if user_id is None else (user_id, conversation_id)
            buckets.append(self.conversations.setdefault(key, _counters()))
        buckets.extend(self.players.setdefault(e, _counters()) for e in dict.fromkeys(entity_ids))
        for name, amount in amounts.items():
            for bucket in buckets:
                bucket[name] += amount

    @contextmanager
    def reserved(
        self,
        conversation_id: str | None,
        amounts: Mapping[str, float],
        *,
        user_id: str | None = None,
    ) -> Iterator[None]:
        """Hold `amounts` (a call's estimate) while the block runs: a call in flight.

        Counted by the getters with `reserved=True` for today, the user and their
        conversation, so parallel calls of one user cannot all pass a budget check that
        none of them has spent yet. Released when the block ends, however it ends (an
        error, a cancelled turn); add the call's actual usage inside the block.
        """
        key = object()
        self._reserved[key] = (conversation_id, user_id, dict(amounts))
        try:
            yield
        finally:
            del self._reserved[key]

    def _with_reserved(
        self, counters: Mapping[str, float], user_id: object, conversation_id: object
    ) -> dict[str, float]:
        """`counters` plus the reservations of `user_id` in `conversation_id` (_ANY: any)."""
        total = dict(counters)
        for conversation, user, amounts in self._reserved.values():
            if (user_id is _ANY or user == user_id) and (
                conversation_id is _ANY or conversation == conversation_id
            ):
                for name, amount in amounts.items():
                    total[name] = total.get(name, 0.0) + amount
        return total

    def for_conversation(
        self, conversation_id: str, user_id: str | None = None, *, reserved: bool = False
    ) -> dict[str, float]:
        """Counters of one conversation (today); with `user_id`, that user's in it.

        `reserved`: with the estimates of `user_id`'s calls in flight in it.
        """
        self._roll()
        key = conversation_id if user_id is None else (user_id, conversation_id)
        spent: Mapping[str, float] = self.conversations.get(key, {})
        if not reserved:
            return dict(spent)
        return self._with_reserved(spent, user_id, conversation_id)

    def for_user(self, user_id: str | None, *, reserved: bool = False) -> dict[str, float]:
        """Counters of one user today, over every conversation (added with their user id).

        None: the callers with no user (anonymous satellites, automations), together.
        `reserved`: with the estimates of their calls in flight.
        """
        self._roll()
        spent: Mapping[str, float] = self.users.get(user_id, {})
        return self._with_reserved(spent, user_id, _ANY) if reserved else dict(spent)

    def for_player(self, entity_id: str) -> dict[str, float]:
        """Counters of the calls that targeted one player (today)."""
        self._roll()
        return dict(self.players.get(entity_id, {}))

    def totals_today(self, *, reserved: bool = False) -> dict[str, float]:
        """Today's counters; `reserved`: with the estimates of every call in flight."""
        self._roll()
        return self._with_reserved(self.today, _ANY, _ANY) if reserved else dict(self.today)

    def to_dict(self) -> dict[str, Any]:
        """For storage, so a restart does not reset today's counters."""
        return {
            "day": self._day.isoformat(),
            "today": dict(self.today),
            "players": {key: dict(value) for key, value in self.players.items()},
            "users": {
                NO_USER_KEY if key is None else key: dict(value)
                for key, value in self.users.items()
            },
        }

    def load(self, data: Mapping[str, Any] | None) -> None:
        """Restore today's counters (conversations are not kept: they end within minutes)."""
        if not data or data.get("day") != self._clock().date().isoformat():
            return
        self._day = date.fromisoformat(data["day"])
        self.today = defaultdict(float, {k: float(v) for k, v in data["today"].items()})
        self.players = {
            key: defaultdict(float, {k: float(v) for k, v in value.items()})
            for key, value in data.get("players", {}).items()
        }
        self.users = {
            (None if key == NO_USER_KEY else str(key)): defaultdict(
                float, {k: float(v) for k, v in value.items()}
            )
            for key, value in data.get("users", {}).items()
        }

    def _roll(self) -> None:
        today = self._clock().date()
        if today != self._day:
            self._day = today
            self.today = _counters()
            self.conversations = {}
            self.players = {}
            self.users = {}
