"""Compiled tool schemas, reused while the facts they are built from stay the same.

Building and compiling a probatio schema was most of the guard's cost per call. The key
is the tool's schema builder together with the SchemaFacts it is given, and the facts are
taken from the live players on every call: a changed volume limit, a renamed player or a
new pin gives new facts and so a new schema on the very next call. Nothing else reaches a
builder, so a cached schema cannot be stale.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import probatio

from .players import Player
from .tool_def import SchemaFacts, ToolDef

MAX_SCHEMAS = 256
"""Plenty for every tool under a few sets of facts; the least recently used goes first."""

type _Key = tuple[Callable[[SchemaFacts], Any], SchemaFacts]

_schemas: dict[_Key, probatio.Schema] = {}


def tool_schema(definition: ToolDef, facts: SchemaFacts) -> probatio.Schema:
    """The tool's schema for these facts, compiled once."""
    key: _Key = (definition.fields, facts)
    schema = _schemas.pop(key, None)
    if schema is None:
        schema = probatio.Schema(definition.fields(facts))
        if len(_schemas) >= MAX_SCHEMAS:
            del _schemas[next(iter(_schemas))]
    _schemas[key] = schema  # (re)inserted last: dicts keep insertion order
    return schema


def schema_for_players(definition: ToolDef, players: list[Player]) -> probatio.Schema:
    """The tool's schema for the players as they are now."""
    return tool_schema(definition, definition.facts(players))
