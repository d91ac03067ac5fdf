"""Per-tool specification and the default policies."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .decisions import Access, Policy

OTHER_API_TOOLS: Final = "other_api_tools"
"""The one policy of every tool of another LLM API (Assist and others) an assistant calls."""


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """What the guard needs to know about a tool, independent of how it runs."""

    name: str
    access: Access
    action: str | None = None
    """The kind of action a user's words must ask for (utterance.ACTION_WORDS); None: read."""
    reads_untrusted: bool = False
    """Its result carries device or media text: the turn is tainted afterwards."""
    timeout: float = 3.0
    logged_fields: frozenset[str] = frozenset()
    """Argument names written verbatim to the audit log; others are redacted."""
    min_policy: Policy = Policy.ALLOW
    """No option makes the tool laxer than this (set_volume_limit: an admin approves)."""
    user_words_only: bool = False
    """Runs only when the user's own utterance asks for its action, in a conversation that
    has never read untrusted text (remembered facts: injected text must never write them)."""
    policy_name: str | None = None
    """The policy that governs it, when not its own (other APIs' tools share one)."""
    approvable: bool = True
    """False: no administrator's approval can run it (the approval actions know only the
    Linn tools), so where the guard would ask an admin, it refuses instead."""
    conversation_taint: bool = False
    """A change refused after a read brought untrusted text in anywhere in the conversation,
    not only in this turn: that text stays in the model's context for later turns, and a
    tool with no soft limit or per-player settings (another API's) has nothing else to stop
    it."""
    every_term: bool = False
    """Once untrusted text was read (or sent) in the conversation, every name the call
    targets must be one the user said (another API's intent: its `name` and `area`), not
    only one of them; a name from the user's previous request of the same kind counts."""

    @property
    def changes_state(self) -> bool:
        """True for every tool that is not a read."""
        return self.access is not Access.READ

    @property
    def policy_key(self) -> str:
        """The name its policy is kept under (DEFAULT_POLICIES, the owners' options)."""
        return self.policy_name or self.name


DEFAULT_POLICIES: dict[str, Policy] = {
    "get_state": Policy.ALLOW,
    "search_music": Policy.ALLOW,
    "play": Policy.ALLOW,
    "pause": Policy.ALLOW,
    "stop": Policy.ALLOW,
    "next": Policy.ALLOW,
    "previous": Policy.ALLOW,
    "set_volume": Policy.ALLOW,  # above the soft limit: confirm (dynamic)
    "change_volume": Policy.ALLOW,  # above the soft limit: confirm (dynamic)
    "mute": Policy.ALLOW,
    "select_source": Policy.ALLOW,
    "play_pin": Policy.ALLOW,
    "play_radio_preset": Policy.ALLOW,
    "play_music": Policy.ALLOW,
    "standby": Policy.ALLOW,
    "join": Policy.ALLOW,
    "unjoin": Policy.ALLOW,
    "set_volume_limit": Policy.APPROVE,
    "wake": Policy.ALLOW,  # it restores the device's own source and starts nothing
    "set_shuffle": Policy.ALLOW,
    "set_repeat": Policy.ALLOW,
    "seek": Policy.ALLOW,
    OTHER_API_TOOLS: Policy.ALLOW,
}
