"""`chunker chunk --since OLD`, end to end in a subprocess against a real previous output:
each line says its change (added in full with its id, kept with its id and new place,
removed with its id), the kept and added lines are a full run's chunks, the output is an OLD
for the next run, and an OLD that is missing or garbled is a usage error naming the flag and
the file (exit code 2, as docs/pipelines.md gives it), over CRLF and byte-order-marked files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli import run

from chunker.text.ids import chunk_ids

SETTINGS = [
    ["--target-size", "80", "--min-size", "10"],
    ["--target-size", "80", "--min-size", "10", "--overlap", "0"],
    ["--strategy", "hierarchical", "--chunk-size", "120"],
]


def paragraphs(tag: str) -> list[str]:
    out = []
    for section in range(4):
        out.append(f"# {tag} section {section}")
        out += [f"Paragraph {section}.{n} of {tag}, with a few words to it." for n in range(3)]
        out.append("See above.")  # the same paragraph in every section
    return out


def write(path: Path, parts: list[str], newline: str = "\n", bom: bool = False) -> None:
    text = (newline * 2).join(parts) + newline
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode())


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def text_of(record: dict) -> str:
    return record["text"] if "text" in record else record["content"]


def chunk(folder: Path, settings: list[str], *more: str) -> None:
    result = run("chunk", "docs", *settings, "--quiet", *more, cwd=folder)
    assert result.returncode == 0, result.stderr.decode()


@pytest.mark.parametrize("settings", SETTINGS, ids=["semantic", "no-overlap", "hierarchical"])
def test_since_writes_what_changed_and_is_the_next_runs_old(tmp_path, settings):
    docs = tmp_path / "docs"
    docs.mkdir()
    write(docs / "a.md", paragraphs("a"))
    write(docs / "b.md", paragraphs("b"))
    write(docs / "gone.md", paragraphs("gone"))
    chunk(tmp_path, settings, "-o", "old.jsonl")
    old = lines_of(tmp_path / "old.jsonl")

    edited = paragraphs("a")
    edited[7] = "This paragraph was rewritten since the last run, word for word."
    write(docs / "a.md", edited)
    (docs / "gone.md").unlink()
    write(docs / "new.md", paragraphs("new"))
    chunk(tmp_path, settings, "-o", "full.jsonl")
    chunk(tmp_path, settings, "--since", "old.jsonl", "-o", "changes.jsonl")
    full, changes = lines_of(tmp_path / "full.jsonl"), lines_of(tmp_path / "changes.jsonl")

    ids: dict[str, set[str]] = {}
    for name in ("docs/a.md", "docs/b.md", "docs/gone.md", "docs/new.md"):
        ids[name] = set(chunk_ids(name, [text_of(r) for r in old if r["source"] == name]))
    # The kept and added lines are the full run's chunks, in its order, each with its id.
    current = [c for c in changes if c["change"] != "removed"]
    assert [(c["source"], c["index"], c["span"]) for c in current] == [
        (r["source"], r["index"], r["span"]) for r in full
    ]
    for line, record in zip(current, full):
        same = chunk_ids(
            record["source"], [text_of(r) for r in full if r["source"] == record["source"]]
        )
        assert line["id"] == same[record["index"]]
        if line["id"] in ids[record["source"]]:
            assert line == {
                **{k: record[k] for k in ("source", "index", "span")},
                "id": line["id"],
                "change": "kept",
            }
        else:
            assert line == {**record, "id": line["id"], "change": "added"}
    # Removed: the old chunks that are gone, the deleted file's among them.
    removed = {(c["source"], c["id"]) for c in changes if c["change"] == "removed"}
    now = {(c["source"], c["id"]) for c in current}
    was = {(name, i) for name, found in ids.items() for i in found}
    assert removed == was - now
    assert {name for name, _ in removed} >= {"docs/gone.md"}
    by_change = {kind: [c for c in changes if c["change"] == kind] for kind in ("added", "kept")}
    assert {c["source"] for c in by_change["added"]} == {"docs/a.md", "docs/new.md"}
    assert all(c["source"] != "docs/new.md" for c in by_change["kept"])
    assert sum(c["source"] == "docs/a.md" for c in by_change["added"]) <= 3
    assert all(c["source"] != "docs/b.md" for c in by_change["added"])

    # The output is the next run's OLD, written over itself: nothing changed since.
    chunk(tmp_path, settings, "--since", "changes.jsonl", "-o", "changes.jsonl")
    again = lines_of(tmp_path / "changes.jsonl")
    assert {c["change"] for c in again} == {"kept"}
    assert [c["id"] for c in again] == [c["id"] for c in current]


def test_since_reads_a_json_array_and_a_byte_order_marked_crlf_old(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    write(docs / "a.md", paragraphs("a"), newline="\r\n", bom=True)
    chunk(tmp_path, SETTINGS[0], "--format", "json", "-o", "old.json")
    crlf = tmp_path / "old-crlf.jsonl"
    records = json.loads((tmp_path / "old.json").read_text(encoding="utf-8"))
    crlf.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(map(json.dumps, records)).encode())
    edited = paragraphs("a")
    edited[2] = "Rewritten."
    write(docs / "a.md", edited, newline="\r\n", bom=True)
    outputs = []
    for old in ("old.json", "old-crlf.jsonl"):
        chunk(tmp_path, SETTINGS[0], "--since", old, "-o", "out.jsonl")
        outputs.append(lines_of(tmp_path / "out.jsonl"))
    assert outputs[0] == outputs[1]
    changes = [c["change"] for c in outputs[0]]
    assert "kept" in changes and "added" in changes and "removed" in changes
    # A kept chunk after the edit is at its new place in the file as read: the mark counts.
    text = (docs / "a.md").read_bytes().decode("utf-8")
    for line in outputs[0]:
        if line["change"] == "kept":
            start, end = line["span"]["start"], line["span"]["end"]
            assert text[start:end].strip() and not text[start:end].startswith("\ufeff")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (None, "cannot read 'old.jsonl': No such file or directory"),
        (b'{"source": "docs/a.md", "text": "x"}\n{"source": ', "'old.jsonl' line 2 is not JSON"),
        (
            b'{"text": "no source"}\n',
            "'old.jsonl' line 1 is no record of chunker chunk (no source)",
        ),
        (
            b'{"source": "a", "index": 0}\n',
            "'old.jsonl' line 1 is no record of chunker chunk (no text or id)",
        ),
        (b'[{"source": "a", "text": "x"}', "'old.jsonl' is not JSON"),
        (b'"just a string"\n', "'old.jsonl' line 1 is no record of chunker chunk"),
        (b"\xff\xfe binary", "cannot read 'old.jsonl': not UTF-8"),
    ],
    ids=["missing", "garbled", "no-source", "no-text", "bad-array", "not-an-object", "not-utf-8"],
)
def test_an_old_that_is_no_output_is_a_usage_error_naming_the_flag_and_file(
    tmp_path, content, says
):
    docs = tmp_path / "docs"
    docs.mkdir()
    write(docs / "a.md", paragraphs("a"))
    if content is not None:
        (tmp_path / "old.jsonl").write_bytes(content)
    (tmp_path / "out.jsonl").write_text("earlier\n")
    result = run("chunk", "docs", "--since", "old.jsonl", "-o", "out.jsonl", cwd=tmp_path)
    assert result.returncode == 2
    assert f"argument --since: {says}" in result.stderr.decode()
    assert (tmp_path / "out.jsonl").read_text() == "earlier\n"  # nothing was written


def test_an_unreadable_input_is_neither_kept_nor_removed(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    write(docs / "a.md", paragraphs("a"))
    write(docs / "b.md", paragraphs("b"))
    chunk(tmp_path, SETTINGS[0], "-o", "old.jsonl")
    (docs / "b.md").write_bytes(b"not utf-8 \xff")
    result = run("chunk", "docs", *SETTINGS[0], "--since", "old.jsonl", cwd=tmp_path)
    assert result.returncode == 1
    assert "docs/b.md: not UTF-8" in result.stderr.decode()
    lines = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert {c["source"] for c in lines} == {"docs/a.md"}
    assert {c["change"] for c in lines} == {"kept"}


def test_worker_processes_write_what_one_process_writes(tmp_path):
    # With --jobs 2 the workers make each input's lines of change, the parent the removed
    # lines of inputs this run does not have: the same bytes as one process.
    docs = tmp_path / "docs"
    docs.mkdir()
    for number in range(6):
        write(docs / f"{number}.md", paragraphs(f"doc {number}"))
    chunk(tmp_path, SETTINGS[0], "-o", "old.jsonl")
    write(docs / "2.md", [*paragraphs("doc 2")[:-1], "An edited last paragraph."])
    (docs / "4.md").unlink()
    for jobs in ("1", "2"):
        chunk(tmp_path, SETTINGS[0], "--since", "old.jsonl", "--jobs", jobs, "-o", f"{jobs}.jsonl")
    one, two = (tmp_path / "1.jsonl").read_bytes(), (tmp_path / "2.jsonl").read_bytes()
    assert one == two
    changes = [line["change"] for line in lines_of(tmp_path / "1.jsonl")]
    assert {"added", "kept", "removed"} <= set(changes)
