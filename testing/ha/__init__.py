"""Helpers that set up the integration in a Home Assistant under test (no fixtures)."""
