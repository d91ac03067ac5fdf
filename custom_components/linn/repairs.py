"""Repairs: what an admin can do about an audit log found broken or missing.

Three choices: keep the evidence (the broken log stays stored apart, the issue ends),
start a new log (the broken logs are deleted, the issue ends), or restore a backup from
before the damage (Home Assistant's own restore; the issue stays until then). Only admins
reach a fix flow (Home Assistant's repairs API requires one).
"""

from __future__ import annotations

from typing import Any

from homeassistant.components.repairs import RepairsFlow, RepairsFlowResult
from homeassistant.core import HomeAssistant
from homeassistant.helpers import issue_registry as ir

from .const import DOMAIN
from .tools.ha_adapter import DATA_GUARD, EVIDENCE_KEY

KEEP = "keep_evidence"
NEW_LOG = "new_log"
RESTORE = "restore_backup"


class AuditLogRepairFlow(RepairsFlow):
    """The broken audit log: keep the evidence, start a new log, or restore a backup."""

    def __init__(self, placeholders: dict[str, str]) -> None:
        """The issue's own placeholders (why the log does not verify)."""
        self._placeholders = {**placeholders, "storage": f".storage/{EVIDENCE_KEY}"}

    async def async_step_init(self, user_input: dict[str, Any] | None = None) -> RepairsFlowResult:
        """The three choices."""
        return self.async_show_menu(
            step_id="init",
            menu_options=[KEEP, NEW_LOG, RESTORE],
            description_placeholders=self._placeholders,
        )

    async def async_step_keep_evidence(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """The broken log stays where it is; the notice ends."""
        if user_input is None:
            return self.async_show_form(step_id=KEEP, description_placeholders=self._placeholders)
        return self.async_create_entry(data={})

    async def async_step_new_log(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """The broken logs are deleted; the log started at the damage goes on."""
        if user_input is None:
            kept = await self.hass.data[DATA_GUARD].async_evidence_count()
            return self.async_show_form(
                step_id=NEW_LOG,
                description_placeholders={**self._placeholders, "count": str(kept)},
            )
        await self.hass.data[DATA_GUARD].async_discard_evidence()
        return self.async_create_entry(data={})

    async def async_step_restore_backup(
        self, user_input: dict[str, Any] | None = None
    ) -> RepairsFlowResult:
        """How to restore; nothing changes here, and the notice stays until it is done."""
        return self.async_abort(reason=RESTORE, description_placeholders=self._placeholders)


async def async_create_fix_flow(
    hass: HomeAssistant, issue_id: str, data: dict[str, str | int | float | None] | None
) -> RepairsFlow:
    """The audit log's flow (the only fixable issue of this integration)."""
    issue = ir.async_get(hass).async_get_issue(DOMAIN, issue_id)
    placeholders = dict(issue.translation_placeholders or {}) if issue is not None else {}
    return AuditLogRepairFlow(placeholders)
