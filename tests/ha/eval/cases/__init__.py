"""Every case of the task suite, one table per category."""

from __future__ import annotations

from ..case import Case
from . import (
    ambiguous,
    budget_fallback,
    capabilities,
    confirm_approve,
    denied,
    faults,
    follow_ups,
    german,
    multi_room,
    now_playing,
    phrasings,
    pins_presets,
    search,
    sources,
    volume,
)

MODULES = (
    now_playing,
    volume,
    sources,
    pins_presets,
    search,
    multi_room,
    follow_ups,
    ambiguous,
    confirm_approve,
    denied,
    faults,
    budget_fallback,
    german,
    capabilities,
    phrasings,
)
ALL_CASES: list[Case] = [case for module in MODULES for case in module.CASES]

_ids = [case.id for case in ALL_CASES]
assert len(_ids) == len(set(_ids)), "case ids must be unique"
