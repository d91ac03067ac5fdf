"""The guarded LLM tool platform (issue 21).

The guard's Home Assistant glue, and the Linn tools' code the guard is given: their specs and
short media ids.
"""
