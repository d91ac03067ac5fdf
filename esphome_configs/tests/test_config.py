"""Config validation and code generation of the linn_remote component.

Every invalid configuration must fail `esphome config` with its own message; the valid ones
(including the real device and simulator YAMLs) must pass and generate the expected C++.
"""

from concurrent.futures import ThreadPoolExecutor
import copy
import importlib
from pathlib import Path
import subprocess
from typing import Any

from esphome import loader
import esphome.config_validation as cv
from esphome_cli import CONFIG_DIR, run_esphome
import pytest
import yaml


def _base_host(cfg_dir: Path) -> dict[str, Any]:
    return {
        "esphome": {"name": "cfgtest"},
        "host": {},
        "api": {},
        "external_components": [
            {
                "source": {"type": "local", "path": str(cfg_dir / "components")},
                "components": ["linn_remote"],
            }
        ],
        "display": [{"platform": "snapshot", "id": "screen", "dimensions": "128x64"}],
        "font": [
            {"file": str(cfg_dir / "fonts" / "DejaVuSans.ttf"), "id": "f_small", "size": 10},
            {"file": str(cfg_dir / "fonts" / "DejaVuSans.ttf"), "id": "f_large", "size": 14},
        ],
        "linn_remote": {
            "id": "remote",
            "entity_id": "media_player.linn",
            "display": "screen",
            "font_small": "f_small",
            "font_large": "f_large",
        },
    }


def _base_c6(cfg_dir: Path) -> dict[str, Any]:
    base = _base_host(cfg_dir)
    del base["host"]
    base["esp32"] = {"board": "esp32-c6-devkitc-1", "framework": {"type": "esp-idf"}}
    base["wifi"] = {"ssid": "test", "password": "test-password"}
    base["i2c"] = {"sda": "GPIO22", "scl": "GPIO23"}
    base["display"] = [{"platform": "ssd1306_i2c", "id": "screen", "model": "SH1106 128x64"}]
    base["deep_sleep"] = {"id": "ds"}
    base["linn_remote"]["deep_sleep_id"] = "ds"
    return base


def _remote(**kw: Any) -> dict[str, Any]:
    return {"linn_remote": kw}


# name -> (base, changes to linn_remote (None deletes a key) or top-level edits, expected message)
INVALID: dict[str, tuple[str, dict[str, Any], str]] = {
    "entity_not_media_player": (
        "host",
        _remote(entity_id="light.kitchen"),
        "entity_id must be a media_player entity (media_player.<name>), got 'light.kitchen'",
    ),
    "entity_id_malformed": (
        "host",
        _remote(entity_id="linn"),
        "Entity ID must have exactly one dot in it",
    ),
    "volume_step_too_big": (
        "host",
        _remote(volume_step="15%"),
        "volume_step must be between 1% and 10%, got 15%",
    ),
    "volume_step_too_small": (
        "host",
        _remote(volume_step="0.5%"),
        "volume_step must be between 1% and 10%, got 0.5%",
    ),
    "volume_step_above_max_volume": (
        "host",
        _remote(volume_step="5%", max_volume="4%"),
        "volume_step must not exceed max_volume",
    ),
    "unknown_page": (
        "host",
        _remote(pages=["now_playing", "lyrics"]),
        "Unknown value 'lyrics', valid options are 'now_playing', 'volume', 'sources'",
    ),
    "empty_pages": ("host", _remote(pages=[]), "pages must list at least one page"),
    "duplicate_page": (
        "host",
        _remote(pages=["volume", "now_playing", "volume"]),
        "page 'volume' is listed twice in pages",
    ),
    "dim_not_before_sleep": (
        "host",
        _remote(dim_after="60s", sleep_after="30s"),
        "dim_after (60s) must be shorter than sleep_after (30s)",
    ),
    "dim_after_too_short": ("host", _remote(dim_after="500ms"), "dim_after must be at least 1s"),
    "send_interval_out_of_range": (
        "host",
        _remote(send_interval="10ms"),
        "send_interval must be between 50ms and 2s",
    ),
    "wake_pin_not_lp_gpio": (
        "c6",
        _remote(wake_pins=["GPIO9"]),
        "wake pin GPIO9 cannot wake the ESP32-C6 from deep sleep: use GPIO0-GPIO7",
    ),
    "wake_pins_without_deep_sleep": (
        "c6",
        _remote(wake_pins=["GPIO2"], deep_sleep_id=None),
        "wake_pins only make sense with deep_sleep_id",
    ),
    "typo_in_key": (
        "host",
        _remote(entity_id=None, entityid="media_player.linn"),
        "Did you mean [entity_id]?",
    ),
    "unknown_display": ("host", _remote(display="oled"), "Couldn't find ID 'oled'"),
    "missing_api": ("host", {"api": None}, "Component linn_remote requires component api"),
}

VALID: dict[str, tuple[str, dict[str, Any]]] = {
    "host_defaults": ("host", {}),
    "c6_wake_pins": (
        "c6",
        _remote(
            wake_pins=[{"number": "GPIO2", "inverted": True}, "GPIO7"],
            volume_step="10%",
            max_volume="70%",
            pages=["volume"],
            dim_after="5s",
            sleep_after="10s",
        ),
    ),
    "host_one_percent_steps": ("host", _remote(volume_step="1%", pages=["sources"])),
}


def _build(cfg_dir: Path, base: str, edits: dict[str, Any]) -> dict[str, Any]:
    conf = _base_host(cfg_dir) if base == "host" else _base_c6(cfg_dir)
    conf = copy.deepcopy(conf)
    for key, value in edits.items():
        if key == "linn_remote":
            for k, v in value.items():
                if v is None:
                    conf["linn_remote"].pop(k, None)
                else:
                    conf["linn_remote"][k] = v
        elif value is None:
            conf.pop(key, None)
        else:
            conf[key] = value
    return conf


@pytest.fixture(scope="module")
def results(
    config_copy: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, subprocess.CompletedProcess[str]]:
    """Run `esphome config` on every case, two at a time (about 0.6 s each)."""
    work = tmp_path_factory.mktemp("cases")
    cases = {n: (b, e) for n, (b, e, _) in INVALID.items()} | VALID
    paths = {}
    for name, (base, edits) in cases.items():
        path = work / f"{name}.yaml"
        path.write_text(yaml.safe_dump(_build(config_copy, base, edits), sort_keys=False))
        paths[name] = path
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {n: pool.submit(run_esphome, "config", str(p)) for n, p in paths.items()}
        return {n: f.result() for n, f in futures.items()}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_invalid_config_fails_with_its_message(
    name: str, results: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    res = results[name]
    out = res.stdout + res.stderr
    assert res.returncode != 0, out
    assert INVALID[name][2] in out, out
    # its own message: no other case's message shows up
    others = [m for n, (_, _, m) in INVALID.items() if n != name and m in out]
    assert not others, others


@pytest.mark.parametrize("name", sorted(VALID))
def test_valid_config_passes(
    name: str, results: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    res = results[name]
    assert res.returncode == 0, res.stdout + res.stderr
    assert "Configuration is valid!" in res.stdout + res.stderr


@pytest.mark.parametrize("yaml_name", ["linn-remote.yaml", "linn-remote-sim.yaml"])
def test_repository_yaml_is_valid(config_copy: Path, yaml_name: str) -> None:
    res = run_esphome("config", str(config_copy / yaml_name))
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    assert "Configuration is valid!" in out
    # the pin table avoids strapping and USB pins: ESPHome warns about neither
    warnings = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert not [w for w in warnings if "strapping" in w.lower() or "USB" in w], warnings


def test_strapping_pin_warning_is_detected(config_copy: Path, tmp_path: Path) -> None:
    """Control for the check above: a strapping pin does produce the warning."""
    conf = _build(config_copy, "c6", _remote(wake_pins=["GPIO4"]))
    path = tmp_path / "strapping.yaml"
    path.write_text(yaml.safe_dump(conf, sort_keys=False))
    res = run_esphome("config", str(path))
    out = res.stdout + res.stderr
    assert res.returncode == 0, out
    warnings = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert [w for w in warnings if "GPIO4" in w and "strapping" in w.lower()], warnings


def test_device_yaml_generates_component_setup(config_copy: Path) -> None:
    res = run_esphome("compile", "--only-generate", str(config_copy / "linn-remote.yaml"))
    assert res.returncode == 0, res.stdout + res.stderr
    main = (config_copy / ".esphome/build/linn-remote/src/main.cpp").read_text()
    for expected in (
        'remote->set_entity_id("media_player.linn");',
        "remote->set_volume_step(0.02f);",
        "remote->set_max_volume(0.8f);",
        "remote->set_send_interval(250);",
        "remote->set_dim_after(15000);",
        "remote->set_sleep_after(60000);",
        "remote->set_pages(std::vector<uint8_t>({0, 1, 2}));",
        "remote->set_deep_sleep(deep_sleep_ctl);",
        "remote->set_fonts(font_small, font_large, font_huge);",
        "remote->set_display(screen);",
    ):
        assert expected in main, expected
    assert main.count("remote->add_wake_pin(") == 5
    assert main.count("linn_remote::PressAction<>()") == 5
    assert main.count("linn_remote::TurnAction<>()") == 2
    defines = (config_copy / ".esphome/build/linn-remote/src/esphome/core/defines.h").read_text()
    for define in (
        "USE_API_HOMEASSISTANT_STATES",
        "USE_API_HOMEASSISTANT_SERVICES",
        "USE_LINN_REMOTE_DEEP_SLEEP",
    ):
        assert f"#define {define}" in defines, define
    copied = config_copy / ".esphome/build/linn-remote/src/esphome/components/linn_remote"
    assert (copied / "linn_remote_model.h").is_file()


# ---- in-process schema checks (no subprocess) ----


@pytest.fixture(scope="module")
def component() -> Any:
    loader.install_meta_finder(CONFIG_DIR / "components")
    return importlib.import_module("esphome.components.linn_remote")


def test_schema_defaults(component: Any) -> None:
    conf = component.CONFIG_SCHEMA(
        {
            "entity_id": "media_player.linn",
            "display": "screen",
            "font_small": "a",
            "font_large": "b",
        }
    )
    assert conf["volume_step"] == pytest.approx(0.02)
    assert conf["max_volume"] == pytest.approx(1.0)
    assert conf["pages"] == ["now_playing", "volume", "sources"]
    assert conf["send_interval"].total_milliseconds == 250
    assert conf["dim_after"].total_milliseconds == 15000
    assert conf["sleep_after"].total_milliseconds == 60000


@pytest.mark.parametrize(
    ("value", "expected"), [("1%", 0.01), ("10%", 0.10), ("5%", 0.05), (0.03, 0.03)]
)
def test_volume_step_accepts_1_to_10_percent(component: Any, value: Any, expected: float) -> None:
    assert component.volume_step(value) == pytest.approx(expected)


@pytest.mark.parametrize("value", ["0%", "11%", "50%", "abc"])
def test_volume_step_rejects(component: Any, value: str) -> None:
    with pytest.raises(cv.Invalid):
        component.volume_step(value)


def test_pages_case_insensitive(component: Any) -> None:
    assert component.page_list(["Now_Playing", "SOURCES"]) == ["now_playing", "sources"]
    assert component.page_list("volume") == ["volume"]


def test_config_dir_layout() -> None:
    """The files the README and the YAML promise are committed."""
    for rel in (
        "components/linn_remote/__init__.py",
        "components/linn_remote/linn_remote.h",
        "components/linn_remote/linn_remote.cpp",
        "components/linn_remote/linn_remote_model.h",
        "fonts/DejaVuSans.ttf",
        "fonts/DejaVu-LICENSE.txt",
        "secrets.yaml.example",
    ):
        assert (CONFIG_DIR / rel).is_file(), rel
    model = (CONFIG_DIR / "components/linn_remote/linn_remote_model.h").read_text()
    assert "esphome/" not in model  # the pure model has no ESPHome includes


def test_documented_git_source_is_accepted() -> None:
    """The README's external_components git form passes ESPHome's schema (cloning needs network)."""
    ext = importlib.import_module("esphome.components.external_components")
    conf = ext.CONFIG_SCHEMA(
        [
            {
                "source": {
                    "type": "git",
                    "url": "https://github.com/linn-for-home-assistant/linn-ha",
                    "ref": "main",
                    "path": "esphome_configs/components",
                },
                "components": ["linn_remote"],
            }
        ]
    )
    assert conf[0]["source"]["path"] == "esphome_configs/components"
    readme = (CONFIG_DIR / "README.md").read_text()
    assert "path: esphome_configs/components" in readme
    assert "Allow the device to perform Home Assistant actions" in " ".join(readme.split())
