"""A target is named only whole (issue 30 item 3): "the front door light" names the light,
never the lock "Front Door"."""

from __future__ import annotations

import pytest

from custom_components.linn.guard.names import names_whole
from custom_components.linn.guard.plan import Plan, PlanMismatch, PlannedChange, plan_mismatch

HOME = ["Front Door", "Front Door Light", "Hallway", "Hallway Light"]


@pytest.mark.parametrize(
    ("words", "name", "named"),
    [
        ("turn off the front door light", "Front Door", False),
        ("turn off the front door light", "Front Door Light", True),
        ("lock the front door", "Front Door", True),
        ("the front door and the front door light", "Front Door", True),
        ("turn off the hallway light", "Hallway", False),
        ("turn off the light in the hallway", "Hallway", True),
        ("Front-Door-Light off", "Front Door", False),
        ("turn off the front doorbell", "Front Door", False),  # a word of it, not the word
    ],
)
def test_a_name_counts_only_whole(words: str, name: str, named: bool) -> None:
    assert names_whole(words, name, HOME) is named


def test_without_the_longer_name_known_the_words_name_the_shorter() -> None:
    """What the home does not have cannot cover a name."""
    assert names_whole("turn off the front door light", "Front Door", ["Hallway"])


def test_a_planned_target_must_name_every_item_whole() -> None:
    plan = Plan((PlannedChange("standby", target="the front door light"),))

    def mismatch(items: list[str]) -> PlanMismatch | None:
        return plan_mismatch(
            plan,
            "standby",
            players_named=lambda _words: True,
            items=items,
            volume_target=None,
            volume_current=None,
            longer_names=HOME,
        )

    assert mismatch(["Front Door Light"]) is None
    assert mismatch(["Front Door"]) is PlanMismatch.ITEM
