"""A failing C++ model test turns the model-test step of scripts/test-esphome red.

The step once piped the test binary into `grep -v "^PASS"` without `pipefail`: grep matched the
summary line and exited 0, so a failing case passed CI. This turns on a deliberately failing case
and expects the runner to go red and say which case failed.
"""

import os
import subprocess

from esphome_cli import CONFIG_DIR

RUNNER = CONFIG_DIR / "tests" / "cpp" / "run-model-tests"


def test_a_failing_model_test_fails_the_run() -> None:
    res = subprocess.run(
        [str(RUNNER)],
        env=os.environ | {"LINN_MODEL_TESTS_INJECT_FAILURE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    out = res.stdout + res.stderr
    assert "FAIL injected_failure" in res.stdout, out
    assert ", 1 failed" in res.stdout, out
    assert res.returncode != 0, out
