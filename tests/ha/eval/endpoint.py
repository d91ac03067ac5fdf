"""Where a case's model calls go: the fake Messages API (offline) or a real one (live)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from testing.fake_anthropic import FakeAnthropic

type Mode = Literal["offline", "live"]


@dataclass
class Endpoint:
    """Where the SDK is pointed, and the fake server when offline."""

    mode: Mode
    api_key: str
    base_url: str | None
    model: str
    fake: FakeAnthropic | None = None


def offline(fake: FakeAnthropic, api_key: str, model: str) -> Endpoint:
    """The scripted model on the fake Messages API."""
    return Endpoint("offline", api_key, fake.base_url, model, fake)


def live(api_key: str, base_url: str | None, model: str) -> Endpoint:
    """A real model (or any Messages API at base_url) deciding on its own: no plan."""
    return Endpoint("live", api_key, base_url, model)
