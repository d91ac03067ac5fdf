"""The benchmarks' Home Assistant (benchmarks/hass.py) keeps out of the installed packages."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pytest_homeassistant_custom_component.common import get_test_config_dir

from benchmarks.hass import home_assistant


def _store_something(config_dir: Path) -> None:
    """What a run leaves (in tests Home Assistant's Store keeps its data in memory)."""
    (config_dir / ".storage").mkdir()
    (config_dir / ".storage" / "bench").write_text("{}")


async def test_the_bench_home_assistant_has_a_throw_away_directory_of_its_own() -> None:
    async with home_assistant() as hass:
        config_dir = Path(hass.config.config_dir)
        # not phacc's testing_config, inside the installed package
        assert not config_dir.is_relative_to(get_test_config_dir())
        await hass.async_add_executor_job(_store_something, config_dir)
    assert not await asyncio.to_thread(config_dir.exists)  # removed, with what the run left
