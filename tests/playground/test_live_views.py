"""The playground's views after a LiveDocument's edit (web/playground/chunkers.js's
`editedViews`, as typing makes them), in Chromium: under random edits of a text with emoji,
in every mode a LiveDocument cuts, they equal the views of a fresh run of the text but for
the keys (a kept chunk keeps its view's, an added one gets a new one); and they read a few of
the kept chunks (`keptAt`, which makes only those), never the array of them all."""

from __future__ import annotations

import random

import pytest
from support.live_edits import PIECES, random_edits

# For each edit: the views before, the LiveDocument's answer (its `keptAt` counting the
# chunks read, no `kept`), the views `editedViews` makes, and those of a fresh run of the
# text as edited.
REPLAY = """async ([query, text, edits]) => {
  const { editedViews, liveOptions, runChunker } = await import('/playground/chunkers.js');
  const { readQuery } = await import('/playground/settings.js');
  const { mode, values } = readQuery(query);
  const doc = new api.LiveDocument(text, liveOptions(mode, values));
  let views = (await runChunker(api, mode, values, text)).chunks, current = text;
  const wrong = [], reads = [];
  const unkeyed = ({ key, ...view }) => view;
  for (const [number, [start, end, replacement]] of edits.entries()) {
    const change = await doc.edit(start, end, replacement);
    current = current.slice(0, start) + replacement + current.slice(end);
    // The change as editedViews gets it, but for `kept` (which makes every kept chunk):
    // its keptAt counting the chunks read.
    let read = 0;
    const { removed, added: made, keptCount } = change;
    const keptAt = (number) => { read++; return change.keptAt(number); };
    const edited = editedViews(mode, values, views, { removed, added: made, keptCount, keptAt });
    reads.push([read, keptCount]);
    const fresh = (await runChunker(api, mode, values, current)).chunks;
    if (JSON.stringify(edited.map(unkeyed)) !== JSON.stringify(fresh.map(unkeyed))) {
      wrong.push(`${number}: views`);
    }
    // The kept ones keep their keys, in order; the added ones have new ones.
    const gone = new Set(change.removed.map((chunk) => chunk.index));
    const stayed = views.filter((view, index) => !gone.has(index)).map((view) => view.key);
    const added = new Set(change.added.map((chunk) => chunk.index));
    const keys = edited.filter((view, index) => !added.has(index)).map((view) => view.key);
    if (JSON.stringify(keys) !== JSON.stringify(stayed)) wrong.push(`${number}: keys`);
    const old = new Set(views.map((view) => view.key));
    if (edited.some((view, index) => added.has(index) && old.has(view.key))) {
      wrong.push(`${number}: new keys`);
    }
    views = edited;
  }
  await doc.dispose();
  return { wrong, reads };
}"""

QUERIES = [
    "mode=semantic&targetSize=120&maxSize=240&minSize=20&overlap=30",
    "mode=engine&strategy=fixed&chunkSize=90&chunkOverlap=20",
    "mode=engine&strategy=fixed&chunkSize=90&chunkOverlap=20&boundaries=content",
    "mode=engine&strategy=hierarchical&chunkSize=120&chunkOverlap=10",
    "mode=engine&strategy=layout&chunkSize=100&chunkOverlap=0",
]


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: q.split("&")[1])
def test_edited_views_are_a_fresh_runs_reading_few_kept_chunks(chunker_page, query):
    rng = random.Random(46)
    text = "".join(rng.choices(PIECES, k=400))
    got = chunker_page.evaluate(REPLAY, [query, text, random_edits(len(query), text, 30)])
    assert got["wrong"] == []
    # Those that tell, by halves, where the edit started moving them: about log2 of them.
    for read, kept in got["reads"]:
        assert read <= 2 * kept.bit_length() + 2, got["reads"]
    assert max(kept for _, kept in got["reads"]) > 20
