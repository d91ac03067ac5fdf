"""Linn Update SoftwareStatus parsing."""

import json

from custom_components.linn.lpec.software import EMPTY_SOFTWARE_STATUS, parse_software_status

AVAILABLE = {
    "status": "update_available",
    "current_software": {"version": "4.137.1020"},
    "update_info": {
        "releasenotesuri": "http://docs.linn.co.uk/wiki/index.php/ReleaseNotes",
        "updates": [{"version": "4.141.1102", "description": "Release build 4.141.1102"}],
    },
}


def test_update_available() -> None:
    status = parse_software_status(json.dumps(AVAILABLE))
    assert status.current_version == "4.137.1020"
    assert status.latest_version == "4.141.1102"
    assert status.summary == "Release build 4.141.1102"
    assert status.release_notes_url == "http://docs.linn.co.uk/wiki/index.php/ReleaseNotes"


def test_on_latest_reports_the_current_version_as_latest() -> None:
    on_latest = {**AVAILABLE, "status": "on_latest"}
    status = parse_software_status(json.dumps(on_latest))
    assert status.latest_version == status.current_version == "4.137.1020"
    assert status.summary is None


def test_malformed_is_empty_not_an_error() -> None:
    for value in ("", "{not json", "[]", '{"current_software": 7, "update_info": "x"}'):
        parsed = parse_software_status(value)
        assert parsed.current_version is None
        assert parsed.latest_version is None
    assert parse_software_status("{oops") == EMPTY_SOFTWARE_STATUS
