"""The guarded LLM tool platform (issue 21).

The Linn tools, each defined once with its guard spec (tool_def.py; playback.py, volume.py,
media.py, groups.py; in order in linn_tools.py), their schemas (schemas.py) and the players they
act on (players.py); the guard's Home Assistant glue, and the short media ids the tools give the
model. llm.py at the root stays Home Assistant's thin entry point.
"""
