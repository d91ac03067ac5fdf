"""`python -m benchmarks [ARGS]` (what scripts/bench runs): picks the benchmark from ARGS.

`--compare` compare.py, `guard ...` the guard's overhead (guard.py), `prompt ...` the
prompt-size comparison with core anthropic (prompt.py), `planner ...` what the planner adds to
a turn's latency (planner.py), `--soak MINUTES` the long fault soak (soak.py), `--scale` the
scale curve (scale.py); anything else the LPEC and Home Assistant latencies and parse
throughput (latency.py). Each module is imported only when its benchmark runs.
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> None:
    """Run the benchmark that `argv` (the arguments after the program name) asks for."""
    if "--compare" in argv:
        from benchmarks.compare import main as compare_main  # noqa: PLC0415

        compare_main(argv)
    elif argv[:1] == ["guard"]:
        from benchmarks.guard import main as guard_main  # noqa: PLC0415

        guard_main(argv[1:])
    elif argv[:1] == ["planner"]:
        from benchmarks.planner import main as planner_main  # noqa: PLC0415

        planner_main(argv[1:])
    elif argv[:1] == ["prompt"]:
        from benchmarks.prompt import main as prompt_main  # noqa: PLC0415

        prompt_main(argv[1:])
    elif "--soak" in argv:
        from benchmarks.soak import main as soak_main  # noqa: PLC0415

        soak_main(argv)
    elif "--scale" in argv:
        from benchmarks.scale import main as scale_main  # noqa: PLC0415

        scale_main(argv)
    else:
        from benchmarks.latency import main as latency_main  # noqa: PLC0415

        latency_main(argv)


if __name__ == "__main__":
    main(sys.argv[1:])
