"""Prompt size and cost: Home Assistant's own Claude agent against ours, on the same home."""
