"""Check the per-file coverage floors of pyproject.toml on the data of one or more runs.

    python scripts/coverage_floors.py .coverage .coverage-anthropic2

Each data file is one pytest run's (scripts/test's main run and its anthropic 2.x lane); a
file counts what any of them ran. Line and branch coverage together, as pytest-cov reports
it. Exit 1 when a file is under its floor or a data file is missing.
"""

from __future__ import annotations

import io
from pathlib import Path
import sys
import tempfile
import tomllib

import coverage

ROOT = Path(__file__).resolve().parent.parent


def floors() -> dict[str, float]:
    """The table [tool.linn.coverage-floors]: path -> lowest percentage."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    table: dict[str, float] = config["tool"]["linn"]["coverage-floors"]
    return table


def measured(data_files: list[Path], paths: list[str]) -> dict[str, float]:
    """Each path's coverage on all the data files together."""
    with tempfile.TemporaryDirectory() as scratch:
        cov = coverage.Coverage(
            data_file=str(Path(scratch) / "combined"), config_file=str(ROOT / "pyproject.toml")
        )
        cov.combine([str(path) for path in data_files], keep=True)
        cov.load()
        return {
            path: cov.report(include=[str(ROOT / path)], file=io.StringIO(), skip_covered=False)
            for path in paths
        }


def main(argv: list[str]) -> int:
    """Report every floor; 1 when one is not met."""
    data_files = [Path(arg) for arg in argv] or [ROOT / ".coverage"]
    missing = [str(path) for path in data_files if not path.exists()]
    if missing:
        print(f"coverage floors: no coverage data {missing}")
        return 1
    table = floors()
    failed = 0
    for path, percent in measured(data_files, list(table)).items():
        ok = percent >= table[path]
        failed += not ok
        print(f"{'ok  ' if ok else 'LOW '} {percent:6.2f} % (floor {table[path]:g} %)  {path}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
