"""Benchmarks against the emulator on loopback: `python -m benchmarks` (scripts/bench runs it).

One module per benchmark (latency, compare, scale, soak, guard, planner, prompt, wakeup), the
processes they start (devices, fake_api: `python -m benchmarks.devices`, ...), and what they
share: hass (the bench Home Assistant in a throw-away config directory), stats (machine,
percentiles) and sides (the streamers' process and one integration's measured side, for
compare and scale). Results and how they were taken: docs/benchmarks.md.
"""
