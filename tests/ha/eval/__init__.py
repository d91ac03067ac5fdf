"""The task suite (issue 10): cases, harness, results."""
