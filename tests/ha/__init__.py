"""Tests of the Home Assistant integration against the emulator over real TCP."""
