"""`api.LiveDocument` through web/chunker.js in Chromium: under random edits of texts with
emoji (JavaScript string indices), its chunks equal the facade's fresh chunking after every
edit, every key in order; each edit's kept and added are the new chunks, kept and removed
the old; an edit copies none of the chunks it keeps (they are moved as they are read), after
many edits too; its kept and chunks() are plain arrays that clone, post and store in
IndexedDB; dispose frees it; bad indices reject naming the field."""

from __future__ import annotations

import json
import random

import pytest
from support.live_edits import PIECES, random_edits, utf16_index

# Applies `edits` ([start, end, replacement], JavaScript indices) to a LiveDocument of `text`
# made with `options`; after each, compares its chunks, its change and its text with a fresh
# chunking of the text as edited there. Answers the mismatches (none expected) and counts.
REPLAY = """async ([text, options, edits]) => {
  const { strategy = 'semantic', ...rest } = options;
  const fresh = (t) => strategy === 'semantic'
    ? new api.SemanticChunker(rest).chunk(t)
    : new api.ChunkingEngine().chunk(t, options);
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const doc = new api.LiveDocument(text, options);
  const wrong = [];
  let old = await doc.chunks(), current = text, kept = 0, added = 0, most = old.length;
  if (!same(old, await fresh(text))) wrong.push('made');
  for (const [number, [start, end, replacement]] of edits.entries()) {
    const change = await doc.edit(start, end, replacement);
    current = current.slice(0, start) + replacement + current.slice(end);
    const chunks = await doc.chunks();
    if (doc.text !== current) wrong.push(`${number}: text`);
    if (!same(chunks, await fresh(current))) wrong.push(`${number}: chunks`);
    const both = [...change.kept, ...change.added].sort((a, b) => a.index - b.index);
    if (!same(both, chunks)) wrong.push(`${number}: kept + added`);
    if (change.removed.some((c) => !same(c, old[c.index]))) wrong.push(`${number}: removed`);
    if (change.kept.length + change.removed.length !== old.length) wrong.push(`${number}: old`);
    kept += change.kept.length;
    added += change.added.length;
    old = chunks;
    most = Math.max(most, chunks.length);
  }
  await doc.dispose();
  return { wrong, kept, added, most };
}"""

SETTINGS = [
    {},
    {"targetSize": 120, "minSize": 20, "maxSize": 200, "overlap": 30, "spans": True},
    {"targetSize": 80, "overlap": 10, "overlapBoundary": "word", "maxTokens": 30},
    {"strategy": "fixed", "chunkSize": 90, "chunkOverlap": 20, "spans": True},
    {"strategy": "hierarchical", "chunkSize": 120, "chunkOverlap": 10, "spans": True},
    {"strategy": "layout", "chunkSize": 100, "chunkOverlap": 0},
]


@pytest.mark.parametrize("options", SETTINGS, ids=lambda o: o.get("strategy", "semantic"))
def test_random_edits_keep_the_chunks_of_a_fresh_chunking(chunker_page, options):
    rng = random.Random(46)
    text = "".join(rng.choices(PIECES, k=400))
    edits = random_edits(len(json.dumps(options)), text, 40)
    got = chunker_page.evaluate(REPLAY, [text, options, edits])
    assert got["wrong"] == []
    assert got["most"] > 10 and got["kept"] > got["added"]  # edits kept most chunks


def test_an_edit_that_joins_two_halves_of_a_pair_makes_one_character(chunker_page):
    got = chunker_page.evaluate(
        REPLAY,
        ["ab\ud83d", {"targetSize": 3, "minSize": 0, "overlap": 0}, [[3, 3, "\ude00 c"]]],
    )
    assert got["wrong"] == []


def test_dispose_frees_it_and_a_call_after_rejects(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const doc = new api.LiveDocument('# A\\n\\nOne.\\n');
          await doc.chunks();
          const freed = [await doc.dispose(), await doc.dispose()];
          const after = [];
          for (const attempt of [() => doc.chunks(), () => doc.edit(0, 0, 'x')]) {
            try { await attempt(); after.push(null); } catch (e) { after.push(e.message); }
          }
          return { freed, after };
        }"""
    )
    assert got["freed"] == [True, True]  # dispose answers its first promise again
    assert got["after"] == [
        "LiveDocument.chunks: this document was disposed",
        "LiveDocument.edit: this document was disposed",
    ]


@pytest.mark.parametrize(
    ("arguments", "error", "field"),
    [
        ("-1, 0, 'x'", "RangeError", "start"),
        ("2, 1, 'x'", "RangeError", "end"),
        ("0, 99, 'x'", "RangeError", "end"),
        ("1.5, 2, 'x'", "TypeError", "start"),
        ("0, '1', 'x'", "TypeError", "end"),
        ("0, 1, 5", "TypeError", "replacement"),
        ("4, 5, 'x'", "RangeError", "start"),  # between the two units of 😀
        ("0, 4, 'x'", "RangeError", "end"),
    ],
)
def test_a_bad_edit_rejects_naming_its_field_and_changes_nothing(
    chunker_page, arguments, error, field
):
    got = chunker_page.evaluate(
        f"""async () => {{
          const doc = new api.LiveDocument('ab 😀 cd', {{ targetSize: 3, minSize: 0 }});
          const before = await doc.chunks();
          let failure = null;
          try {{ await doc.edit({arguments}); }}
          catch (e) {{ failure = [e.constructor.name, e.field, e.message]; }}
          const after = await doc.chunks();
          await doc.dispose();
          return {{ failure, same: JSON.stringify(before) === JSON.stringify(after),
                    text: doc.text }};
        }}"""
    )
    assert got["failure"][:2] == [error, field], got["failure"]
    assert got["same"] and got["text"] == "ab 😀 cd"


def test_bad_options_reject_every_call_with_the_reason(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const doc = new api.LiveDocument('abc', { strategy: 'fixed', overlap: 3 });
          const failures = [];
          for (const attempt of [() => doc.edit(0, 1, 'x'), () => doc.chunks()]) {
            try { await attempt(); failures.push(null); }
            catch (e) { failures.push([e.constructor.name, e.field, e.message]); }
          }
          return failures;
        }"""
    )
    for failure in got:
        assert failure[:2] == ["TypeError", "options"]
        assert "overlap" in failure[2]


def test_replace_text_finds_the_edit(chunker_page):
    got = chunker_page.evaluate(
        """async () => {
          const text = '# A\\n\\nOne 😀.\\n\\n# B\\n\\nTwo.\\n\\n# C\\n\\nThree.\\n';
          const doc = new api.LiveDocument(text, { overlap: 0 });
          const change = await doc.replaceText(text.replace('Two', 'Deux 🎉'));
          const fresh = await new api.SemanticChunker({ overlap: 0 }).chunk(doc.text);
          return { removed: change.removed.map((c) => c.text), added: change.added.map((c) => c.text),
                   kept: change.kept.map((c) => [c.index, c.startOffset]),
                   c: doc.text.indexOf('# C'),
                   same: JSON.stringify(await doc.chunks()) === JSON.stringify(fresh) };
        }"""
    )
    assert got["removed"] == ["# B\n\nTwo.\n\n"]
    assert got["added"] == ["# B\n\nDeux 🎉.\n\n"]
    assert got["kept"] == [[0, 0], [2, got["c"]]]
    assert got["same"]


# Makes a LiveDocument of `text` and replaces the `text` of each chunk it answers with a
# getter that counts its reads: each copy the facade makes of a chunk (moving it) reads it
# once. Then `edits` (JavaScript indices), none read; then one more edit, its kept chunks
# read one (keptAt), then all (kept), then the chunks whole; counts the copies made at each
# step.
COPIES = """async ([text, edits, last]) => {
  const doc = new api.LiveDocument(text, { spans: true });
  let copies = 0;
  for (const chunk of await doc.chunks()) {
    const value = chunk.text;
    Object.defineProperty(chunk, 'text', {
      get() { copies++; return value; }, enumerable: true, configurable: true });
  }
  let current = text;
  for (const [start, end, replacement] of edits) {
    await doc.edit(start, end, replacement);
    current = current.slice(0, start) + replacement + current.slice(end);
  }
  copies = 0;
  const change = await doc.edit(...last);
  current = current.slice(0, last[0]) + last[2] + current.slice(last[1]);
  const counts = { edit: copies, kept: change.keptCount };
  change.keptAt(change.keptCount - 1);
  counts.one = copies;
  const kept = [...change.kept];
  counts.all = copies;
  const chunks = await doc.chunks();
  counts.whole = copies;
  counts.chunks = chunks.length;
  counts.same = JSON.stringify(chunks)
    === JSON.stringify(await new api.SemanticChunker({ spans: true }).chunk(current))
    && kept.every((chunk, number) => chunk === change.kept[number]);
  await doc.dispose();
  return counts;
}"""


@pytest.mark.parametrize("edits", [0, 300])
def test_an_edit_copies_no_kept_chunk_until_it_is_read(chunker_page, edits):
    text = "".join(f"# Part {n}\n\nWords of part {n}, 😀 then more.\n\n" for n in range(400))
    rng = random.Random(edits)
    typed = []
    for number in range(edits):
        at = utf16_index(text, rng.randrange(len(text) // 10, len(text) - len(text) // 10))
        typed.append([at, at, "x"] if number % 2 == 0 else [typed[-1][0], typed[-1][0] + 1, ""])
    middle = utf16_index(text, text.index("# Part 200"))
    got = chunker_page.evaluate(COPIES, [text, typed, [middle + 3, middle + 3, "y"]])
    assert got["same"]
    # The edit itself copied none of the ~200 chunks after it (the facade moved each into a
    # new object before); one read, one copy; and reading every chunk copies each at most once.
    assert got["edit"] == 0, got
    assert got["one"] == 1, got
    assert got["all"] <= got["kept"] and got["whole"] <= got["chunks"], got


# The arrays a LiveDocument answers, cloned, posted through a MessageChannel and stored in
# IndexedDB (none of which takes a Proxy), and read back.
SENT = """async (text) => {
  const doc = new api.LiveDocument(text, { spans: true });
  const change = await doc.edit(3, 3, 'x');
  const chunks = await doc.chunks();
  const again = await doc.chunks();
  again.reverse(); // the caller's own array: no later answer changes
  const third = await doc.chunks();
  const sent = { kept: change.kept, chunks, change };
  const cloned = structuredClone(sent);
  const channel = new MessageChannel();
  const posted = new Promise((resolve) => { channel.port2.onmessage = (e) => resolve(e.data); });
  channel.port1.postMessage(sent);
  const db = await new Promise((resolve, reject) => {
    const open = indexedDB.open(`live-arrays-${Math.random()}`, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('chunks');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const store = (mode) => db.transaction('chunks', mode).objectStore('chunks');
  const done = (request) => new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await done(store('readwrite').put(sent, 'sent'));
  const stored = await done(store('readonly').get('sent'));
  db.close();
  await doc.dispose();
  const json = JSON.stringify(sent);
  return { json, cloned: JSON.stringify(cloned), posted: JSON.stringify(await posted),
           stored: JSON.stringify(stored),
           own: again !== chunks && third !== chunks
             && third.every((chunk, at) => chunk === chunks[at]),
           shared: change.kept.every((chunk) => chunks[chunk.index] === chunk),
           arrays: [Array.isArray(change.kept), Array.isArray(chunks)] };
}"""


def test_kept_and_chunks_clone_post_and_store_in_indexeddb(chunker_page):
    text = "".join(f"# Part {n}\n\nWords of part {n}, 😀.\n\n" for n in range(40))
    got = chunker_page.evaluate(SENT, text)
    assert got["cloned"] == got["posted"] == got["stored"] == got["json"]
    sent = json.loads(got["json"])
    assert len(sent["kept"]) > 30 and len(sent["chunks"]) == len(sent["kept"]) + len(
        sent["change"]["added"]
    )
    assert sent["change"]["kept"] == sent["kept"]
    assert got["own"] and got["shared"] and got["arrays"] == [True, True]
