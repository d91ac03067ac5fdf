"""Tests of the prompt size and cost comparison (testing/promptcmp)."""
