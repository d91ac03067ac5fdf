"""The budgets of one turn: checked before each model call, and the trim near one.

A used-up budget ends the turn in limited mode (fallback.Limited); a member over their
share of the day budget gets no local intents either.
"""

from __future__ import annotations

from collections.abc import Mapping
import logging
from typing import Any

from homeassistant.components import conversation

from ..guard import Ledger
from .fallback import Limited
from .history import ConversationRecord
from .replies import Say
from .turn_log import last_utterance
from .usage import BudgetExceeded, budget_near

_LOGGER = logging.getLogger(__name__)


def check_budget(exceeded: BudgetExceeded | None) -> None:
    """Raise Limited, saying which budget, when one is used up."""
    if exceeded is BudgetExceeded.SHARE:
        raise Limited(Say.BUDGET_SHARE, local=False)
    if exceeded is BudgetExceeded.CONVERSATION:
        raise Limited(Say.BUDGET_CONVERSATION)
    if exceeded is BudgetExceeded.DAY:
        raise Limited(Say.BUDGET_DAY)


def trim_if_budget_near(
    ledger: Ledger,
    chat_log: conversation.ChatLog,
    user_id: str | None,
    options: Mapping[str, Any],
    record: ConversationRecord,
) -> None:
    """Near a budget, leave out the results and facts of the turns before this one."""
    conversation_id = chat_log.conversation_id
    if budget_near(ledger, conversation_id, user_id, options):
        utterance = last_utterance(chat_log)
        if utterance is not None and utterance > record.trim_before:
            _LOGGER.debug("Budget near: trimming %s before %s", conversation_id, utterance)
            record.trim_before = utterance
