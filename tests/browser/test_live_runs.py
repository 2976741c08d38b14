"""web/chunker-runs.js, a LiveDocument's chunks held as runs moved by the edits, in Node:
under random edits, with reads between them, its chunks, kept and removed equal those of a
list moved eagerly (as the facade moved them before: every kept chunk a new object at each
edit); a chunk read twice is the same object; an edit makes a few nodes of the tree a run
it touches, never one a chunk, and after a thousand edits the tree stays shallow, and a list
read whole is one run again. The arrays it answers are plain ones (they clone), made once;
an edit's `keptAt` answers what its `kept` holds."""

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
from support.node_lines import node_answering
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
      const { gone, added, unmoved, by, look, at } = step.edit;
      const before = nodes(list.root);
      const { list: after, change } = list.edited(gone, added, unmoved, by);
      const made = [...nodes(after.root)].filter((run) => !before.has(run)).length;
      // The removed chunks are the old list's, as it answers them.
      const { removed } = change;
      let same = removed.every((chunk, n) => chunk === list.at(gone[n]));
      list = after;
      // A few kept chunks read alone, before the array is made or after.
      const alone = look ? null : at.map((number) => change.keptAt(number));
      const answer = { removed, made, runs: nodes(list.root).size, depth: depth(list.root),
        count: change.keptCount, alone };
      if (look) {
        const { kept } = change;
        // A plain array, made once: a clone of it is a copy, as of any array.
        same &&= Array.isArray(kept) && change.kept === kept
          && JSON.stringify(structuredClone(kept)) === JSON.stringify(kept);
        answer.kept = kept;
        answer.alone = at.map((number) => change.keptAt(number));
        same &&= at.every((number, n) => answer.alone[n] === kept[number]);
        // Each kept chunk is the list's, at its place: the added ones between them.
        const places = new Set(added.map((chunk) => chunk.index));
        const where = [...Array(list.length).keys()].filter((place) => !places.has(place));
        same &&= where.every((place, number) => list.at(place) === kept[number]);
      } else {
        same &&= at.every((number, n) => alone[n] === change.keptAt(number));
      }
      answer.same = same;
      answers.push(answer);
    } else {
      const read = step.read.map((place) => list.at(place));
      const whole = step.whole ? list.array() : null;
      answers.push({
        read, whole, single: list.root === null || (!list.root.left && !list.root.right),
        same: step.read.every((place, number) => list.at(place) === read[number])
          && (whole === null || (whole === list.array() && Array.isArray(whole)
            && whole.every((chunk, place) => list.at(place) === chunk)
            && JSON.stringify(structuredClone(whole)) === JSON.stringify(whole))),
      });
    }
  }
  console.log(JSON.stringify(answers));
}
"""


@pytest.fixture(scope="module")
def node() -> Iterator[Any]:
    """A Node process answering cases one line each."""
    with node_answering(RUNNER, MODULE) as process:
        yield process


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
        "at": draw(st.lists(st.integers(0, kept - 1), max_size=4)) if kept else [],
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
            # keptAt answers what the array holds, and keptCount its length.
            assert answer["alone"] == [kept[number] for number in edit["at"]]
            assert answer["count"] == len(kept)
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
        edit = {"gone": [at], "added": [bases[at]], "unmoved": at, "by": 1, "look": False, "at": []}
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


# An edit's answer, cloned and made JSON, then `keptAt` given bad numbers.
CHANGE = """
const { ChunkRuns } = await import(process.argv[1]);
const chunk = (index) => ({ text: `c${index}`, startOffset: index, endOffset: index + 1, index });
const { change } = ChunkRuns.of([0, 1, 2].map(chunk), true).edited([1], [], 0, 0);
const failures = [-1, 2, 1.5, '0'].map((number) => {
  try { change.keptAt(number); return null; } catch (e) { return [e.constructor.name, e.field]; }
});
console.log(JSON.stringify({ clone: structuredClone(change), json: change, failures }));
"""


def test_a_change_clones_as_its_three_arrays_and_keptat_names_a_bad_number():
    done = subprocess.run(
        ["node", "--input-type=module", "-e", CHANGE, MODULE.as_uri()],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    seen = json.loads(done.stdout)
    kept = [
        {"text": "c0", "startOffset": 0, "endOffset": 1, "index": 0},
        {"text": "c2", "startOffset": 2, "endOffset": 3, "index": 1},
    ]
    removed = [{"text": "c1", "startOffset": 1, "endOffset": 2, "index": 1}]
    assert seen["clone"] == seen["json"] == {"kept": kept, "removed": removed, "added": []}
    assert seen["failures"] == [
        ["RangeError", "number"],
        ["RangeError", "number"],
        ["TypeError", "number"],
        ["TypeError", "number"],
    ]
