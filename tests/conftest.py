"""Root test configuration.

`import custom_components` first: phacc ships a testing_config/custom_components
package that would otherwise shadow ours (README.md, Development > Testing notes).
"""

import pytest

import custom_components  # noqa: F401


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
