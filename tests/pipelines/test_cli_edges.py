"""The command line at the edges of what it reads and writes, in a subprocess as a user runs
it: a folder holding a FIFO or a socket, text that is not UTF-8, lone surrogates, a leading
byte-order mark, and outputs that refuse a write (a full disk, at a write or at the close)."""

from __future__ import annotations

import itertools
import json
import os
import resource
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT
from support.real_documents import real_documents_not_utf8
from test_cli import ENV, lines, run

from chunker import ChunkingEngine, SemanticChunker, chunk_turns, lexical_tokens, snippet_around
from chunker.base.whitespace import js_trim

# The output of a run cut short by a test that fails (a FIFO waited on): it must not hang.
SECONDS = 60


def records(path: Path, text: str, **options) -> list[dict]:
    """What `chunker chunk` should write for `path`, whose text is `text`."""
    return [
        {"source": str(path), **chunk.to_dict(spans=True)}
        for chunk in SemanticChunker(**options).chunk(text)
    ]


# A FIFO, a socket, a device: in a folder, passed over (as `find -type f` and ripgrep do)


@pytest.fixture
def folder_with_a_fifo(tmp_path: Path):
    """docs/: a Markdown file, a FIFO and a socket named like Markdown, a link to the file."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Guide\n\nRead me.\n", encoding="utf-8")
    os.mkfifo(docs / "fifo.md")
    listening = socket.socket(socket.AF_UNIX)
    listening.bind(str(docs / "socket.md"))
    (docs / "link.md").symlink_to("a.md")  # a link to a regular file is read, as before
    yield docs
    listening.close()


def test_a_fifo_in_a_folder_is_skipped_not_waited_on(folder_with_a_fifo):
    docs = folder_with_a_fifo
    for command in (["chunk", "--glob", "*.md"], ["snippet", "read"], ["chunk"]):
        result = run(*command, str(docs), timeout=SECONDS)  # waiting on the FIFO: a failure
        assert result.returncode == 0, result.stderr
        assert result.stderr == b""  # nothing said without --verbose
        assert {r["source"] for r in lines(result.stdout)} == {f"{docs}/a.md", f"{docs}/link.md"}
    said = run("chunk", "--verbose", "--glob", "*.md", str(docs), timeout=SECONDS)
    assert said.returncode == 0
    assert said.stderr.decode().splitlines() == [
        f"chunker: {docs}/fifo.md: skipped: a FIFO, not a regular file",
        f"chunker: {docs}/socket.md: skipped: a socket, not a regular file",
    ]
    assert said.stdout == run("chunk", str(docs), timeout=SECONDS).stdout
    # Named on the command line, as `-` or /dev/stdin, a FIFO is the user's choice: read as
    # it is written.
    fifo = docs / "fifo.md"
    writer = subprocess.Popen(["sh", "-c", f"printf '# Piped\\n\\nText.' > '{fifo}'"])
    try:
        result = run("chunk", str(fifo), timeout=SECONDS)
    finally:
        writer.wait(timeout=SECONDS)
    assert result.returncode == 0, result.stderr
    assert lines(result.stdout) == records(fifo, "# Piped\n\nText.")


def test_a_folder_holding_only_a_fifo_has_no_inputs(tmp_path):
    os.mkfifo(tmp_path / "only.md")
    result = run("chunk", str(tmp_path), timeout=SECONDS)
    assert result.returncode == 3
    assert result.stderr.decode().startswith(f"chunker: no inputs: no files in {tmp_path}")


# Text that is not UTF-8: refused by name, with the flags that read it


def test_latin1_documents_are_refused_naming_encoding_then_read_with_it(tmp_path):
    # Debian's Latin-1 changelogs, where the machine has them, and one written here.
    docs = tmp_path / "docs"
    docs.mkdir()
    found = dict(real_documents_not_utf8(6))
    found["written-here.txt"] = "# Café\n\nSchöne Grüße, naïve résumé.\n".encode("latin-1")
    for name, data in found.items():
        (docs / name).write_bytes(data)
    refused = run("chunk", str(docs))
    assert refused.returncode == 1 and refused.stdout == b""
    stderr = refused.stderr.decode()
    for name, data in found.items():
        start = _first_bad_byte(data)
        assert (
            f"chunker: {docs}/{name}: not UTF-8 (byte {data[start]:#04x} at offset {start}): "
            "give its encoding with --encoding (such as latin-1 or cp1252), or --errors "
            "replace to read it anyway\n"
        ) in stderr
    read = run("chunk", "--encoding", "latin-1", "--jobs", "2", str(docs))
    assert read.returncode == 0, read.stderr
    expected = []
    for name in sorted(found):
        expected += records(docs / name, found[name].decode("latin-1"))
    assert lines(read.stdout) == expected
    replaced = run("chunk", "--errors", "replace", str(docs / "written-here.txt"))
    text = found["written-here.txt"].decode("utf-8", "replace")
    assert lines(replaced.stdout) == records(docs / "written-here.txt", text)
    assert "\ufffd" in text


def _first_bad_byte(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start
    raise AssertionError("UTF-8")


def test_every_command_reads_in_the_encoding_given(tmp_path):
    path = tmp_path / "cp1252.md"
    text = "# Prix\n\nLe prix est de 5 \u20ac. Les remboursements prennent 5 jours.\n"
    path.write_bytes(text.encode("cp1252"))  # the euro sign is 0x80 in cp1252
    chunked = run("chunk", "--encoding", "cp1252", str(path))
    assert lines(chunked.stdout) == records(path, text)
    found = lines(run("snippet", "--encoding", "cp1252", "remboursements", str(path)).stdout)
    snippet = snippet_around(text, lexical_tokens("remboursements"))
    assert (found[0]["at"], found[0]["text"]) == (snippet.at, snippet.text)
    turns = tmp_path / "call.json"
    said = [{"seq": 1, "text": "Ça coûte 5 \u20ac."}]
    turns.write_bytes(json.dumps(said, ensure_ascii=False).encode("cp1252"))
    passages = lines(run("turns", "--encoding", "cp1252", str(turns)).stdout)
    assert passages == [{"source": str(turns), **p.to_dict(spans=True)} for p in chunk_turns(said)]
    utf16 = tmp_path / "utf16.md"
    utf16.write_bytes(text.encode("utf-16"))  # its byte-order mark is the codec's
    assert lines(run("chunk", "--encoding", "utf-16", str(utf16)).stdout) == records(utf16, text)


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--encoding", "latin-7"], "argument --encoding: 'latin-7' is not a text encoding"),
        (["--encoding", "base64"], "argument --encoding: 'base64' is not a text encoding"),
        (["--errors", "xmlcharrefreplace"], "argument --errors: invalid choice"),
    ],
)
def test_an_encoding_or_handler_python_cannot_decode_with_is_a_usage_error(tmp_path, flags, said):
    (tmp_path / "a.md").write_text("# A")
    for command in (["chunk"], ["turns"], ["snippet", "a"]):
        result = run(*command, *flags, str(tmp_path / "a.md"))
        assert result.returncode == 2 and said in result.stderr.decode(), result.stderr
        assert result.stdout == b""


# Lone surrogates: written as their JSON escapes, in every command's output, every format


def test_a_transcripts_lone_surrogate_is_written_as_its_json_escape(tmp_path):
    path = tmp_path / "call.json"
    path.write_text('[{"seq":1,"text":"Hello \\ud800 there."}]')  # valid JSON
    for format in ("jsonl", "json"):
        result = run("turns", "--format", format, str(path))
        assert result.returncode == 0, result.stderr
        assert b'"Hello \\ud800 there."' in result.stdout
        got = lines(result.stdout) if format == "jsonl" else json.loads(result.stdout)
        turns = [{"seq": 1, "text": "Hello \ud800 there."}]
        assert got == [{"source": str(path), **p.to_dict(spans=True)} for p in chunk_turns(turns)]


@pytest.mark.parametrize("format", ["jsonl", "json"])
def test_a_file_read_with_surrogateescape_gives_its_bytes_back(tmp_path, format):
    # A name and a text that are not UTF-8: each undecodable byte is a lone surrogate, written
    # as `\udcXX`, which `os.fsencode` (the name) and surrogateescape (the text) turn back.
    docs = tmp_path / "docs"
    docs.mkdir()
    data = "# Caf\xe9\n\nR\xe9sum\xe9 of the refund.\n".encode("latin-1")
    name = os.fsdecode(os.fsencode(docs) + b"/caf\xe9.md")  # "caf\udce9.md"
    Path(name).write_bytes(data)
    text = data.decode("utf-8", "surrogateescape")
    flags = ["--errors", "surrogateescape", "--format", format]
    for command in (["chunk"], ["chunk", "--strategy", "hierarchical"], ["snippet", "refund"]):
        result = run(*command, *flags, str(docs))
        assert result.returncode == 0, result.stderr
        assert b"\\udce9" in result.stdout and b"\xed" not in result.stdout  # escaped, no UTF-8
        got = lines(result.stdout) if format == "jsonl" else json.loads(result.stdout)
        assert {os.fsencode(record["source"]) for record in got} == {
            os.fsencode(docs) + b"/caf\xe9.md"
        }
        if command == ["chunk"]:
            assert got == records(Path(name), text)
            assert got[0]["text"].encode("utf-8", "surrogateescape").startswith(b"# Caf\xe9")
        elif command[0] == "chunk":
            sections = ChunkingEngine().chunk(text, "hierarchical")
            assert got == [{"source": name, **c.to_dict(spans=True)} for c in sections]
        else:
            snippet = snippet_around(text, ["refund"])
            assert (got[0]["at"], got[0]["text"]) == (snippet.at, snippet.text)


# Outputs that refuse a write: exit 4 and the output named, wherever the write fails


def test_a_full_device_as_the_output_file_is_exit_4_for_every_command(tmp_path):
    path = tmp_path / "a.md"
    path.write_text("# Title\n\nSome text about refunds.\n")
    (tmp_path / "call.json").write_text('[{"seq": 1, "text": "Hello."}]')
    for command in (
        ["chunk", str(path)],
        ["chunk", "--format", "json", str(path)],
        ["turns", str(tmp_path / "call.json")],
        ["snippet", "refunds", str(path)],
    ):
        result = run(*command, "-o", "/dev/full")
        assert result.returncode == 4, result.stderr
        assert result.stderr == b"chunker: cannot write /dev/full: No space left on device\n"


def on_a_full_device(*args: str) -> subprocess.CompletedProcess:
    with open("/dev/full", "wb") as full:
        return subprocess.run(
            [sys.executable, "-m", "chunker", *args],
            stdout=full,
            stderr=subprocess.PIPE,
            env=ENV,
            timeout=SECONDS,
        )


def test_a_full_standard_output_is_exit_4_for_every_command(tmp_path):
    # evaluate's set holds a lone surrogate: its output does not (figures), but is written as
    # the other commands' is.
    path = tmp_path / "set.json"
    corpus = "Cats purr \ud800 softly. Cats sleep all day."
    question = {"question": "do cats sleep", "corpusId": "cats", "references": [[24, 39]]}
    path.write_text(json.dumps({"corpora": {"cats": corpus}, "questions": [question]}))
    table = run("evaluate", str(path), "--strategy", "fixed", "--chunk-size", "20")
    assert table.returncode == 0 and "chunk_size=20" in table.stdout.decode(), table.stderr
    as_json = run("evaluate", str(path), "--format", "json")
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["cells"]
    for command in (
        ["evaluate", str(path)],
        ["evaluate", str(path), "--format", "json"],
        ["--help"],
        ["chunk", "--help"],
        ["--version"],
    ):
        result = on_a_full_device(*command)
        assert result.returncode == 4, (command, result.stderr)
        assert result.stderr == b"chunker: cannot write standard output: No space left on device\n"


def _file_size_limit(size: int):
    def limit() -> None:  # in the child: a write past `size` bytes fails (EFBIG)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return limit


def test_an_output_file_the_disk_refuses_keeps_the_earlier_one(tmp_path):
    # As on a full disk or past a quota: writes fail with EFBIG once the file would pass
    # `size` bytes. Records that fit in the file's buffer fail only as it is flushed at the
    # end; many, in a write mid-run.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "short.md").write_text("# Short\n\nA few words.\n", encoding="utf-8")
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for number in range(3):
        (docs / f"{number}.md").write_text(text, encoding="utf-8")
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    for inputs, size, format in itertools.product(
        ([docs / "short.md"], [docs]), (0, 100, 20_000), ("jsonl", "json")
    ):
        if inputs == [docs / "short.md"] and size == 20_000:
            continue  # its records fit
        command = ["chunk", "--format", format, "-o", str(target), *map(str, inputs)]
        result = subprocess.run(
            [sys.executable, "-m", "chunker", *command],
            capture_output=True,
            env=ENV,
            timeout=SECONDS,
            preexec_fn=_file_size_limit(size),
        )
        assert result.returncode == 4, (inputs, size, format, result.stderr)
        assert result.stderr == f"chunker: cannot write {target}: File too large\n".encode()
        assert target.read_text() == "an earlier run\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "out.jsonl"]


# A leading byte-order mark: no part of the text, the spans index the file as read


def test_a_files_bom_hides_no_heading_and_the_spans_index_the_file(tmp_path):
    # The README as an editor on Windows saves it: a byte-order mark, CRLF line endings.
    saved = "\ufeff" + (ROOT / "README.md").read_text(encoding="utf-8").replace("\n", "\r\n")
    path = tmp_path / "windows.md"
    path.write_bytes(saved.encode("utf-8"))
    title = saved[3 : saved.index("\r")]  # after the mark and "# "
    semantic = lines(run("chunk", str(path)).stdout)
    assert semantic[0]["boundaryType"] == "heading" and semantic[0]["span"]["start"] == 1
    assert semantic[0]["text"].startswith("# " + title)
    assert saved[semantic[0]["span"]["start"] :].startswith("# " + title)
    sections = lines(run("chunk", "--strategy", "hierarchical", str(path)).stdout)
    assert sections[0]["heading"] == title
    install = next(section for section in sections if section["heading"] != title)
    assert install["heading"] == "Install"  # the README's first "## "
    assert install["metadata"] == {"headingLevel": 2, "ancestorHeadings": [title]}
    for section in sections:  # each section's body is the file's, where its span says
        start, end = section["span"]["start"], section["span"]["end"]
        assert saved[start:end] == js_trim(section["content"])


def test_an_output_file_is_asked_to_be_written_to_disk_behind_the_writes(tmp_path, monkeypatch):
    # So that the fsync putting it in place waits for its last part alone: each part asked
    # for once (of Linux itself), in order, all but the last, and the bytes as written.
    from chunker.cli import output

    asked: list[tuple[int, int]] = []
    advise = output._ADVISE
    assert advise is not None  # Linux: asked

    def recorded(descriptor, start, length, advice):
        asked.append((start, length))
        advise(descriptor, start, length, advice)

    monkeypatch.setattr(output, "_BEHIND_BYTES", 1000)
    monkeypatch.setattr(output, "_ADVISE", recorded)
    target = tmp_path / "out.jsonl"
    parts = [bytes([65 + n % 26]) * (300 + 97 * n) for n in range(40)]
    with output.open_output(str(target)) as out:
        for part in parts:
            out.write(part)
    written = sum(map(len, parts))
    assert target.read_bytes() == b"".join(parts)
    ends = list(itertools.accumulate(length for _, length in asked))
    assert [start for start, _ in asked] == [0, *ends[:-1]]
    assert all(length >= 1000 for _, length in asked)
    assert written - sum(length for _, length in asked) < 1000 + max(map(len, parts))
