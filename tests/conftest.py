"""Root test configuration.

`import custom_components` first: phacc ships a testing_config/custom_components
package that would otherwise shadow ours (CONTRIBUTING.md, Testing notes).
"""

from collections.abc import Iterator
import logging

from hypothesis import settings
import pytest

import custom_components  # noqa: F401
from testing.deprecations import is_report_about_us


def pytest_configure(config: pytest.Config) -> None:
    """No per-example deadline for hypothesis: the suite shares 2 cores with the other steps of
    scripts/test, where a first example once took 380 ms and failed a passing property test.
    Speed is measured by scripts/bench, not by tests."""
    settings.register_profile("linn", deadline=None)
    settings.load_profile("linn")


@pytest.fixture(autouse=True)
def _loopback_sockets(socket_enabled: None) -> None:
    """Phacc blocks sockets; the emulator and scripted peers are real TCP peers on loopback.

    Phacc still lets sockets reach 127.0.0.1 only.
    """


@pytest.fixture(autouse=True)
def auto_enable_custom_integrations(request: pytest.FixtureRequest) -> None:
    """Let Home Assistant load custom_components/linn in every test that starts one."""
    if "hass" in request.fixturenames:
        request.getfixturevalue("enable_custom_integrations")


class _ReportsAboutUs(logging.Handler):
    """Collects Home Assistant's deprecation and usage reports about the integration."""

    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.found: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if is_report_about_us(message):
            self.found.append(f"[{record.name}] {message}")


@pytest.fixture(autouse=True)
def _no_deprecation_reports_about_us() -> Iterator[None]:
    """Home Assistant logs (not warns) when we use a deprecated API: that fails the test."""
    handler = _ReportsAboutUs()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
    if handler.found:
        pytest.fail(
            "Home Assistant reported our use of a deprecated API:\n" + "\n".join(handler.found)
        )
