"""web/chunker-runs.js, a LiveDocument's chunks held as runs moved by the edits, in Node:
under random edits, with reads between them, its chunks, kept and removed equal those of a
list moved eagerly (as the facade moved them before: every kept chunk a new object at each
edit); a chunk read twice is the same object; an edit makes a few nodes of the tree a run
it touches, never one a chunk, and after a thousand edits the tree stays shallow, and a list
read whole is one run again. The arrays it answers read and write as arrays, made as read."""

from __future__ import annotations

import json
import math
import random
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.paths import ROOT

MODULE = ROOT / "web" / "chunker-runs.js"

# Reads cases as JSON lines on stdin, answers one JSON line each: for each step, an edit's
# kept (when looked at), removed, and the tree after it (how many nodes it made, how many it
# has, how deep it is); a read's chunks; and whether every chunk read twice was one object.
RUNNER = """
import { createInterface } from 'node:readline';
const { ChunkRuns } = await import(process.argv[1]);
const nodes = (run, into = new Set()) => {
  if (run) { into.add(run); nodes(run.left, into); nodes(run.right, into); }
  return into;
};
const depth = (run) => (run ? 1 + Math.max(depth(run.left), depth(run.right)) : 0);
for await (const line of createInterface({ input: process.stdin })) {
  const { chunks, steps } = JSON.parse(line);
  let list = ChunkRuns.of(chunks, true);
  const answers = [];
  for (const step of steps) {
    if (step.edit) {
      const { gone, added, unmoved, by, look } = step.edit;
      const before = nodes(list.root);
      const { list: after, removed, kept } = list.edited(gone, added, unmoved, by);
      const made = [...nodes(after.root)].filter((run) => !before.has(run)).length;
      // The removed chunks are the old list's, as it answers them.
      const same = removed.every((chunk, n) => chunk === list.at(gone[n]));
      list = after;
      const answer = { removed, made, runs: nodes(list.root).size, depth: depth(list.root), same };
      if (look) {
        answer.kept = [...kept];
        // Each kept chunk is the list's, at its place: the added ones between them.
        const places = new Set(added.map((chunk) => chunk.index));
        const at = [...Array(list.length).keys()].filter((place) => !places.has(place));
        answer.same = at.every((place, number) => list.at(place) === kept[number]);
      }
      answers.push(answer);
    } else {
      const read = step.read.map((place) => list.at(place));
      const whole = step.whole ? [...list.array()] : null;
      answers.push({
        read, whole, single: list.root === null || (!list.root.left && !list.root.right),
        same: step.read.every((place, number) => list.at(place) === read[number])
          && (whole === null || whole.every((chunk, place) => list.at(place) === chunk)),
      });
    }
  }
  console.log(JSON.stringify(answers));
}
"""


@pytest.fixture(scope="module")
def node() -> Iterator[Any]:
    """A Node process answering cases one line each."""
    process = subprocess.Popen(
        ["node", "--input-type=module", "-e", RUNNER, MODULE.as_uri()],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    )
    yield process
    process.stdin.close()
    process.wait(timeout=30)


def run(node: Any, chunks: list[dict[str, Any]], steps: list[dict[str, Any]]) -> list[Any]:
    node.stdin.write(json.dumps({"chunks": chunks, "steps": steps}) + "\n")
    node.stdin.flush()
    return json.loads(node.stdout.readline())


def chunk(index: int, start: int, length: int, lead: int, name: str) -> dict[str, Any]:
    """A chunk as the facade's SemanticChunker answers one with spans."""
    made: dict[str, Any] = {
        "text": name,
        "startOffset": start,
        "endOffset": start + length,
        "index": index,
        "span": {"start": start, "end": start + length},
    }
    if lead:
        made["overlapSpan"] = {"start": start - lead, "end": start}
    return made


def moved(chunk: dict[str, Any], by: int, index: int) -> dict[str, Any]:
    """`chunk` at `index`, `by` units on: the list moved eagerly."""
    new = {**chunk, "index": index}
    for key in ("span", "overlapSpan"):
        if key in chunk:
            new[key] = {"start": chunk[key]["start"] + by, "end": chunk[key]["end"] + by}
    new["startOffset"] += by
    new["endOffset"] += by
    return new


@st.composite
def edits(draw: st.DrawFn, length: int, names: Iterator[int]) -> dict[str, Any]:
    """An edit of a list of `length` chunks: a block removed (or any few), some added at
    places of the new list, the kept ones before `unmoved` staying."""
    if draw(st.booleans()):
        lo = draw(st.integers(0, length))
        gone = list(range(lo, draw(st.integers(lo, min(length, lo + 4)))))
    else:
        gone = sorted(draw(st.sets(st.integers(0, max(length - 1, 0)), max_size=length and 5)))
    kept = length - len(gone)
    count = draw(st.integers(0, 4))
    new = st.integers(0, max(kept + count - 1, 0))
    places = sorted(draw(st.sets(new, min_size=count, max_size=count)))
    added = [
        chunk(place, draw(st.integers(0, 500)), 7, draw(st.sampled_from([0, 3])), f"n{next(names)}")
        for place in places
    ]
    return {
        "gone": gone,
        "added": added,
        "unmoved": draw(st.integers(0, kept)),
        "by": draw(st.integers(-6, 6)),
        "look": draw(st.booleans()),
    }


def pieces(edit: dict[str, Any], length: int) -> int:
    """How many blocks the edit cuts the list into: runs of kept, removed and added ones."""
    marks = [place in edit["gone"] for place in range(length)]
    blocks = sum(1 for n, mark in enumerate(marks) if n == 0 or mark != marks[n - 1])
    places = [chunk["index"] for chunk in edit["added"]]
    return (
        blocks
        + sum(1 for n, place in enumerate(places) if n == 0 or place != places[n - 1] + 1)
        + 2
    )


@settings(max_examples=150, deadline=None)
@given(data=st.data(), length=st.integers(0, 30))
def test_runs_read_as_the_list_moved_eagerly(node: Any, data: st.DataObject, length: int) -> None:
    names = iter(range(10**6))
    chunks = [chunk(n, 10 * n, 7, 3 * (n % 2), f"c{next(names)}") for n in range(length)]
    eager, steps, expected = chunks, [], []
    for _ in range(data.draw(st.integers(1, 12))):
        if data.draw(st.booleans()) and eager:
            places = data.draw(st.lists(st.integers(0, len(eager) - 1), max_size=6))
            steps.append({"read": places, "whole": data.draw(st.booleans())})
            expected.append(("read", places, list(eager)))
            continue
        edit = data.draw(edits(len(eager), names))
        kept_old = [c for n, c in enumerate(eager) if n not in set(edit["gone"])]
        kept, new = [], []
        added_at = {c["index"]: c for c in edit["added"]}
        old = iter(kept_old)
        for place in range(len(kept_old) + len(edit["added"])):
            if place in added_at:
                new.append(added_at[place])
                continue
            by = 0 if len(kept) < edit["unmoved"] else edit["by"]
            kept.append(moved(next(old), by, place))
            new.append(kept[-1])
        steps.append({"edit": edit})
        removed = [eager[n] for n in edit["gone"]]
        expected.append(("edit", edit, removed, kept, pieces(edit, len(eager))))
        eager = new
    for answer, want in zip(run(node, chunks, steps), expected, strict=True):
        if want[0] == "read":
            _, places, list_then = want
            assert answer["read"] == [list_then[place] for place in places]
            if answer["whole"] is not None:
                assert answer["whole"] == list_then
                assert answer["single"]  # read whole: one run again
        else:
            _, edit, removed, kept, cut = want
            assert answer["removed"] == removed
            if edit["look"]:
                assert answer["kept"] == kept
            # A few nodes a block the edit cuts, each along a path of the tree.
            assert answer["made"] <= cut * 2 * (answer["depth"] + 2), (answer, cut)
        assert answer["same"]


def test_a_thousand_edits_leave_edits_and_reads_bounded_by_the_runs(node: Any) -> None:
    # A key typed at a time into a document of 10,000 chunks, at random places: the chunk
    # typed into is removed, one added in its place, those after it moved by one.
    length, rng = 10_000, random.Random(46)
    chunks = [chunk(n, 10 * n, 10, 0, f"c{n}") for n in range(length)]
    # The list moved eagerly, as each place's chunk and how far it moved since it came.
    bases, shifts, steps = list(chunks), [0] * length, []
    for number in range(1_000):
        at = rng.randrange(length)
        bases[at] = chunk(at, bases[at]["startOffset"] + shifts[at], 11, 0, f"n{number}")
        shifts[at] = 0
        for after in range(at + 1, length):
            shifts[after] += 1
        edit = {"gone": [at], "added": [bases[at]], "unmoved": at, "by": 1, "look": False}
        steps.append({"edit": edit})
    steps.append({"read": [0, length - 1], "whole": True})
    answers = run(node, chunks, steps)
    edits = answers[:-1]
    # Each edit made a few nodes, not one a chunk it moved (main made some 5,000 objects at
    # each of these); and the tree stays shallow however many runs it holds.
    assert max(answer["made"] for answer in edits) <= 6 * (max(a["depth"] for a in edits) + 2)
    assert edits[-1]["runs"] > 1_000
    assert all(answer["depth"] <= 4 * math.log2(answer["runs"] + 1) for answer in edits)
    read = answers[-1]
    assert read["whole"] == [moved(c, by, c["index"]) for c, by in zip(bases, shifts, strict=True)]
    assert read["same"] and read["single"]  # read whole: one run of the chunks read


# A lazy array of 5 numbers read every way an array is, counting the elements made.
AS_AN_ARRAY = """
const { lazyArray } = await import(process.argv[1]);
let made = 0;
const fresh = () => lazyArray(5, (index) => { made++; return { n: index * 10 }; });
const a = fresh();
const seen = {
  isArray: Array.isArray(a), instance: a instanceof Array, length: a.length, made: made,
  first: a[0], last: a.at(-1), outside: [a[5], a['01'], a['-1'], a['1.0']],
  has: [0 in a, 4 in a, 5 in a, '01' in a, 'length' in a],
  json: JSON.stringify(a), spread: [...a].map((x) => x.n), mapped: a.map((x) => x.n),
  sliced: a.slice(1, 3), keys: Object.keys(a),
};
const b = fresh();
b.push({ n: 50 });
seen.pushed = [b.length, b.map((x) => x.n)];
const c = fresh();
c.sort((x, y) => y.n - x.n);
seen.sorted = c.map((x) => x.n);
console.log(JSON.stringify(seen));
"""


def test_a_lazy_array_reads_and_writes_as_an_array():
    done = subprocess.run(
        ["node", "--input-type=module", "-e", AS_AN_ARRAY, MODULE.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(done.stdout)
    assert seen["isArray"] and seen["instance"] and seen["length"] == 5
    assert seen["made"] == 0  # nothing made until read
    assert seen["first"] == {"n": 0} and seen["last"] == {"n": 40}
    assert seen["outside"] == [None, None, None, None]  # undefined: no such index
    assert seen["has"] == [True, True, False, False, True]
    assert json.loads(seen["json"]) == [{"n": n} for n in range(0, 50, 10)]
    assert seen["spread"] == seen["mapped"] == [0, 10, 20, 30, 40]
    assert seen["sliced"] == [{"n": 10}, {"n": 20}]
    assert seen["keys"] == ["0", "1", "2", "3", "4"]
    # Written to, it becomes the array it stood for, then takes the write.
    assert seen["pushed"] == [6, [0, 10, 20, 30, 40, 50]]
    assert seen["sorted"] == [40, 30, 20, 10, 0]
