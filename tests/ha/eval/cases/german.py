"""TODO."""

CASES: list = []
