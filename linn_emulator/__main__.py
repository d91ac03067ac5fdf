"""Command line: run one or more emulated DSMs until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from .artwork import PATH_PREFIX, ArtworkServer, serve_covers_from
from .emulator import LinnEmulator, new_udn
from .quirks import parse_quirks
from .services import ALL_SERVICES


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command line options."""
    parser = argparse.ArgumentParser(
        prog="scripts/emulator",
        description=(
            "Emulated Linn DSMs speaking LPEC. With --count N, devices listen on "
            "consecutive ports from --port, each with its own UDN; rooms get a number "
            "suffix (Living Room, Living Room 2, ...). Ctrl-C stops."
        ),
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default %(default)s)")
    parser.add_argument(
        "--port", type=int, default=2323, help="first TCP port (default %(default)s)"
    )
    parser.add_argument("--count", type=int, default=1, help="number of devices (default 1)")
    parser.add_argument(
        "--udn",
        help="UDN of the first device (default: 4c494e4e-... derived from host and port, "
        "so it is the same on every run; random with --port 0)",
    )
    parser.add_argument("--room", default="Living Room", help="room name (default %(default)s)")
    parser.add_argument("--name", default="Selekt DSM", help="product name")
    parser.add_argument("--model", default="Selekt DSM", help="model name")
    parser.add_argument("--volume-limit", type=int, default=80, help="VolumeLimit (default 80)")
    parser.add_argument(
        "--tick", type=float, default=1.0, help="seconds per playback second (default 1.0)"
    )
    parser.add_argument("--max-sessions", type=int, default=4, help="session cap (default 4)")
    parser.add_argument(
        "--without",
        action="append",
        default=[],
        choices=sorted(ALL_SERVICES - {"Product"}),
        help="leave a service out (repeatable)",
    )
    parser.add_argument(
        "--artwork-port",
        type=int,
        help="serve generated cover art on this port and point every artwork URI at it "
        "(for demos without the real artwork hosts)",
    )
    parser.add_argument(
        "--upnp-port",
        type=int,
        help="also serve the OpenHome UPnP face (device description, SOAP) from this port "
        "(consecutive ports with --count; 0: any free port)",
    )
    parser.add_argument(
        "--quirks",
        type=parse_quirks,
        default="ohnet",
        help="firmware quirks: ohnet (default: as Linn's server code speaks), documented (as "
        "the LPEC wiki page says), or a comma-separated list (see linn_emulator/quirks.py)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    return parser.parse_args(argv)


def _udn(args: argparse.Namespace, index: int) -> str | None:
    if index == 0 and args.udn:
        return str(args.udn)
    if not args.port:
        return None
    return new_udn(f"linn-emulator:{args.host}:{args.port + index}")


def _upnp_port(args: argparse.Namespace, index: int) -> int | None:
    if args.upnp_port is None:
        return None
    return int(args.upnp_port) + index if args.upnp_port else 0


async def run(args: argparse.Namespace) -> None:
    """Start the devices, print where they are, wait for a signal, stop them."""
    services = ALL_SERVICES - set(args.without)
    artwork = ArtworkServer(args.host, args.artwork_port) if args.artwork_port else None
    # Before the devices exist: nothing they derive at construction may name the real hosts.
    serve_covers_from(artwork.base_url if artwork is not None else None)
    emulators = [
        LinnEmulator(
            host=args.host,
            port=args.port + index if args.port else 0,
            udn=_udn(args, index),
            room=args.room if index == 0 else f"{args.room} {index + 1}",
            name=args.name,
            model=args.model,
            services=services,
            volume_limit=args.volume_limit,
            tick_interval=args.tick,
            max_sessions=args.max_sessions,
            upnp_port=_upnp_port(args, index),
            quirks=args.quirks,
        )
        for index in range(args.count)
    ]
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    try:
        if artwork is not None:
            await artwork.start()
            print(f"artwork: {artwork.base_url}{PATH_PREFIX}", flush=True)
        for emu in emulators:
            await emu.start()
            upnp = f" {emu.upnp_location}" if emu.upnp_location else ""
            print(f"{emu.host}:{emu.port} {emu.udn} {emu.state.room!r}{upnp}", flush=True)
        await stop.wait()
    finally:
        failures: list[Exception] = []
        for emu in emulators:
            try:
                await emu.stop()
            except ExceptionGroup as group:
                failures.extend(group.exceptions)
        if artwork is not None:
            await artwork.stop()
        serve_covers_from(None)
        print("stopped", file=sys.stderr)
        if failures:
            raise ExceptionGroup("the emulator failed (see the log above)", failures)


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
