"""Test doubles and set-up helpers shared by the tests, the scripts and the benchmarks.

Fenced like linn_emulator/: tests and scripts import it, the integration (custom_components)
never does, and nothing here imports a test (tests/test_import_boundaries.py).
"""
