"""The fault soak: random emulator faults while commands arrive through HA actions and tools.

Shared by the short soak in the tests (tests/ha/test_soak.py) and the long one
(scripts/bench --soak MINUTES). One round: pick a fault, inject it, issue random commands at
once (Home Assistant media player actions and guarded `linn__*` tools through the Assist
API), change the device's front panel while the fault lasts, then end the fault. The round
records, and never raises on, what the issue asks to hold:

- every command completes or raises within its bound (none lost, none hanging);
- after a fault that breaks the session, the entity is unavailable within `detect_bound`;
  after every fault it is available with the device's state within `recover_bound` of the
  end of the fault; a fault that does not break the session never makes it unavailable;
- a starved event loop (a loaded machine) runs the integration late, and the soak's clock
  does not stop meanwhile: each bound is extended by the loop lag measured during the wait,
  and a session that a harmless fault's round ended is excused only when the session's own
  reason was a reply missed while the loop lagged for at least half the reply timeout
  (late replies end the session by design). Any other reason stays a violation;
- every tool call has its audit record (per round: the new records' tools are exactly the
  tools called);
- event-loop lag, task count and traced memory are sampled for the caller to judge.

Violations are collected as text; the caller asserts there are none.
"""

from .faults import BREAKING, EITHER, FAULTS, HARMLESS
from .memory import HARNESS, growth, traced_bytes, traced_snapshot
from .report import SoakReport, SoakSettings
from .rounds import MISSED_REPLY, Soak

__all__ = [
    "BREAKING",
    "EITHER",
    "FAULTS",
    "HARMLESS",
    "HARNESS",
    "MISSED_REPLY",
    "Soak",
    "SoakReport",
    "SoakSettings",
    "growth",
    "traced_bytes",
    "traced_snapshot",
]
