"""The media player feature's helpers behind the `media_player.py` platform.

What a player shows (`state.py`), which guarded tool decides a play_media (`play_media.py`),
its Songcast group and joins (`grouping.py`), browsing and searching (`browse.py`) and the
play queue's search (`queue.py`). The tools in `tools/` use them too; nothing here imports
`agent/`, `tools/` or `approvals/` (tests/test_import_boundaries.py).
"""
