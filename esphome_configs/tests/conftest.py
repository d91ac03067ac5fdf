"""Fixtures shared by the ESPHome tests (run in the esphome venv, not the Home Assistant one)."""

from pathlib import Path
import shutil

from esphome_cli import CONFIG_DIR
import pytest


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
