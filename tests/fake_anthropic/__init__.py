"""Tests of the fake Messages API (testing/fake_anthropic)."""
