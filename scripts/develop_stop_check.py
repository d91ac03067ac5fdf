"""scripts/develop stops everything it started, in every way a person ends it.

Runs the real scripts/develop (Home Assistant, the emulator, the stand-in model) in a
pseudo-terminal, as a person does, with a throw-away config dir (LINN_DEVELOP_DIR) and free ports,
waits until it says it is ready, records every process under it, then ends it one way:

    ctrl-c   ^C typed into the terminal
    sigterm  `kill PID`
    sighup   the terminal closes
    pipe     its output pipe closes (`scripts/develop | tee log`, and tee ends)

and fails unless scripts/develop exits, every recorded process is gone and every port is free.
The config dir is shared by the cases in one run: the first start writes the configuration and
onboards, as on a person's first run. After each case it also fails on a repair the project
causes (anything but the ones Home Assistant raises on every such instance, HA_OWN_REPAIRS) and
on a warning or error of the integration's in Home Assistant's log (ha_log_check.py --ours): a
first run greets nobody with warnings. It runs on the host's python3 (scripts/test), outside
the toolchain: no repository imports.

    python3 scripts/develop_stop_check.py [CASE...]
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
import pty
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

REPO = Path(__file__).resolve().parent.parent
CASES = ("ctrl-c", "sigterm", "sighup", "pipe")
READY = b"Ctrl-C stops them all."
START_SECONDS = 600.0
"""Failure bound for one start (the first also onboards); never a condition for passing."""
STOP_SECONDS = 60.0
"""Failure bound for everything to be gone once develop was told to stop."""
HA_OWN_REPAIRS = {
    # Home Assistant deprecates running it as "Core" (from a Python environment, which is what
    # scripts/develop does, not in its OS or container) and says so on every such instance.
    ("homeassistant", "deprecated_method"),
}
HA_OWN_REPAIR_DOMAINS = {
    # Home Assistant's news about its own version (alerts.home-assistant.io, when online).
    "homeassistant_alerts",
}


class Failed(Exception):
    """A case failed; the message says how."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def descendants(root: int) -> dict[int, str]:
    """Every process under `root` (by parent links in /proc), with its command line."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # ended meanwhile
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in found:
                found[pid] = command_line(pid)
                todo.append(pid)
    return found


def command_line(pid: int) -> str:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "?"
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:120]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its parent counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


class Output:
    """Everything read from one file descriptor, in a thread; `until` waits for a marker."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = bytearray()
        self.changed = threading.Condition()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            while not self._closing.is_set():
                if not select.select([self.fd], [], [], 0.1)[0]:
                    continue
                try:
                    chunk = os.read(self.fd, 65536)
                except OSError:
                    chunk = b""  # EIO: the terminal's other side is gone
                with self.changed:
                    self.data += chunk
                    self.changed.notify_all()
                if not chunk:
                    self._closing.wait()
        finally:
            # Closed here, not while a read may still hold it: a file descriptor closed under a
            # blocked read stays open until the read returns (the terminal would not hang up).
            os.close(self.fd)

    def close(self) -> None:
        """Stop reading and close the descriptor (the pipe's reader or the terminal is gone)."""
        self._closing.set()
        self._thread.join()

    def until(self, marker: bytes, process: subprocess.Popen[bytes], seconds: float) -> None:
        deadline = time.monotonic() + seconds
        with self.changed:
            while marker not in self.data:
                if process.poll() is not None:
                    code = process.returncode
                    raise Failed(f"scripts/develop exited ({code}) before it was ready")
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failed(f"scripts/develop did not say it was ready in {seconds:.0f}s")
                self.changed.wait(min(left, 1.0))

    def text(self) -> str:
        return self.data.decode(errors="replace")


def terminal_session() -> None:
    """In the child: a new session whose controlling terminal is stdin (the pseudo-terminal)."""
    os.setsid()
    import fcntl  # noqa: PLC0415
    import termios  # noqa: PLC0415

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def end(case: str, process: subprocess.Popen[bytes], terminal: Output, output: Output) -> None:
    """End scripts/develop the way `case` says."""
    if case == "ctrl-c":
        os.write(terminal.fd, b"\x03")
    elif case == "sigterm":
        process.send_signal(signal.SIGTERM)
    elif case == "sighup":
        terminal.close()  # the terminal window closes: the kernel hangs up its session
    elif case == "pipe":
        output.close()  # `| tee log`, and tee ends


def check_all_gone(
    case: str, process: subprocess.Popen[bytes], tree: dict[int, str], ports: dict[str, int]
) -> None:
    """scripts/develop exits, then nothing it started runs and no port is taken."""
    told = time.monotonic()
    try:
        process.wait(timeout=STOP_SECONDS)
    except subprocess.TimeoutExpired:
        raise Failed(f"scripts/develop still runs {STOP_SECONDS:.0f}s after {case}") from None
    deadline = told + STOP_SECONDS
    while (left := [pid for pid in tree if alive(pid)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    if left:
        running = "; ".join(f"{pid} {tree[pid]}" for pid in left)
        raise Failed(f"still running after scripts/develop exited: {running}")
    busy = {name: port for name, port in ports.items() if not port_is_free(port)}
    if busy:
        raise Failed(f"ports still in use after scripts/develop exited: {busy}")


def check_session(work: Path) -> None:
    """No repair the project causes, no warning of ours in the log (written as HA stopped)."""
    registry = work / "config" / ".storage" / "repairs.issue_registry"
    try:
        issues = json.loads(registry.read_text())["data"]["issues"]
    except (OSError, ValueError, KeyError) as error:
        raise Failed(f"no repairs registry to check ({registry.name}): {error}") from None
    ours = sorted(
        f"{issue['domain']}.{issue['issue_id']}"
        for issue in issues
        if (issue["domain"], issue["issue_id"]) not in HA_OWN_REPAIRS
        and issue["domain"] not in HA_OWN_REPAIR_DOMAINS
    )
    if ours:
        raise Failed(f"repairs Home Assistant does not raise by itself: {', '.join(ours)}")
    log_check = REPO / "scripts" / "ha_log_check.py"
    checked = subprocess.run(
        [sys.executable, log_check, "--ours", work / "home-assistant.log"],
        capture_output=True,
        text=True,
        check=False,
    )
    if checked.returncode != 0:
        raise Failed(f"warnings of ours in home-assistant.log:\n{checked.stderr.strip()}")


def run_case(case: str, env: dict[str, str], ports: dict[str, int], work: Path) -> str:
    """Start scripts/develop, end it as `case` says, check nothing is left; a summary."""
    master, slave = pty.openpty()
    pipe_read = pipe_write = -1
    if case == "pipe":
        pipe_read, pipe_write = os.pipe()
    started = time.monotonic()
    process = subprocess.Popen(
        [str(REPO / "scripts" / "develop")],
        cwd=REPO,
        env=env,
        stdin=slave,
        stdout=pipe_write if case == "pipe" else slave,
        stderr=slave,
        preexec_fn=terminal_session,  # noqa: PLW1509 (the child calls only setsid and ioctl)
    )
    os.close(slave)
    if pipe_write != -1:
        os.close(pipe_write)
    terminal = Output(master)
    output = Output(pipe_read) if case == "pipe" else terminal
    tree: dict[int, str] = {}
    try:
        output.until(READY, process, START_SECONDS)
        ready_after = time.monotonic() - started
        tree = descendants(process.pid)
        told = time.monotonic()
        end(case, process, terminal, output)
        check_all_gone(case, process, tree, ports)
        check_session(work)
    except Failed:
        tail = terminal.text()[-3000:]
        sys.stderr.write(f"--- scripts/develop's terminal ({case}) ---\n{tail}\n")
        raise
    finally:
        # Never leave what this test started behind: the recorded processes, by their ids.
        leftovers = [pid for pid in {**tree, **descendants(process.pid)} if alive(pid)]
        if process.poll() is None:
            leftovers.append(process.pid)
        for pid in leftovers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        process.wait()
        terminal.close()
        output.close()
    return (
        f"{case}: ready after {ready_after:.0f}s; exit {process.returncode}; "
        f"{len(tree)} processes gone and {len(ports)} ports free "
        f"{time.monotonic() - told:.1f}s after"
    )


def main(argv: list[str]) -> int:
    cases = argv[1:] or list(CASES)
    unknown = set(cases) - set(CASES)
    if unknown:
        print(__doc__, file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix=".develop-stop.", dir=REPO))  # visible in rootfs mode
    ports = {
        "HA_PORT": free_port(),
        "EMULATOR_PORT": free_port(),
        "ARTWORK_PORT": free_port(),
        "STANDIN_PORT": free_port(),
    }
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env.update({name: str(port) for name, port in ports.items()})
    env["LINN_DEVELOP_DIR"] = str(work.relative_to(REPO))
    # No configuration.yaml here: scripts/develop writes its own, as on a person's first run.
    failures = 0
    try:
        for case in cases:
            try:
                print(run_case(case, env, ports, work), flush=True)
            except Failed as failure:
                print(f"FAILED {case}: {failure}", flush=True)
                failures += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
