"""The snapshot's format read as it streams in (web/worker-snapshot.js's readSnapshot), under
Node: the memory, files and table that a stream cut into any pieces, or bytes given at once,
hold, and each way a spoiled one is refused (the restores in Chromium: test_start.py)."""

from __future__ import annotations

import json
import subprocess

from tools.paths import ROOT


def read_back() -> dict:
    script = ROOT / "tests" / "node" / "snapshot_stream.mjs"
    done = subprocess.run(
        ["node", str(script)], check=True, capture_output=True, text=True, timeout=120
    )
    return json.loads(done.stdout)


def test_a_snapshot_read_in_pieces_of_any_size_is_the_one_written():
    answer = read_back()
    # Its zero pages were left out of the file, and put back.
    assert answer["kept"] < answer["whole"]
    assert len(answer["read"]) == 5
    for cut, read in answer["read"].items():
        assert read == {"memory": True, "files": True, "table": 7, "file": True}, cut


def test_a_spoiled_snapshot_is_refused_saying_how():
    assert read_back()["spoiled"] == {
        "a byte changed": "its digest differs",
        "cut short": "its length differs",
        "a byte too many": "its length differs",
        "cut within the header": "its length differs",
        "made for another key": "it was made for another runtime (stale)",
    }
