"""Import boundaries.

The packages' boundaries are checked at import time (ruff's TID251 rules check them
statically): each package is imported, with every submodule, in a fresh interpreter, which then
reports the modules it loaded that the package must not depend on. That no module imports a
test module or a conftest.py, that a conftest.py defines only fixtures and pytest hooks, that
the integration imports no test double or benchmark and that no script, benchmark or testing/
module imports tests/ are checked in the source.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
import json
from pathlib import Path
import subprocess
import sys

import pytest

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import importlib, json, pkgutil, sys
sys.path.insert(0, {path!r})
package = importlib.import_module({package!r})
for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
    importlib.import_module(module.name)
print(json.dumps(sorted(
    name for name in sys.modules if name.partition(".")[0] in {banned!r}
)))
"""


def loaded_modules(package: str, path: Path, banned: set[str]) -> list[str]:
    """Modules from `banned` top-level packages loaded by importing all of `package`."""
    code = PROBE.format(path=str(path), package=package, banned=sorted(banned))
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    loaded: list[str] = json.loads(result.stdout)
    return loaded


@pytest.mark.parametrize(
    ("package", "path", "banned"),
    [
        # The emulator: no Home Assistant, nothing of the integration it is a test double for.
        ("linn_emulator", ROOT, {"homeassistant", "custom_components"}),
        # lpec as a top-level package: importing it through custom_components.linn would run
        # the integration's __init__ (which imports Home Assistant) before lpec itself.
        ("lpec", ROOT / "custom_components" / "linn", {"homeassistant", "custom_components"}),
    ],
)
def test_package_imports_nothing_it_must_not(package: str, path: Path, banned: set[str]) -> None:
    assert loaded_modules(package, path, banned) == []


TEST_TREES = ("tests", "testing", "scripts", "benchmarks", "esphome_configs")
"""Where tests, their helpers and the scripts and benchmarks that reuse them live."""


def _imports(path: Path) -> Iterator[tuple[int, list[str]]]:
    """Per import statement: its line and the dotted names it reaches (module and names).

    Relative imports are resolved against the file's own package, so `.test_x` in tests/ha
    reads as `tests.ha.test_x`.
    """
    package = path.relative_to(ROOT).parent.parts
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield node.lineno, [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else ()
            module = ".".join((*base, *(node.module.split(".") if node.module else ())))
            yield node.lineno, [module, *(f"{module}.{alias.name}" for alias in node.names)]


def _python_files(top: str) -> Iterator[Path]:
    """The Python files under a top-level directory, without hidden and node_modules trees."""
    for path in sorted((ROOT / top).rglob("*.py")):
        if not any(p.startswith(".") or p == "node_modules" for p in path.relative_to(ROOT).parts):
            yield path


def _imports_from(tops: tuple[str, ...], banned: set[str]) -> list[str]:
    """Every import under the `tops` directories that reaches a `banned` top-level package."""
    found = []
    for top in tops:
        for path in _python_files(top):
            for line, names in _imports(path):
                reached = [name for name in names if name.partition(".")[0] in banned]
                if reached:
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {reached[0]}")
    return found


def test_integration_imports_no_test_double() -> None:
    """The integration (what HACS ships) imports no emulator, testing/, benchmarks/ or test.

    Checked in the source, so an import inside a function counts too (ruff's TID251 in
    custom_components/ruff.toml says the same while editing).
    """
    found = _imports_from(
        ("custom_components",), {"linn_emulator", "testing", "benchmarks", "tests"}
    )
    assert found == [], "\n".join(found)


def test_scripts_and_testing_do_not_import_tests() -> None:
    """Scripts, benchmarks and the shared test doubles import testing/, never tests/.

    What a script or a benchmark shares with the tests lives in testing/; tests/ holds tests,
    their fixtures and helpers that only tests use (issue 21).
    """
    found = _imports_from(("scripts", "benchmarks", "testing"), {"tests"})
    assert found == [], "\n".join(found)


def test_the_guards_policy_core_imports_no_home_assistant_or_sdk() -> None:
    """guard/ decides from plain data: no Home Assistant, no LLM SDK, no HTTP client.

    Relative imports count by what they reach: `..llm` from guard/ is the integration's
    Home Assistant module, so the guard imports nothing above guard/ either. Its Home
    Assistant glue lives in tools/ (issue 21); ruff's TID251 in guard/ruff.toml bans the same
    packages while editing.
    """
    guard = ROOT / "custom_components" / "linn" / "guard"
    banned = {"homeassistant", "anthropic", "aiohttp", "httpx", "voluptuous"}
    found = []
    for path in sorted(guard.rglob("*.py")):
        for line, names in _imports(path):
            module = names[0]
            inside = module == "custom_components.linn.guard" or module.startswith(
                "custom_components.linn.guard."
            )
            outside = module.startswith("custom_components.linn.") and not inside
            if module.partition(".")[0] in banned or outside:
                found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert found == [], "\n".join(found)


INTEGRATION = ROOT / "custom_components" / "linn"
AGENT = "custom_components.linn.agent"
AGENT_ENTRY_POINTS: dict[str, set[str] | None] = {
    "__init__.py": None,
    "config_flow.py": {f"{AGENT}.config_flow"},
    "conversation.py": {f"{AGENT}.entity", f"{AGENT}.runtime"},
    "diagnostics.py": {f"{AGENT}.diagnostics", f"{AGENT}.runtime"},
}
"""The modules outside agent/ that may import it, and what of it (None: anything).

`__init__.py` is the wiring: it sets up an assistant entry and hands the agent's parts (its
action, its settings lookup for the guard) to the rest. The others are the Home Assistant
platforms it loads by name, whose job for an assistant entry is to hand over to the agent's
own module: its options flow, its conversation entity, its diagnostics.
"""


def _agent_modules(names: list[str]) -> list[str]:
    """The modules of agent/ an import statement reaches (`from .agent.x import Y`: agent.x)."""
    module, *imported = names
    if module.startswith(f"{AGENT}."):
        return [module]
    if module == AGENT:
        return imported or [module]
    return [name for name in imported if name == AGENT or name.startswith(f"{AGENT}.")]


def test_only_the_wiring_and_the_platforms_import_the_agent() -> None:
    """Nothing of the integration outside agent/ imports it, but the wiring and the entry points.

    The agent depends on the guard, the tools and the integration's helpers, never the
    reverse (issue 21): player/, the actions, approvals/, tools/ and the guard work without
    it, and what they need of it is handed to them by `__init__.py`. Checked in the source,
    so an import inside a function or under TYPE_CHECKING counts too.
    """
    found = []
    for path in sorted(INTEGRATION.rglob("*.py")):
        relative = path.relative_to(INTEGRATION)
        if relative.parts[0] == "agent":
            continue
        allowed = AGENT_ENTRY_POINTS.get(relative.as_posix(), set())
        if allowed is None:
            continue
        for line, names in _imports(path):
            found.extend(
                f"{path.relative_to(ROOT)}:{line} imports {module}"
                for module in _agent_modules(names)
                if module not in allowed
            )
    assert found == [], "\n".join(found)


PLAYER = INTEGRATION / "player"
PLAYER_MAY_IMPORT = {"const", "helpers", "entity", "lpec", "guard", "player"}
"""What of the integration player/ may import: the shared pieces below it and itself."""


def _integration_modules(names: list[str]) -> list[str]:
    """The integration's modules an import statement reaches, as their first part below
    custom_components.linn (`from ..lpec.model import X`: lpec; `from .. import X`: X)."""
    module, *imported = names
    top = "custom_components.linn"
    if module == top:
        return [name.removeprefix(f"{top}.").partition(".")[0] for name in imported]
    if module.startswith(f"{top}."):
        return [module.removeprefix(f"{top}.").partition(".")[0]]
    return []


def test_the_player_package_imports_only_what_is_below_it() -> None:
    """player/ (the media player's helpers) imports the shared pieces, never what uses it.

    `media_player.py`, `__init__.py` and tools/ import player/; player/ imports none of them,
    nor agent/, approvals/, the other platforms or the actions: only `const`, `helpers`,
    `entity`, the LPEC library, the guard and itself (issue 21). Checked in the source, so an
    import inside a function or under TYPE_CHECKING counts too.
    """
    found = [
        f"{path.relative_to(ROOT)}:{line} imports custom_components.linn.{module}"
        for path in sorted(PLAYER.rglob("*.py"))
        for line, names in _imports(path)
        for module in _integration_modules(names)
        if module not in PLAYER_MAY_IMPORT
    ]
    assert found == [], "\n".join(found)


def _names_a_test_module(dotted: str) -> bool:
    """Whether a part of the name is one pytest collects as a test module (its default
    python_files: test_*.py and *_test.py)."""
    return any(part.startswith("test_") or part.endswith("_test") for part in dotted.split("."))


def test_no_module_imports_a_test_module() -> None:
    """Shared helpers live in conftest.py fixtures or helper modules, never in a test module.

    A test module brings its tests and fixtures along: an imported test runs twice, an imported
    autouse fixture applies to the importer, and one file's tests depend on another's (issue 7).
    """
    found = []
    for top in TEST_TREES:
        for path in _python_files(top):
            for line, names in _imports(path):
                test_modules = [name for name in names if _names_a_test_module(name)]
                if test_modules:
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {test_modules[0]}")
    assert found == [], "\n".join(found)


def _conftests() -> Iterator[Path]:
    """Every conftest.py of the test trees."""
    for top in TEST_TREES:
        for path in _python_files(top):
            if path.name == "conftest.py":
                yield path


def test_no_module_imports_a_conftest() -> None:
    """conftest.py is pytest's to load: its fixtures reach tests by name, never by import.

    A name imported from a conftest.py is a second copy of it (pytest loads the file under its
    own module name) and ties the importer to that directory's fixtures; what a test imports
    lives in a helper module beside it (issue 21). esphome_configs/tests has no package, so
    `from conftest import X` reaches it by its bare name: that counts too.
    """
    found = []
    for top in TEST_TREES:
        for path in _python_files(top):
            for line, names in _imports(path):
                conftests = [name for name in names if "conftest" in name.split(".")]
                if conftests:
                    found.append(f"{path.relative_to(ROOT)}:{line} imports {conftests[0]}")
    assert found == [], "\n".join(found)


def _is_fixture(decorator: ast.expr) -> bool:
    """Whether a decorator is pytest's fixture (`@pytest.fixture`, `@pytest.fixture(...)`,
    `@fixture`) or a hook implementation (`@pytest.hookimpl(...)`)."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in {"fixture", "hookimpl"}


def _public_names(node: ast.stmt) -> list[str]:
    """The public names a top-level statement of a conftest.py defines that are neither a
    fixture nor a pytest hook (imports do not count: conftest.py may import fixtures)."""
    if isinstance(node, ast.ClassDef):
        names = [node.name]
    elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        if node.name.startswith("pytest_") or any(map(_is_fixture, node.decorator_list)):
            return []
        names = [node.name]
    elif isinstance(node, ast.Assign):
        names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    elif isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
        names = [node.target.id]
    elif isinstance(node, ast.TypeAlias):
        names = [node.name.id]
    else:
        return []
    return [name for name in names if not name.startswith("_")]


def test_conftest_holds_fixtures_only() -> None:
    """A conftest.py defines fixtures and pytest hooks; constants, classes and helper functions
    that tests use live in helper modules beside it (issue 21). Private helpers of its own
    fixtures (`_name`) may stay."""
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno} defines {name}"
        for path in _conftests()
        for node in ast.parse(path.read_text(), filename=str(path)).body
        for name in _public_names(node)
    ]
    assert found == [], "\n".join(found)
