"""Custom components package (kept so phacc's testing_config does not shadow it)."""
