"""The guarded LLM tool platform (issue 21).

The Linn tools (linn_tools.py), their schemas (schemas.py) and the players they act on
(players.py); the guard's Home Assistant glue, and the Linn tools' code the guard is given: their
specs and short media ids. llm.py at the root stays Home Assistant's thin entry point.
"""
