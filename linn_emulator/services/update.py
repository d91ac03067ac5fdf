"""Linn Update (urn:linn-co-uk:service:Update): firmware status as JSON."""

from __future__ import annotations

import json

from .base import EmulatedService


class UpdateService(EmulatedService):
    """urn:linn-co-uk:service:Update:4 (read-only subset)."""

    name = "Update"
    version = 4

    def setup(self) -> None:
        """Declare the actions."""
        self.getter("GetSoftwareStatus", "SoftwareStatus", "SoftwareStatus")
        self.getter("GetExecutorStatus", "ExecutorStatus", "ExecutorStatus")
        self.add("CheckNow", lambda _a: [])
        self.add("Apply", self.call(self._apply))

    def _apply(self) -> None:
        """Install the first available update at once (a real device reboots first)."""
        status = self.state.software_status
        updates = status.get("update_info", {}).get("updates") or []
        if status.get("status") == "update_available" and updates:
            status["current_software"]["version"] = updates[0]["version"]
            status["status"] = "on_latest"
            self.device.changed()

    def variables(self) -> dict[str, str]:
        """Every evented variable."""
        return {
            "SoftwareStatus": json.dumps(self.state.software_status),
            "ExecutorStatus": json.dumps({"state": "idle"}),
        }
