"""The `chunker` command line, end to end in a subprocess: every command, folders and globs,
standard input, both formats, jobs, bad files among good ones, bad options, and `-o` that is
put in place only when complete."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path, PurePath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import ROOT

import chunker
from chunker import (
    ChunkingEngine,
    SemanticChunker,
    chunk_turns,
    lexical_tokens,
    match_spans,
    snippet_around,
)
from chunker.cli.parser import COMMANDS, EXIT_CODES
from chunker.pipelines.many import BATCH_CHARS, batched

DOCUMENT = (
    "# Refunds 😀\r\n\r\nRefunds go back to the card. Refunds take days.\r\n\r\n"
    "## Again\n\nRefunds go back to the card. Refunds take days.\n\n"
    "```\ncode | block\n```\n\nA table:\n\n| a | b |\n| - | - |\n| 1 | 2 |\n"
)


# The subprocesses import this checkout's chunker, wherever they run.
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
}


def run(
    *args: str, stdin: bytes | None = None, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    env = ENV
    return subprocess.run(
        [sys.executable, "-m", "chunker", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


def lines(output: bytes) -> list[dict]:
    return [json.loads(line) for line in output.decode().splitlines()]


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A folder: Markdown at two depths, a text file, a hidden file and a hidden folder."""
    root = tmp_path / "docs"
    (root / "guide" / "deep").mkdir(parents=True)
    (root / ".git").mkdir()
    files = {
        "b.md": DOCUMENT,
        "a.md": "# A\n\nFirst. " * 40,
        "guide/c.md": DOCUMENT.replace("Refunds", "Returns"),
        "guide/deep/d.md": "Paragraph one.\n\nParagraph two 😀 with é.\n",
        "notes.txt": "Plain text, refunds.",
        ".hidden.md": "# hidden",
        ".git/e.md": "# hidden too",
    }
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8", newline="")
    return root


def expected_chunks(path: Path, name: str, **options) -> list[dict]:
    text = path.read_bytes().decode("utf-8") if path.exists() else path
    return [
        {"source": name, **c.to_dict(spans=True)} for c in SemanticChunker(**options).chunk(text)
    ]


def test_boundaries_content_ends_fixed_windows_at_the_text_s_words(tmp_path):
    path = tmp_path / "prose.txt"
    text = " ".join(
        f"word{n % 97} and{n % 13}." if n % 7 == 0 else f"w{n % 31}" for n in range(900)
    )
    path.write_text(text, encoding="utf-8")
    flags = ["--strategy", "fixed", "--chunk-size", "200", "--chunk-overlap", "20"]
    result = run("chunk", *flags, "--boundaries", "content", str(path))
    assert result.returncode == 0, result.stderr
    engine = ChunkingEngine()
    expected = [
        {"source": path.as_posix(), **c.to_dict(spans=True)}
        for c in engine.chunk(text, chunk_size=200, chunk_overlap=20, boundaries="content")
    ]
    assert lines(result.stdout) == expected
    by_position = lines(run("chunk", *flags, str(path)).stdout)
    assert by_position == [
        {"source": path.as_posix(), **c.to_dict(spans=True)}
        for c in engine.chunk(text, chunk_size=200, chunk_overlap=20)
    ]
    assert by_position != expected


def test_chunk_walks_folders_in_order_and_globs_skip_hidden_files(corpus):
    result = run("chunk", "--glob", "*.md", "--target-size", "60", "--overlap", "5", str(corpus))
    assert result.returncode == 0, result.stderr
    names = ["a.md", "b.md", "guide/c.md", "guide/deep/d.md"]
    expected = []
    for name in names:
        expected += expected_chunks(
            corpus / name, (corpus / name).as_posix(), target_size=60, overlap=5
        )
    records = lines(result.stdout)
    assert records == expected
    assert all("span" in r and "overlapSpan" in r for r in records)
    everything = lines(run("chunk", str(corpus)).stdout)
    assert {r["source"] for r in everything} == {(corpus / n).as_posix() for n in names} | {
        (corpus / "notes.txt").as_posix()
    }


@pytest.mark.parametrize("boundary", ["word", "sentence"])
def test_overlap_boundary_starts_each_overlap_at_a_word_or_sentence(corpus, boundary):
    options = dict(target_size=60, min_size=0, overlap=9)
    flags = ["--target-size", "60", "--min-size", "0", "--overlap", "9"]
    result = run("chunk", *flags, "--overlap-boundary", boundary, str(corpus / "b.md"))
    assert result.returncode == 0, result.stderr
    path = corpus / "b.md"
    expected = expected_chunks(path, path.as_posix(), **options, overlap_boundary=boundary)
    assert lines(result.stdout) == expected
    # Not the original's overlaps, which the flag left out gives.
    assert expected != expected_chunks(path, path.as_posix(), **options)
    assert lines(run("chunk", *flags, str(path)).stdout) == expected_chunks(
        path, path.as_posix(), **options
    )


def test_chunk_files_and_standard_input_name_their_source(corpus):
    result = run("chunk", "--min-size", "0", "-", str(corpus / "b.md"), stdin=DOCUMENT.encode())
    assert result.returncode == 0, result.stderr
    from_stdin = [
        {"source": "-", **c.to_dict(spans=True)}
        for c in SemanticChunker(min_size=0).chunk(DOCUMENT)
    ]
    assert lines(result.stdout) == from_stdin + expected_chunks(
        corpus / "b.md", str(corpus / "b.md"), min_size=0
    )


def test_spans_index_the_file_as_python_reads_it_with_its_bom_and_crlf(tmp_path):
    # The README as an editor on Windows saves it: a byte-order mark, CRLF line endings.
    saved = "\ufeff" + (ROOT / "README.md").read_text(encoding="utf-8").replace("\n", "\r\n")
    path = tmp_path / "windows.md"
    path.write_bytes(saved.encode("utf-8"))
    with open(path, encoding="utf-8", newline="") as file:
        text = file.read()
    assert text == saved
    expected = [c.to_dict(spans=True) for c in SemanticChunker().chunk(text)]
    from_file = run("chunk", str(path))
    from_stdin = run("chunk", "-", stdin=path.read_bytes())
    assert from_file.returncode == from_stdin.returncode == 0, from_file.stderr
    assert lines(from_file.stdout) == [{"source": str(path), **c} for c in expected]
    assert lines(from_stdin.stdout) == [{"source": "-", **c} for c in expected]
    assert expected[0]["span"]["start"] == 1  # after the mark, as in the text Python reads
    found = lines(run("snippet", "Spark", str(path)).stdout)[0]
    assert text[found["match"]["start"] : found["match"]["end"]].lower() == "spark"
    assert found["at"] == snippet_around(text, ["spark"]).at


def test_a_transcripts_bom_is_no_part_of_its_turns(tmp_path):
    path = tmp_path / "call.json"
    path.write_bytes("\ufeff".encode() + json.dumps(TURNS).encode())
    result = run("turns", str(path))
    assert result.returncode == 0, result.stderr
    assert lines(result.stdout) == [
        {"source": str(path), **p.to_dict(spans=True)} for p in chunk_turns(TURNS)
    ]


def test_switches_turn_options_off():
    result = run(
        "chunk",
        "--no-respect-headings",
        "--no-preserve-code-blocks",
        "--overlap",
        "0",
        "--target-size",
        "30",
        "-",
        stdin=DOCUMENT.encode(),
    )
    assert result.returncode == 0, result.stderr
    chunker = SemanticChunker(
        respect_headings=False, preserve_code_blocks=False, overlap=0, target_size=30
    )
    assert lines(result.stdout) == [
        {"source": "-", **c.to_dict(spans=True)} for c in chunker.chunk(DOCUMENT)
    ]
    assert lines(result.stdout) != lines(
        run("chunk", "--overlap", "0", "--target-size", "30", "-", stdin=DOCUMENT.encode()).stdout
    )


@pytest.mark.parametrize("strategy", ["fixed", "hierarchical", "layout"])
def test_chunk_engine_strategies_take_their_options(corpus, strategy):
    result = run(
        "chunk",
        "--strategy",
        strategy,
        "--chunk-size",
        "40",
        "--chunk-overlap",
        "8",
        str(corpus / "b.md"),
    )
    assert result.returncode == 0, result.stderr
    chunks = ChunkingEngine().chunk(DOCUMENT, strategy, chunk_size=40, chunk_overlap=8)
    assert lines(result.stdout) == [
        {"source": str(corpus / "b.md"), **c.to_dict(spans=True)} for c in chunks
    ]


def test_json_format_is_one_array_of_the_same_records(corpus):
    jsonl = run("chunk", str(corpus))
    array = run("chunk", "--format", "json", str(corpus))
    assert array.returncode == 0
    assert json.loads(array.stdout) == lines(jsonl.stdout)
    empty = run("chunk", "--format", "json", "-", stdin=b"   \n")
    assert json.loads(empty.stdout) == [] and empty.returncode == 0


def test_jobs_two_gives_the_same_bytes_as_jobs_one(tmp_path):
    # More characters than a few batches hold (many.BATCH_CHARS), so two processes share them.
    for number in range(150):
        text = f"# Doc {number}\n\n" + f"Sentence {number} of a paragraph. " * (
            number * 28 % 360 + 1
        )
        (tmp_path / f"{number:03}.md").write_text(text)
    one = run("chunk", "--jobs", "1", "--target-size", "200", str(tmp_path))
    two = run("chunk", "--jobs", "2", "--target-size", "200", str(tmp_path))
    default = run("chunk", "--target-size", "200", str(tmp_path))
    assert one.returncode == two.returncode == default.returncode == 0
    assert len(one.stdout) > 2 * BATCH_CHARS  # input: ~4 batches
    assert two.stdout == one.stdout == default.stdout


@pytest.mark.parametrize("output_format", ["jsonl", "json"])
def test_a_batch_is_answered_as_its_stretch_of_the_output(tmp_path, output_format):
    # A worker answers the bytes the output gets (the parent only puts them in order and
    # writes them), and why an input gave none; nothing the parent must format.
    from chunker.cli.inputs import Decoding, Listing
    from chunker.cli.jsonl import ChunkLines
    from chunker.cli.tasks import Job, chunk_source, run_batch
    from chunker.recipe import Recipe

    for number in range(6):
        (tmp_path / f"{number}.md").write_text(DOCUMENT.replace("Refunds", f"Refunds {number}"))
    (tmp_path / "3.md").write_bytes(b"# Caf\xe9\n\nLatin-1, not UTF-8.")
    done = run("chunk", "--jobs", "1", "--format", output_format, str(tmp_path))
    whole = done.stdout
    sources = list(Listing([str(tmp_path)], None))
    job = Job(chunk_source, ChunkLines(Recipe("semantic", {})), Decoding(), output_format)
    first, second = run_batch(job, sources[:4]), run_batch(job, sources[4:])
    assert isinstance(first.data, bytes) and isinstance(second.data, bytes)
    if output_format == "json":
        assert b"[\n" + first.data + b",\n" + second.data + b"\n]\n" == whole
    else:
        assert first.data + second.data == whole
    # Three inputs of three chunks each, one unread; then two.
    counted = [answer.data.count(b'{"source"') for answer in (first, second)]
    assert counted == [first.records, second.records] == [9, 6]
    said = done.stderr.decode().splitlines()[0]  # the one bad input, as the run names it
    assert first.errors == (said.removeprefix("chunker: "),) and "3.md: not UTF-8" in said
    assert second.errors == ()
    assert (first.files, second.files) == (4, 2)
    assert first.size == sum(source.size for source in sources[:4])


def test_a_batchs_output_bytes_cross_to_the_parent_out_of_band(tmp_path):
    # Not copied into the answer's pickle and out of it again: the worker writes them to the
    # pipe as they are (pool.py), and the parent gets the bytes it writes out.
    import pickle

    from chunker.cli.tasks import Done

    done = Done(b'{"source": "a.md"}\n' * 1000, 1000, ("b.md: not UTF-8",), 2, 40)
    buffers: list[pickle.PickleBuffer] = []
    pickled = pickle.dumps(done, protocol=5, buffer_callback=buffers.append)
    assert [bytes(buffer.raw()) for buffer in buffers] == [done.data]
    assert len(pickled) < 200
    back = pickle.loads(pickled, buffers=[done.data])
    assert back == done and back.data is done.data


# The command as its console script runs it, with an exit handler and an object whose
# finalizer Python's own teardown would run; under a tracer (as coverage runs it) if asked.
PROGRAM = """
import atexit, os, sys

class Kept:
    def __del__(self, write=os.write):  # its own reference: the teardown clears modules
        write(1, b"torn down\\n")

kept = Kept()
atexit.register(print, "exit handler", flush=True)
if sys.argv.pop(1) == "traced":
    sys.settrace(lambda *_: None)
from chunker.cli import command

command()
"""


@pytest.mark.parametrize("traced", [False, True])
def test_the_program_ends_after_its_exit_handlers_without_pythons_teardown(tmp_path, traced):
    (tmp_path / "a.md").write_text(DOCUMENT)
    inputs = [str(tmp_path / "a.md"), str(tmp_path / "missing.md")]
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, "traced" if traced else "plain", "chunk", *inputs],
        capture_output=True,
        env=ENV,
        timeout=120,
    )
    assert done.returncode == 1  # the missing file's, as ever
    assert b"missing.md: no such file or folder" in done.stderr
    *records, last = done.stdout.decode().splitlines()
    if traced:  # the tracer reports in Python's teardown: it runs
        assert [records.pop(), last] == ["exit handler", "torn down"]
    else:
        assert last == "exit handler"
    assert [json.loads(line)["source"] for line in records] == [str(tmp_path / "a.md")] * len(
        records
    )


def test_a_bad_file_is_named_and_the_others_go_on(corpus):
    (corpus / "bad.md").write_bytes(b"# Caf\xe9\n\nLatin-1, not UTF-8.")
    missing = corpus / "missing.md"
    result = run("chunk", "--jobs", "2", str(corpus), str(missing))
    assert result.returncode == 1
    stderr = result.stderr.decode()
    assert f"{(corpus / 'bad.md').as_posix()}: not UTF-8 (byte 0xe9 at offset 5)" in stderr
    assert f"{missing}: no such file or folder" in stderr
    assert "2 of 7 inputs failed" in stderr
    sources = {r["source"] for r in lines(result.stdout)}
    assert (corpus / "a.md").as_posix() in sources and (corpus / "notes.txt").as_posix() in sources
    assert not any("bad.md" in s for s in sources)


@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (["--target-size", "0"], "argument --target-size: invalid target_size 0 (must be >= 1)"),
        (["--overlap", "-1"], "argument --overlap: invalid overlap -1"),
        (["--chunk-size", "10"], "--chunk-size does not apply to --strategy semantic"),
        (
            ["--strategy", "fixed", "--chunk-size", "0"],
            "argument --chunk-size: invalid chunk_size 0",
        ),
        (
            ["--strategy", "fixed", "--chunk-size", "10", "--chunk-overlap", "10"],
            "chunk_overlap 10 must be less than chunk_size 10",
        ),
        (["--strategy", "nope"], "argument --strategy: invalid choice: 'nope'"),
        (
            ["--overlap-boundary", "words"],
            "argument --overlap-boundary: invalid choice: 'words' (choose from 'chars', 'word',",
        ),
        (
            ["--strategy", "fixed", "--overlap-boundary", "word"],
            "--overlap-boundary does not apply to --strategy fixed",
        ),
        (
            ["--strategy", "fixed", "--boundaries", "words"],
            "argument --boundaries: invalid choice: 'words' (choose from 'position', 'content')",
        ),
        (
            ["--strategy", "hierarchical", "--boundaries", "content"],
            "boundaries 'content' is for strategy 'fixed' only, not 'hierarchical'",
        ),
        (["--target-size", "ten"], "argument --target-size: invalid int value: 'ten'"),
        (["--jobs", "0"], "argument --jobs: must be at least 1, got 0"),
    ],
)
def test_an_option_out_of_range_is_a_usage_error_naming_it(corpus, tmp_path, flags, named):
    target = tmp_path / "out.jsonl"
    result = run("chunk", *flags, "-o", str(target), str(corpus))
    assert result.returncode == 2
    assert named in result.stderr.decode()
    assert "usage: chunker chunk" in result.stderr.decode()
    assert not target.exists() and result.stdout == b""


def test_output_file_is_put_in_place_when_complete(corpus, tmp_path):
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    result = run("chunk", "-o", str(target), str(corpus))
    assert result.returncode == 0 and result.stdout == b""
    assert lines(target.read_bytes()) == lines(run("chunk", str(corpus)).stdout)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docs", "out.jsonl"]


def test_when_every_input_fails_an_earlier_output_file_is_kept(tmp_path):
    (tmp_path / "latin1.md").write_bytes(b"# Caf\xe9")
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    for quiet in ([], ["--quiet"]):
        result = run("chunk", *quiet, "-o", str(target), str(tmp_path / "latin1.md"), "gone.md")
        assert result.returncode == 1
        assert f"2 of 2 inputs failed; {target} was not written" in result.stderr.decode()
        assert target.read_text() == "an earlier run\n"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["latin1.md", "out.jsonl"]
    # One input cut, if into nothing, is a result: it replaces the earlier file.
    (tmp_path / "blank.md").write_text("  \n")
    result = run(
        "chunk", "-o", str(target), str(tmp_path / "latin1.md"), str(tmp_path / "blank.md")
    )
    assert result.returncode == 1 and b"1 of 2 inputs failed\n" in result.stderr
    assert target.read_bytes() == b""


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o077])
def test_an_output_file_gets_the_users_mode_or_keeps_its_own(corpus, tmp_path, umask):
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    old.write_text("an earlier run\n")
    old.chmod(0o640)
    for target in (new, old):
        result = subprocess.run(
            [sys.executable, "-m", "chunker", "chunk", "-o", str(target), str(corpus)],
            capture_output=True,
            env=ENV,
            timeout=120,
            preexec_fn=lambda: os.umask(umask),
        )
        assert result.returncode == 0, result.stderr
    assert new.stat().st_mode & 0o777 == 0o666 & ~umask
    assert old.stat().st_mode & 0o777 == 0o640 and old.read_text() != "an earlier run\n"


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        ([], "no files in {folder} (hidden files are skipped)"),
        (["--glob", "*.rst"], "no files in {folder} match --glob '*.rst'"),
    ],
)
def test_folders_with_nothing_to_read_say_so_and_write_nothing(tmp_path, flags, said):
    folder = tmp_path / "docs"
    (folder / "empty").mkdir(parents=True)
    (folder / ".hidden.md").write_text("# hidden")
    if flags:
        (folder / "notes.md").write_text("# Notes")
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    for command in (["chunk"], ["snippet", "refund"]):
        result = run(*command, *flags, "-o", str(target), str(folder))
        assert result.returncode == 3
        message = f"chunker: no inputs: {said.format(folder=folder)}; {target} was not written"
        assert result.stderr.decode() == message + "\n"
        assert target.read_text() == "an earlier run\n" and result.stdout == b""
    assert run("chunk", *flags, str(folder)).stderr.decode().startswith("chunker: no inputs")


def test_an_output_that_cannot_be_written_is_named_without_a_traceback(corpus, tmp_path):
    missing = tmp_path / "no-such-folder" / "out.jsonl"
    result = run("chunk", "-o", str(missing), str(corpus))
    assert result.returncode == 4
    assert result.stderr.decode() == f"chunker: cannot write {missing}: No such file or directory\n"
    with open("/dev/full", "wb") as full:  # a disk that is full
        result = subprocess.run(
            [sys.executable, "-m", "chunker", "chunk", str(corpus)],
            stdout=full,
            stderr=subprocess.PIPE,
            env=ENV,
            timeout=120,
        )
    assert result.returncode == 4
    assert result.stderr == b"chunker: cannot write standard output: No space left on device\n"


def test_a_fifo_is_written_to_and_a_symlink_kept(corpus, tmp_path):
    expected = run("chunk", str(corpus)).stdout
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    try:
        result = run("chunk", "-o", str(fifo), str(corpus))
        read, _ = reader.communicate(timeout=30)  # replaced by a file, it would wait forever
    finally:
        reader.kill()
    assert result.returncode == 0 and read == expected and fifo.is_fifo()
    real, link = tmp_path / "real.jsonl", tmp_path / "link.jsonl"
    real.write_text("an earlier run\n")
    link.symlink_to(real.name)
    assert run("chunk", "-o", str(link), str(corpus)).returncode == 0
    assert link.is_symlink() and real.read_bytes() == expected
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "docs",
        "fifo",
        "link.jsonl",
        "real.jsonl",
    ]


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_an_interrupted_output_file_is_never_half_written(tmp_path, how):
    corpus = tmp_path / "big"
    corpus.mkdir()
    paragraph = "A sentence of the corpus, long enough. " * 30 + "\n\n"
    for number in range(400):
        (corpus / f"{number:04}.md").write_text(f"# {number}\n\n" + paragraph * 60)
    target = tmp_path / "out.jsonl"
    target.write_text("an earlier run\n")
    env = ENV
    process = subprocess.Popen(
        [sys.executable, "-m", "chunker", "chunk", "--jobs", "1", "-o", str(target), str(corpus)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        # A run started in the background inherits SIGINT ignored (and rightly keeps it so):
        # the child gets the default, as from a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # noqa: PLW1509
    )
    deadline = time.monotonic() + 60
    while not any(p.name.endswith(".part") and p.stat().st_size for p in tmp_path.iterdir()):
        assert process.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline
        time.sleep(0.02)
    process.send_signal(how)
    _, stderr = process.communicate(timeout=60)
    assert target.read_text() == "an earlier run\n"
    left = sorted(p.name for p in tmp_path.iterdir())
    if how == signal.SIGKILL:  # nothing can clean up after SIGKILL: only a hidden part file
        assert [n for n in left if n not in ("big", "out.jsonl")] == [
            n for n in left if n.startswith(".out.jsonl.") and n.endswith(".part")
        ]
    else:
        assert process.returncode == 128 + how  # 130, or 143 for SIGTERM
        assert f"interrupted; {target} was not written".encode() in stderr
        assert left == ["big", "out.jsonl"]


TURNS = [
    {"seq": 1, "itemId": "m1", "text": "Hello there.", "startMs": 0, "endMs": 900},
    {"seq": 2, "itemId": "m2", "text": "Hi! How can I help? 😀", "startMs": 950, "endMs": 2000},
    {"seq": 3, "text": "My refund has not arrived."},
    {"seq": 4, "text": "Let me check the refund."},
]


def test_turns_reads_a_json_list_or_json_lines(tmp_path):
    as_list = tmp_path / "call.json"
    as_list.write_text(json.dumps(TURNS))
    as_lines = tmp_path / "call.jsonl"
    as_lines.write_text("\n".join(json.dumps(t) for t in TURNS) + "\n\n")
    result = run("turns", "--max-chars", "40", "--overlap-turns", "1", str(as_list), str(as_lines))
    assert result.returncode == 0, result.stderr
    passages = [p.to_dict(spans=True) for p in chunk_turns(TURNS, max_chars=40, overlap_turns=1)]
    assert lines(result.stdout) == [{"source": str(as_list), **p} for p in passages] + [
        {"source": str(as_lines), **p} for p in passages
    ]


def test_turns_names_a_bad_transcript_and_a_bad_option(tmp_path):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(TURNS))
    broken = tmp_path / "broken.json"
    broken.write_text('[{"seq": 1, "text": "x"},')
    wrong = tmp_path / "wrong.json"
    wrong.write_text('[{"seq": "one", "text": "x"}]')
    result = run("turns", str(broken), str(good), str(wrong))
    assert result.returncode == 1
    stderr = result.stderr.decode()
    assert f"{broken}: not JSON" in stderr
    assert f"{wrong}: turns[0].seq must be an integer" in stderr
    assert {r["source"] for r in lines(result.stdout)} == {str(good)}
    bad_option = run("turns", "--max-chars", "0", str(good))
    assert bad_option.returncode == 2 and b"argument --max-chars" in bad_option.stderr


def test_snippet_gives_each_files_first_match_and_its_span(corpus):
    result = run("snippet", "--before", "10", "--after", "30", "refund card", str(corpus))
    assert result.returncode == 0, result.stderr
    records = {r["source"]: r for r in lines(result.stdout)}
    words = lexical_tokens("refund card")
    for path in sorted(corpus.rglob("*")):
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(corpus).parts):
            text = path.read_bytes().decode("utf-8")
            snippet = snippet_around(text, words, before=10, after=30)
            record = records.pop(path.as_posix())
            assert (record["at"], record["text"]) == (snippet.at, snippet.text)
            spans = [(span["start"], span["end"]) for span in record["spans"]]
            assert spans == match_spans(snippet.text, words)
            assert all(snippet.text[a:b].lower().startswith(("refund", "card")) for a, b in spans)
            assert bool(spans) == (snippet.at >= 0)
            if snippet.at < 0:
                assert record["match"] is None
            else:
                start, end = record["match"]["start"], record["match"]["end"]
                assert start == snippet.at
                assert text[start:end].lower().startswith(("refund", "card"))
                assert not text[end : end + 1].isalnum()
    assert records == {}
    assert run("snippet", "?!", str(corpus)).returncode == 2


PROGRESS_LINE = re.compile(r"files (\d+)/(\d+), [\d.]+/[\d.]+ MB, [\d.]+ MB/s, (\d+):(\d\d) left")


def on_a_terminal(*args: str) -> tuple[int, bytes, float]:
    """Run the command line with its standard error on a pseudo-terminal, as in a shell,
    its output thrown away; answer its exit code, what the terminal got, and its seconds."""
    primary, terminal = os.openpty()
    started = time.monotonic()
    try:
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", "chunker", *args],
                stdout=subprocess.DEVNULL,
                stderr=terminal,
                env=ENV,
            )
        finally:
            os.close(terminal)  # the run holds its own copy
        shown = []
        while True:  # read as it runs: a full terminal would make it wait
            try:
                data = os.read(primary, 65536)
            except OSError:  # EIO: every copy of the terminal is closed, all was read
                break
            if not data:
                break
            shown.append(data)
    finally:
        os.close(primary)
    return process.wait(timeout=120), b"".join(shown), time.monotonic() - started


def test_progress_on_a_pipe_is_plain_lines_and_quiet_silences_it(corpus):
    shown = run("chunk", "--progress", str(corpus))
    assert shown.returncode == 0
    stderr = shown.stderr.decode()
    assert "\r" not in stderr and "\x1b" not in stderr  # a log file stays readable
    assert stderr.endswith("\n") and all(PROGRESS_LINE.fullmatch(s) for s in stderr.splitlines())
    assert stderr.splitlines()[-1].startswith("files 5/5, ")
    quiet = run("chunk", "--quiet", "--progress", str(corpus))
    assert quiet.stderr == b"" and quiet.stdout == shown.stdout
    (corpus / "bad.md").write_bytes(b"\xff")
    assert b"bad.md: not UTF-8" in run("chunk", "--quiet", str(corpus)).stderr


def test_progress_shows_by_itself_on_a_terminal_only(corpus):
    assert run("chunk", str(corpus)).stderr == b""  # a pipe: no progress line
    code, shown, _ = on_a_terminal("chunk", str(corpus))
    assert code == 0
    assert shown.startswith(b"\rfiles ") and shown.endswith(b"\x1b[K\r\n")  # onlcr: \n is \r\n
    assert b"files 5/5" in shown and b"MB/s" in shown


def test_progress_counts_whole_batches(tmp_path):
    # Files come back from the processes a batch at a time (many.batched's batches). Enough
    # text that the line, drawn at most every tenth of a second, is drawn before the end
    # however fast the run (with a third of it, a run ended within the tenth and drew only
    # its last line).
    paragraph = "A sentence of the corpus, long enough to cut. " * 20 + "\n\n"
    sizes = [
        (tmp_path / f"{number:04}.md").write_text(f"# {number}\n\n" + paragraph * 30)
        for number in range(3000)
    ]
    ends = list(itertools.accumulate(len(batch) for batch in batched(sizes, int)))
    code, shown, _ = on_a_terminal("chunk", "--jobs", "2", str(tmp_path))
    assert code == 0
    estimates = PROGRESS_LINE.findall(shown.decode())
    assert len(estimates) >= 2 and estimates[-1][:2] == ("3000", "3000")
    # Counted a file at a time, a line could credit one file of a batch with the whole
    # batch's time (the first line foretold minutes for a run of a second): whole batches only.
    # (No bound on the estimate's seconds: a timed assertion fails on a loaded machine.)
    assert all(int(files) in ends for files, *_ in estimates[:-1]), estimates


def test_a_reader_that_leaves_ends_the_run_quietly(tmp_path):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for number in range(100):  # megabytes of output: far more than a pipe holds
        (tmp_path / f"{number:03}.md").write_text(text)
    for jobs in ("1", "2"):
        command = f"{sys.executable} -m chunker chunk --jobs {jobs} {tmp_path} | head -1"
        result = subprocess.run(
            ["bash", "-c", command + "; exit ${PIPESTATUS[0]}"],
            capture_output=True,
            env=ENV,
            timeout=120,
        )
        assert result.stderr == b""
        assert result.returncode == 141  # as for `cat`: 128 + SIGPIPE
        assert json.loads(result.stdout)["source"] == f"{tmp_path}/000.md"


def test_help_lists_every_option_and_the_exit_codes():
    result = run("chunk", "--help")
    assert result.returncode == 0
    text = result.stdout.decode()
    for option in (
        "--target-size",
        "--max-size",
        "--min-size",
        "--overlap",
        "--no-preserve-code-blocks",
        "--respect-headings",
        "--overlap-boundary {chars,word,sentence}",
        "--chunk-size",
        "--chunk-overlap",
        "--glob",
        "--jobs",
        "--format",
        "--progress",
        "--quiet",
    ):
        assert option in text
    assert "130" in text and "exit codes" in text


def test_the_docs_give_the_exit_codes_the_help_gives():
    section = (ROOT / "docs" / "pipelines.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| (.+) \|$", section, re.MULTILINE)
    assert {int(code): text.replace("`", "") for code, text in rows} == EXIT_CODES


def test_version_and_one_options_heading_a_command():
    version = run("--version")
    assert version.returncode == 0
    assert version.stdout.decode() == f"chunker {chunker.__version__}\n"
    for command in ("chunk", "turns", "snippet"):
        shown = run(command, "--help").stdout.decode()
        assert shown.splitlines().count("options:") == 1, command


def _walked(folder: Path, glob: str | None) -> list[tuple[str, int]]:
    """The files `os.walk` finds, as the command line lists them (what is no regular file
    passed over, as `find -type f`; a broken link kept, to be named): the oracle of its
    walk."""
    found = []
    for parent, folders, files in os.walk(folder):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            path = Path(parent, name)
            relative = PurePath(path.relative_to(folder))
            if name.startswith(".") or (glob is not None and not relative.match(glob)):
                continue
            try:
                status = path.stat()
            except OSError:
                size = 0
            else:
                if not stat.S_ISREG(status.st_mode):
                    continue
                size = status.st_size
            found.append((path.as_posix(), size))
    return found


@pytest.mark.parametrize("glob", [None, "*.md", "**/*.txt", "b/*", "*/README*"])
def test_a_folder_is_walked_as_os_walk_walks_it(tmp_path, glob):
    from chunker.cli.inputs import _folder_files

    tree = tmp_path / "tree"
    for name in ["a.md", "b/c.txt", "b/d/e.md", "b/.hidden/f.md", ".g.md", "h/README.md", "Z.md"]:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text(name * 3)
    (tree / "link-to-b").symlink_to(tree / "b")  # a link to a folder: not followed
    (tree / "link-to-a.md").symlink_to(tree / "a.md")
    (tree / "broken.md").symlink_to(tree / "nowhere")
    os.mkfifo(tree / "b" / "fifo.md")
    (tree / "link-to-fifo.md").symlink_to(tree / "b" / "fifo.md")
    for folder in (tree, tmp_path / "tree" / ".." / "tree"):
        assert list(_folder_files(folder, glob)) == _walked(folder, glob)
    documentation = Path("/usr/share/doc")
    if documentation.is_dir():  # thousands of real files and links
        assert list(_folder_files(documentation, glob)) == _walked(documentation, glob)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="/.a\\", max_size=9))
def test_a_folder_is_named_as_pathlib_names_it(given_path):
    # The records' sources are the folder's name as pathlib writes it, without pathlib.
    from chunker.cli.inputs import _posix_name

    assert _posix_name(given_path) == PurePath(given_path).as_posix()


def test_a_folder_is_walked_as_its_files_are_taken(tmp_path):
    # `--jobs N` sends its first batches while the rest is listed: a subfolder is read only
    # when its files are reached; the paths given are looked at first, each at once.
    from chunker.cli.inputs import Listing

    (tmp_path / "b").mkdir()
    (tmp_path / "a.md").write_text("# A")
    (tmp_path / "b" / "c.md").write_text("# C")
    listing = Listing([str(tmp_path), str(tmp_path / "missing")], None)
    assert listing.problems == [f"{tmp_path / 'missing'}: no such file or folder"]
    taken = iter(listing)
    first = next(taken)
    (tmp_path / "b" / "d.md").write_text("# D")  # after the first was taken: still found
    names = [first.name, *(source.name for source in taken)]
    assert names == [f"{tmp_path}/a.md", f"{tmp_path}/b/c.md", f"{tmp_path}/b/d.md"]


def test_a_command_loads_only_what_it_runs(tmp_path: Path):
    # `chunk` on one file is mostly start-up: the other commands' modules (turns, snippets,
    # evaluation) stay unread, and their flags unmade (parser.build_parser); so do `--since`'s
    # and its ids' hashing, unless asked, and `tempfile`, which only an `-o` file needs;
    # `--help` still lists every command.
    path = tmp_path / "a.md"
    path.write_text(DOCUMENT, encoding="utf-8")
    script = (
        "import sys; from chunker.cli import main; code = main(['chunk', '--quiet', sys.argv[1]]);"
        "print([m for m in ('chunker.turns', 'chunker.search.lexical', 'chunker.evaluation', "
        "'chunker.cli.since', 'chunker.text.ids', 'tempfile') if m in sys.modules], "
        "file=sys.stderr); "
        "sys.exit(code)"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, env=ENV, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert lines(done.stdout)[0]["source"] == str(path)
    assert done.stderr.decode().strip() == "[]"
    listed = run("--help").stdout.decode()
    assert all(re.search(rf"^    {command}\s", listed, re.M) for command in COMMANDS), listed
    for command in COMMANDS:
        assert "usage: chunker " + command in run(command, "--help").stdout.decode()
