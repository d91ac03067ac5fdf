"""UPnP data types of out-arguments that are not strings (the OpenHome service XML).

In-arguments carry their type in the service's own declaration; out-arguments are plain
strings there, so the types a client converts them by are listed here. Anything not
listed is a `string`.
"""

from __future__ import annotations

from ..services.base import ArgType

B = ArgType.BOOL
U = ArgType.UINT
I = ArgType.INT  # noqa: E741 - one letter per type keeps the table readable
BIN = ArgType.BINARY

OUT_TYPES: dict[tuple[str, str], dict[str, ArgType]] = {
    ("Product", "Standby"): {"Value": B},
    ("Product", "StandbyTransitioning"): {"Value": B},
    ("Product", "SourceCount"): {"Value": U},
    ("Product", "SourceIndex"): {"Value": U},
    ("Product", "Source"): {"Visible": B},
    ("Product", "SourceXmlChangeCount"): {"Value": U},
    ("Volume", "Characteristics"): {
        "VolumeMax": U,
        "VolumeUnity": U,
        "VolumeSteps": U,
        "VolumeMilliDbPerStep": U,
        "BalanceMax": U,
        "FadeMax": U,
    },
    ("Volume", "Volume"): {"Value": U},
    ("Volume", "Mute"): {"Value": B},
    ("Volume", "VolumeLimit"): {"Value": U},
    ("Volume", "UnityGain"): {"Value": B},
    ("Volume", "Balance"): {"Value": I},
    ("Volume", "Fade"): {"Value": I},
    ("Transport", "ModeInfo"): {
        "CanSkipNext": B,
        "CanSkipPrevious": B,
        "CanRepeat": B,
        "CanShuffle": B,
    },
    ("Transport", "StreamInfo"): {"StreamId": U, "CanSeek": B, "CanPause": B},
    ("Transport", "StreamId"): {"StreamId": U},
    ("Transport", "Repeat"): {"Repeat": B},
    ("Transport", "Shuffle"): {"Shuffle": B},
    ("Playlist", "Repeat"): {"Value": B},
    ("Playlist", "Shuffle"): {"Value": B},
    ("Playlist", "Id"): {"Value": U},
    ("Playlist", "Insert"): {"NewId": U},
    ("Playlist", "TracksMax"): {"Value": U},
    ("Playlist", "IdArray"): {"Token": U, "Array": BIN},
    ("Playlist", "IdArrayChanged"): {"Value": B},
    ("Radio", "Id"): {"Value": U},
    ("Radio", "IdArray"): {"Token": U, "Array": BIN},
    ("Radio", "IdArrayChanged"): {"Value": B},
    ("Radio", "ChannelsMax"): {"Value": U},
    ("Info", "Counters"): {"TrackCount": U, "DetailsCount": U, "MetatextCount": U},
    ("Info", "Details"): {
        "Duration": U,
        "BitRate": U,
        "BitDepth": U,
        "SampleRate": U,
        "Lossless": B,
    },
    ("Time", "Time"): {"TrackCount": U, "Duration": U, "Seconds": U},
    ("Pins", "GetDeviceMax"): {"DeviceMax": U},
    ("Pins", "GetAccountMax"): {"AccountMax": U},
    ("Pins", "GetCloudConnected"): {"CloudConnected": B},
    ("Sender", "Audio"): {"Value": B},
    ("Config", "HasKey"): {"Value": B},
}


def out_type(service: str, action: str, argument: str) -> ArgType:
    """The UPnP data type of one out-argument."""
    return OUT_TYPES.get((service, action), {}).get(argument, ArgType.STRING)
