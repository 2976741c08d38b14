"""web/chunker-blocks.js, a LiveDocument's text held in blocks, in Node: under random edits
(long texts of several blocks, replacements longer than a block, edits across the seams
between blocks, characters outside the BMP and lone surrogates), its length, its units
(`charCodeAt` at each edit's ends, at the seams, outside the text, and everywhere at the end)
and its text as joined are those of the string edited as slices."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.node_lines import node_answering
from support.paths import ROOT

MODULE = ROOT / "web" / "chunker-blocks.js"
BLOCK = 1 << 16

# Reads cases as JSON lines on stdin: a text and edits, each text given as [piece, times]
# (`piece` repeated), each edit [start, end, replacement] with its ends as fractions of the
# text's length then. Answers, one JSON line each, what differed from the string.
RUNNER = """
import { createInterface } from 'node:readline';
const { BlockText } = await import(process.argv[1]);
for await (const line of createInterface({ input: process.stdin })) {
  const { text: [piece, times], edits } = JSON.parse(line);
  let string = piece.repeat(times), blocks = BlockText.of(string);
  const wrong = [];
  const compare = (number, places) => {
    if (blocks.length !== string.length) wrong.push(`${number}: length`);
    for (const at of places) {
      const [want, got] = [string.charCodeAt(at), blocks.charCodeAt(at)];
      if (!Object.is(want, got)) wrong.push(`${number}: unit ${at}: ${got}, not ${want}`);
    }
  };
  for (const [number, [from, to, [inserted, count]]] of edits.entries()) {
    const start = Math.floor(from * string.length);
    const end = Math.max(start, Math.floor(to * string.length));
    const replacement = inserted.repeat(count);
    string = string.slice(0, start) + replacement + string.slice(end);
    blocks = blocks.replaced(start, end, replacement);
    const ends = [start, start + replacement.length];
    const seams = [];
    for (let at = 0; at <= string.length + ${block}; at += ${block}) seams.push(at - 1, at);
    compare(number, [-1, 0, string.length - 1, string.length,
      ...ends.flatMap((at) => [at - 1, at, at + 1]), ...seams]);
  }
  compare('at the end', [...string].keys());
  if (String(blocks) !== string) wrong.push('joined');
  console.log(JSON.stringify(wrong.slice(0, 5)));
}
""".replace("${block}", str(BLOCK))


@pytest.fixture(scope="module")
def node() -> Iterator[Any]:
    """A Node process answering cases one line each."""
    with node_answering(RUNNER, MODULE) as process:
        yield process


PIECES = st.sampled_from(["a", "ab\n", "😀", "x😀y", "\ud83d", "\ude00", "東京 "])
# Short, about a block, or several blocks long.
TIMES = st.sampled_from([0, 1, 3, BLOCK // 3, BLOCK, 2 * BLOCK + 5])
FRACTION = st.floats(0, 1)


@settings(max_examples=60, deadline=None)
@given(
    text=st.tuples(PIECES, TIMES),
    edits=st.lists(st.tuples(FRACTION, FRACTION, st.tuples(PIECES, TIMES)), max_size=8),
)
def test_blocks_read_as_the_string_edited(node: Any, text: Any, edits: Any) -> None:
    node.stdin.write(json.dumps({"text": text, "edits": edits}) + "\n")
    node.stdin.flush()
    assert json.loads(node.stdout.readline()) == []
