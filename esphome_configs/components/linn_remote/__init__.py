"""ESPHome external component: a knob-and-screen remote for a Linn media_player in Home Assistant.

The C++ side subscribes to the player's state and attributes through the native API, draws the
screen with widgets that redraw only their own region, and calls Home Assistant actions
(volume_set, media_play_pause, media_next_track, select_source, turn_on/turn_off).
"""

from esphome import automation, pins
import esphome.codegen as cg
from esphome.components import deep_sleep, display, font
import esphome.config_validation as cv
from esphome.const import CONF_ID, CONF_NUMBER, CONF_TRIGGER_ID
from esphome.core import TimePeriod

CODEOWNERS = ["@linn-for-home-assistant"]
DEPENDENCIES = ["api", "display", "font"]

CONF_ENTITY_ID = "entity_id"
CONF_DISPLAY = "display"
CONF_FONT_SMALL = "font_small"
CONF_FONT_LARGE = "font_large"
CONF_FONT_HUGE = "font_huge"
CONF_VOLUME_STEP = "volume_step"
CONF_MAX_VOLUME = "max_volume"
CONF_SEND_INTERVAL = "send_interval"
CONF_SETTLE_TIME = "settle_time"
CONF_PAGES = "pages"
CONF_DIM_AFTER = "dim_after"
CONF_SLEEP_AFTER = "sleep_after"
CONF_WAKE_PINS = "wake_pins"
CONF_DEEP_SLEEP_ID = "deep_sleep_id"
CONF_ON_DIM = "on_dim"
CONF_ON_WAKE = "on_wake"
CONF_ON_SLEEP = "on_sleep"
CONF_STEPS = "steps"
CONF_BUTTON = "button"

MIN_VOLUME_STEP = 0.01
MAX_VOLUME_STEP = 0.10
# ESP32-C6 deep sleep can only be woken by the LP GPIOs.
WAKE_CAPABLE_GPIOS = range(8)

linn_remote_ns = cg.esphome_ns.namespace("linn_remote")
LinnRemote = linn_remote_ns.class_("LinnRemote", cg.Component)
TurnAction = linn_remote_ns.class_("TurnAction", automation.Action)
PressAction = linn_remote_ns.class_("PressAction", automation.Action)

# Values match linn_model::Page and linn_model::Button in linn_remote_model.h.
PAGES = {"now_playing": 0, "volume": 1, "sources": 2}
BUTTONS = {"play_pause": 0, "next": 1, "source": 2, "standby": 3, "encoder": 4}


def media_player_entity(value):
    """Validate an entity id and require the media_player domain."""
    value = cv.entity_id(value)
    if not value.startswith("media_player."):
        raise cv.Invalid(
            f"entity_id must be a media_player entity (media_player.<name>), got '{value}'"
        )
    return value


def volume_step(value):
    """Validate a volume step given as a percentage: 1% to 10%."""
    value = cv.percentage(value)
    if not MIN_VOLUME_STEP - 1e-9 <= value <= MAX_VOLUME_STEP + 1e-9:
        raise cv.Invalid(f"volume_step must be between 1% and 10%, got {value * 100:g}%")
    return value


def page_list(value):
    """Validate the page list: known names, at least one, no repeats."""
    value = cv.ensure_list(cv.one_of(*PAGES, lower=True))(value)
    if not value:
        raise cv.Invalid("pages must list at least one page")
    seen = set()
    for page in value:
        if page in seen:
            raise cv.Invalid(f"page '{page}' is listed twice in pages")
        seen.add(page)
    return value


def wake_pin(value):
    """A button pin that can also wake the ESP32-C6 from deep sleep (GPIO0-GPIO7)."""
    value = pins.gpio_input_pin_schema(value)
    number = value[CONF_NUMBER]
    if number not in WAKE_CAPABLE_GPIOS:
        raise cv.Invalid(
            f"wake pin GPIO{number} cannot wake the ESP32-C6 from deep sleep: use GPIO0-GPIO7"
        )
    return value


def _validate(config):
    if config[CONF_VOLUME_STEP] > config[CONF_MAX_VOLUME] + 1e-9:
        raise cv.Invalid("volume_step must not exceed max_volume", path=[CONF_VOLUME_STEP])
    dim: TimePeriod = config[CONF_DIM_AFTER]
    sleep: TimePeriod = config[CONF_SLEEP_AFTER]
    if dim.total_milliseconds >= sleep.total_milliseconds:
        raise cv.Invalid(
            f"dim_after ({dim}) must be shorter than sleep_after ({sleep})", path=[CONF_DIM_AFTER]
        )
    if config.get(CONF_WAKE_PINS) and CONF_DEEP_SLEEP_ID not in config:
        raise cv.Invalid(
            "wake_pins only make sense with deep_sleep_id: set deep_sleep_id or drop wake_pins",
            path=[CONF_WAKE_PINS],
        )
    numbers = [p[CONF_NUMBER] for p in config.get(CONF_WAKE_PINS, [])]
    if len(numbers) != len(set(numbers)):
        raise cv.Invalid("wake_pins lists a pin twice", path=[CONF_WAKE_PINS])
    return config


def _trigger_schema():
    return automation.validate_automation(
        {cv.GenerateID(CONF_TRIGGER_ID): cv.declare_id(automation.Trigger.template())}
    )


CONFIG_SCHEMA = cv.All(
    cv.Schema(
        {
            cv.GenerateID(): cv.declare_id(LinnRemote),
            cv.Required(CONF_ENTITY_ID): media_player_entity,
            cv.Required(CONF_DISPLAY): cv.use_id(display.Display),
            cv.Required(CONF_FONT_SMALL): cv.use_id(font.Font),
            cv.Required(CONF_FONT_LARGE): cv.use_id(font.Font),
            cv.Optional(CONF_FONT_HUGE): cv.use_id(font.Font),
            cv.Optional(CONF_VOLUME_STEP, default="2%"): volume_step,
            cv.Optional(CONF_MAX_VOLUME, default="100%"): cv.All(
                cv.percentage, cv.Range(min=0.01, msg="max_volume must be at least 1%")
            ),
            cv.Optional(CONF_SEND_INTERVAL, default="250ms"): cv.All(
                cv.positive_time_period_milliseconds,
                cv.Range(
                    min=TimePeriod(milliseconds=50),
                    max=TimePeriod(seconds=2),
                    msg="send_interval must be between 50ms and 2s",
                ),
            ),
            cv.Optional(CONF_SETTLE_TIME, default="1s"): cv.positive_time_period_milliseconds,
            cv.Optional(CONF_PAGES, default=["now_playing", "volume", "sources"]): page_list,
            cv.Optional(CONF_DIM_AFTER, default="15s"): cv.All(
                cv.positive_time_period_milliseconds,
                cv.Range(min=TimePeriod(seconds=1), msg="dim_after must be at least 1s"),
            ),
            cv.Optional(CONF_SLEEP_AFTER, default="60s"): cv.All(
                cv.positive_time_period_milliseconds,
                cv.Range(min=TimePeriod(seconds=2), msg="sleep_after must be at least 2s"),
            ),
            cv.Optional(CONF_DEEP_SLEEP_ID): cv.use_id(deep_sleep.DeepSleepComponent),
            cv.Optional(CONF_WAKE_PINS): cv.ensure_list(wake_pin),
            cv.Optional(CONF_ON_DIM): _trigger_schema(),
            cv.Optional(CONF_ON_WAKE): _trigger_schema(),
            cv.Optional(CONF_ON_SLEEP): _trigger_schema(),
        }
    ).extend(cv.COMPONENT_SCHEMA),
    _validate,
)


async def to_code(config):
    var = cg.new_Pvariable(config[CONF_ID])
    await cg.register_component(var, config)
    cg.add_define("USE_API_HOMEASSISTANT_STATES")
    cg.add_define("USE_API_HOMEASSISTANT_SERVICES")

    cg.add(var.set_entity_id(config[CONF_ENTITY_ID]))
    cg.add(var.set_display(await cg.get_variable(config[CONF_DISPLAY])))
    small = await cg.get_variable(config[CONF_FONT_SMALL])
    large = await cg.get_variable(config[CONF_FONT_LARGE])
    huge = await cg.get_variable(config[CONF_FONT_HUGE]) if CONF_FONT_HUGE in config else large
    cg.add(var.set_fonts(small, large, huge))
    cg.add(var.set_volume_step(config[CONF_VOLUME_STEP]))
    cg.add(var.set_max_volume(config[CONF_MAX_VOLUME]))
    cg.add(var.set_send_interval(config[CONF_SEND_INTERVAL].total_milliseconds))
    cg.add(var.set_settle_time(config[CONF_SETTLE_TIME].total_milliseconds))
    cg.add(var.set_dim_after(config[CONF_DIM_AFTER].total_milliseconds))
    cg.add(var.set_sleep_after(config[CONF_SLEEP_AFTER].total_milliseconds))
    pages = [PAGES[p] for p in config[CONF_PAGES]]
    cg.add(var.set_pages(cg.std_vector.template(cg.uint8)(pages)))

    if CONF_DEEP_SLEEP_ID in config:
        cg.add_define("USE_LINN_REMOTE_DEEP_SLEEP")
        cg.add(var.set_deep_sleep(await cg.get_variable(config[CONF_DEEP_SLEEP_ID])))
    for pin_conf in config.get(CONF_WAKE_PINS, []):
        cg.add(var.add_wake_pin(await cg.gpio_pin_expression(pin_conf)))

    for key, adder in (
        (CONF_ON_DIM, var.add_dim_trigger),
        (CONF_ON_WAKE, var.add_wake_trigger),
        (CONF_ON_SLEEP, var.add_sleep_trigger),
    ):
        for conf in config.get(key, []):
            trigger = cg.new_Pvariable(conf[CONF_TRIGGER_ID])
            cg.add(adder(trigger))
            await automation.build_automation(trigger, [], conf)


@automation.register_action(
    "linn_remote.turn",
    TurnAction,
    cv.Schema(
        {
            cv.GenerateID(): cv.use_id(LinnRemote),
            cv.Required(CONF_STEPS): cv.templatable(cv.int_range(min=-100, max=100)),
        }
    ),
    synchronous=True,
)
async def turn_to_code(config, action_id, template_arg, args):
    var = cg.new_Pvariable(action_id, template_arg)
    await cg.register_parented(var, config[CONF_ID])
    steps = await cg.templatable(config[CONF_STEPS], args, cg.int_)
    cg.add(var.set_steps(steps))
    return var


@automation.register_action(
    "linn_remote.press",
    PressAction,
    cv.Schema(
        {
            cv.GenerateID(): cv.use_id(LinnRemote),
            cv.Required(CONF_BUTTON): cv.one_of(*BUTTONS, lower=True),
        }
    ),
    synchronous=True,
)
async def press_to_code(config, action_id, template_arg, args):
    var = cg.new_Pvariable(action_id, template_arg)
    await cg.register_parented(var, config[CONF_ID])
    cg.add(var.set_button(BUTTONS[config[CONF_BUTTON]]))
    return var
