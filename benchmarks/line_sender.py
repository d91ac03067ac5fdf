"""Another process that writes LPEC volume event lines into sockets at a fixed rate.

What the floors of issue 31 are fed with (benchmarks/wakeup.py, benchmarks/push_floor.py):
every tick, `batch` lines into every socket, all sockets in the same tick (as
benchmarks/devices.py changes every streamer's volume at once).
"""

from __future__ import annotations

import socket
import subprocess
import sys

_SCRIPT = """
import socket, sys, time
rate, batch = float(sys.argv[1]), int(sys.argv[2])
socks = [socket.socket(fileno=int(fd)) for fd in sys.argv[3:]]
n, t = 0, time.monotonic()
while True:
    n += 1
    line = (b'EVENT 1 %d Volume "%d"\\r\\n' % (n, 20 + n % 40)) * batch
    try:
        for sock in socks:
            sock.sendall(line)
    except OSError:
        break
    t += 1 / rate
    time.sleep(max(0.0, t - time.monotonic()))
"""


def start_sender(
    rate: float, batch: int, count: int
) -> tuple[subprocess.Popen[bytes], list[socket.socket]]:
    """The sending process and this process's ends of its `count` sockets."""
    pairs = [socket.socketpair() for _ in range(count)]
    theirs = [pair[1].fileno() for pair in pairs]
    sender = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT, str(rate), str(batch), *map(str, theirs)],
        pass_fds=theirs,
    )
    for _ours, their in pairs:
        their.close()
    return sender, [ours for ours, _their in pairs]


def stop_sender(sender: subprocess.Popen[bytes]) -> None:
    """End the sending process."""
    sender.kill()
    sender.wait()
