"""A notice, once per loaded entry, when the thinking option cannot be applied.

Logged at info, not as a warning: a server that does not report capabilities (a local
stand-in, a proxy) is a state of every start that nobody can fix from the log; diagnostics
report it too (`option_not_applied`).
"""

from __future__ import annotations

import logging

from .model_info import ModelCapabilities
from .runtime import AssistantRuntime
from .thinking_params import CAPABILITIES_UNKNOWN, option_not_applied

_LOGGER = logging.getLogger(__name__)


def warn_if_not_applied(
    runtime: AssistantRuntime, title: str, capabilities: ModelCapabilities, effort: str
) -> None:
    """Log once per entry that the effort option is ignored because capabilities are unknown.

    Called when a turn decides its request's parameters (a failed look-up at setup is
    repeated there first).
    """
    if runtime.thinking_warned or option_not_applied(capabilities) != CAPABILITIES_UNKNOWN:
        return
    runtime.thinking_warned = True
    _LOGGER.info(
        "%s: the thinking effort option (%s) cannot be applied: the server does not report "
        "the capabilities of model %s (or cannot be asked), so the model thinks or not by "
        "its own default",
        title,
        effort,
        capabilities.model,
    )
