"""Assistant options stored by older versions, brought to what they mean now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .const import DEFAULT_OPTIONS, RAW_TOKEN_DEFAULTS


def weighted_token_budgets(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options of minor version 1, whose token budgets counted raw tokens.

    A budget left at the old default gets the new default (the old one, counted in
    input-token equivalents, would end a dialog within about 30 turns); a value the
    user chose is kept, and now counts what costs.
    """
    return {
        **options,
        **{
            key: DEFAULT_OPTIONS[key]
            for key, old in RAW_TOKEN_DEFAULTS.items()
            if options.get(key) == old
        },
    }
