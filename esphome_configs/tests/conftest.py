"""Fixtures shared by the ESPHome tests (run in the esphome venv, not the Home Assistant one)."""

from pathlib import Path
import shutil
import subprocess
import sys

import pytest

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


@pytest.fixture(scope="session")
def config_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of esphome_configs/ with secrets.yaml made from secrets.yaml.example.

    Tests never read the developer's real secrets.yaml and work on a fresh clone.
    """
    dest = tmp_path_factory.mktemp("esphome_configs") / "esphome_configs"
    shutil.copytree(
        CONFIG_DIR,
        dest,
        ignore=shutil.ignore_patterns(".esphome", "tests", "secrets.yaml", "__pycache__", "docs"),
    )
    shutil.copy(dest / "secrets.yaml.example", dest / "secrets.yaml")
    return dest
