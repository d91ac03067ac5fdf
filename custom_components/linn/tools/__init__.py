"""The guarded LLM tool platform: the guard's Home Assistant glue (issue 21)."""
