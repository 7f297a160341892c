"""When a web worker's garbage collector runs: between requests, not in the middle of one.

Django's models hold reference cycles (a prefetched seat points back to its game, a
user to the profile loaded with it), so every list leaves cyclic garbage that only
the collector frees. Left to its thresholds, CPython collects every 700 new objects,
in the middle of whichever request crossed the line: the objects that request was
still using are promoted to older generations, and every few requests a full
collection walks all of them. Measured with ``bench/scale.py`` (its ``GC ms``
column): pauses of 20 to 80 ms inside single requests, the p99 of most reads.

Instead, once the server is loaded (``settle``):

- everything loaded so far leaves the collector's sight (``gc.freeze``): a full
  collection walks only what requests created since;
- automatic collections wait for ``YOUNG_LIMIT`` new objects, a safety net for work
  that is not a request (websocket consumers, the publisher);
- after each answer is sent (``between_requests``, called by the ASGI handler), the
  young generation is collected: the request's own cyclic garbage, while it is
  small;
- every ``MIDDLE_EVERY`` answers, the middle generation instead. A request in flight
  lives through a dozen answers of the others: the young collections promote its
  objects, and its cyclic garbage waits in the middle generation. Each collection
  of that generation moves what is still alive then (the requests in flight) to the
  oldest: collected every tenth answer, as CPython would, nearly every request's
  garbage went on to the oldest generation;
- the oldest generation once the heap has grown by ``FULL_GROWTH`` since the last
  full collection ended (counted in the allocator's blocks, which
  ``sys.getallocatedblocks`` reads at once). Growth, not time, must decide: full
  collections spaced by a hundred times what the last one took diverged under
  sustained load (``bench/api.py --seconds 100``: pauses of 22, 89, 398 then
  1,996 ms, the heap five times its live size, the slowest move 2.6 s), each longer
  pause letting more garbage pile up before the next. Spaced by growth, the heap
  stays within a quarter of its live size and each pause within the work of
  freeing that quarter.
"""

from __future__ import annotations

import gc
import sys

YOUNG_LIMIT = 100_000
MIDDLE_EVERY = 100
FULL_GROWTH = 0.25
# For the automatic collections only (the safety net): CPython's own pace for the oldest
# generation, which also waits for a quarter's growth of it.
AUTOMATIC_OLDEST_EVERY = 10

heap_blocks = sys.getallocatedblocks
_full_due_at = 0  # the heap's size, in blocks, from which a full collection is due


def settle() -> None:
    """Freeze what is loaded, and leave the collections to ``between_requests``."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_LIMIT, MIDDLE_EVERY, AUTOMATIC_OLDEST_EVERY)
    _full_collection_done()


def _full_collection_done() -> None:
    global _full_due_at
    _full_due_at = int(heap_blocks() * (1 + FULL_GROWTH))


def between_requests() -> None:
    """Collect the generation that is due (the young one at least); returns at once
    when nothing was created since the last call."""
    young, middle, _old = gc.get_count()
    if middle >= MIDDLE_EVERY:
        # Only a collection of the middle generation moves objects to the oldest, so
        # only then can a full collection have become due.
        if heap_blocks() >= _full_due_at:
            gc.collect(2)
            _full_collection_done()
        else:
            gc.collect(1)
    elif young:
        gc.collect(0)
