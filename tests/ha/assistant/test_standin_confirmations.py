"""The stand-in asks for a yes (a policy's confirm, a volume above the soft limit), in English
and German, through Home Assistant: the yes runs the change, a no does not.
"""

from __future__ import annotations

from collections.abc import Callable

from homeassistant.auth.models import User
from homeassistant.core import HomeAssistant
import pytest

from custom_components.linn.agent.const import DEFAULT_OPTIONS
from custom_components.linn.tools.guard_options import OPT_POLICIES
from linn_emulator import LinnEmulator
from testing.helpers import wait_for

from .chat import converse, speech
from .standin_checks import ENTITY, in_language

pytestmark = pytest.mark.usefixtures("assistant", "standin")


type Dialog = tuple[str, str, str, bool]
"""(language, what the user asks, the user's answer, whether the answer runs it)"""


def _dialog_id(dialog: Dialog) -> str:
    return "-".join(str(part) for part in dialog)


async def _confirmation_dialog(
    hass: HomeAssistant,
    user: User,
    dialog: Dialog,
    *,
    unchanged: Callable[[], bool],
    changed: Callable[[], bool],
) -> None:
    """The user asks; the stand-in asks back briefly in the user's language and the device
    stays `unchanged`; the user answers: a yes (`runs`) makes it `changed`, a no leaves it
    `unchanged`."""
    language, ask, answer, runs = dialog
    asked = await converse(hass, ask, user, language=language)
    question = speech(asked)
    assert "Needs" not in question, question  # not the guard's note to the model
    assert len(question) <= 120, question
    assert in_language(question, language), question
    await hass.async_block_till_done()
    assert unchanged()
    replied = await converse(hass, answer, user, asked.conversation_id, language)
    assert len(speech(replied)) <= 120, speech(replied)
    if runs:
        await wait_for(changed)
    else:
        await hass.async_block_till_done()
        assert unchanged()


@pytest.mark.parametrize(
    "assistant_options", [{**DEFAULT_OPTIONS, OPT_POLICIES: {"standby": "confirm"}}]
)
@pytest.mark.parametrize(
    "dialog",
    [
        ("en", "standby", "yes", True),
        ("en", "turn it off", "no", False),
        ("de", "ausschalten", "ja", True),
        ("de", "Standby", "nein", False),
    ],
    ids=_dialog_id,
)
async def test_a_confirmation_with_the_stand_in(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    dialog: Dialog,
) -> None:
    """The stand-in asks for the yes in the user's words; the yes runs it, a no does not."""
    await _confirmation_dialog(
        hass,
        hass_admin_user,
        dialog,
        unchanged=lambda: emulator.state.standby is False,
        changed=lambda: emulator.state.standby,
    )


@pytest.mark.parametrize(
    "dialog",
    [
        ("en", "volume 55", "yes", True),
        ("en", "set the volume to 55", "no", False),
        ("de", "Lautstärke 55", "ja", True),
        ("de", "stell die Lautstärke auf 55", "nein", False),
    ],
    ids=_dialog_id,
)
async def test_a_volume_above_the_soft_limit_with_the_stand_in(
    hass: HomeAssistant,
    hass_admin_user: User,
    emulator: LinnEmulator,
    dialog: Dialog,
) -> None:
    """55 is above the soft limit (60 % of the limit 80), and a small step from 45: the
    same dialog as for a policy's confirm (a big jump would go to an admin instead)."""
    emulator.panel.set_volume(45)
    await wait_for(lambda: hass.states.get(ENTITY).attributes.get("volume_level") == 0.45)
    await _confirmation_dialog(
        hass,
        hass_admin_user,
        dialog,
        unchanged=lambda: emulator.state.volume == 45,
        changed=lambda: emulator.state.volume == 55,
    )
