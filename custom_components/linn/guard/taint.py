"""The taint book: which turns and conversations read text no user chose (device text).

Text a read brings in stays in the model's context: a turn that read it, and the rest of
its conversation, are checked more strictly (checks.py). Without a conversation (an MCP
client, a script) there are no turns: the caller's last minutes, and its last day, count.
"""

from __future__ import annotations

from .call import Caller, Turn
from .clock import Clock

UNTIED_TAINT_SECONDS = 300.0
"""Without a conversation there are no turns: a change is refused this long after a read."""
TAINT_KEEP_SECONDS = 3600.0
"""A turn's taint lasts the turn; after an hour it is only memory (one per conversation)."""
CONVERSATION_TAINT_SECONDS = 86400.0
"""How long a conversation that read untrusted text is remembered as such."""


class TaintBook:
    """What each turn, conversation and caller without a chat log has read."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._taint: dict[tuple[str | None, str | None], float] = {}
        """When each turn read device text: per (conversation, the turn's own utterance);
        without a conversation, per (None, user)."""
        self._taint_sweep_at = 64
        self._tainted_conversations: dict[str, float] = {}
        self._conversations_that_read: dict[str, float] = {}
        """Conversations in which a read (not a change's result) brought in device text."""
        self._untied_reads: dict[str | None, float] = {}
        """Per user: the last read of device text by a caller with no chat log (an MCP
        client's session keeps the text in its model's context as long as a conversation)."""

    def __len__(self) -> int:
        """Turns (per conversation, or per caller without one) whose taint is remembered."""
        return len(self._taint)

    @staticmethod
    def _key(caller: Caller, turn: Turn) -> tuple[str | None, str | None]:
        if turn.conversation_id is None:
            return (None, caller.user_id)
        # Per utterance, not per turn index: two turns at once under one conversation id,
        # or a new chat log under a reused id, share an index (review 47). A turn with no
        # utterance of its own (an approval's re-check) keeps the index.
        return (turn.conversation_id, turn.utterance_id or f"#{turn.index}")

    def mark(self, caller: Caller, turn: Turn, *, read: bool, this_turn: bool = True) -> None:
        """Device text reached the model: by a read (`read`), or in a change's result."""
        now = self.clock().timestamp()
        if len(self._taint) > self._taint_sweep_at:
            self._taint = {k: at for k, at in self._taint.items() if now - at < TAINT_KEEP_SECONDS}
            self._taint_sweep_at = max(64, 2 * len(self._taint))
        if this_turn:
            self._taint[self._key(caller, turn)] = now
        if turn.conversation_id is None and read:
            self._untied_reads = {
                user: at
                for user, at in self._untied_reads.items()
                if now - at < CONVERSATION_TAINT_SECONDS
            }
            self._untied_reads[caller.user_id] = now
        if turn.conversation_id is not None:
            marks = [self._tainted_conversations]
            if read:
                marks.append(self._conversations_that_read)
            for conversations in marks:
                conversations[turn.conversation_id] = now
                stale = [
                    key
                    for key, at in conversations.items()
                    if now - at > CONVERSATION_TAINT_SECONDS
                ]
                for key in stale:
                    del conversations[key]

    def conversation_read_untrusted(self, caller: Caller, turn: Turn) -> bool:
        """True when any turn of this conversation (or, without one, the caller's last day) did."""
        if turn.conversation_id is None:
            return self.is_tainted(caller, turn) or self.untied_read_before(caller, turn)
        return turn.conversation_id in self._tainted_conversations

    def untied_read_before(self, caller: Caller, turn: Turn) -> bool:
        """A caller with no chat log read device text in the last day (after the refusal).

        Such a client (Home Assistant's MCP server, a script calling the tools) has no turns
        and no words to check, and its model keeps the text for the whole session: within
        UNTIED_TAINT_SECONDS a change is refused, after it an administrator decides, for as
        long as a conversation is remembered as having read device text.
        """
        if turn.conversation_id is not None:
            return False
        at = self._untied_reads.get(caller.user_id)
        return at is not None and self.clock().timestamp() - at < CONVERSATION_TAINT_SECONDS

    def conversation_read_text(self, turn: Turn) -> bool:
        """True when a read in any turn of this conversation brought in device text.

        A change's result (another API's intent response: names, not titles) taints only
        its own turn, so "turn on the kitchen light" does not block the next request.
        """
        return turn.conversation_id in self._conversations_that_read

    def is_tainted(self, caller: Caller, turn: Turn) -> bool:
        """True when this turn (or, without a conversation, the last minutes) read device text."""
        at = self._taint.get(self._key(caller, turn))
        if at is None:
            return False
        if turn.conversation_id is None:
            return self.clock().timestamp() - at < UNTIED_TAINT_SECONDS
        return True
