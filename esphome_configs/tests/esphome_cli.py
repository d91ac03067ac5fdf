"""The ESPHome configs' directory and the esphome CLI of this interpreter, for the ESPHome tests
(run in the esphome venv, not the Home Assistant one)."""

from pathlib import Path
import subprocess
import sys

CONFIG_DIR = Path(__file__).resolve().parents[1]


def run_esphome(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run the esphome CLI of this interpreter and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "esphome", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
