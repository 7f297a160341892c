"""When the web process collects garbage (remi_site.collector): the generation that is
due after each answer, and full collections once the heap has grown by a quarter."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest

from remi_site import collector


@pytest.fixture
def collections(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], SimpleNamespace]:
    """The generations collected, and the heap's size in blocks (a full collection
    brings it back to ``heap.live``)."""
    real = gc.collect
    heap = SimpleNamespace(blocks=1_000_000, live=1_000_000)
    done: list[int] = []

    def collect(generation: int = 2) -> int:
        done.append(generation)
        if generation == 2:
            # Counted, not run: a full collection of a test process's heap takes long.
            heap.blocks = heap.live
            return real(1)
        return real(generation)

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(collector, "heap_blocks", lambda: heap.blocks)
    monkeypatch.setattr(collector, "_full_due_at", 0)
    return done, heap


def middle_generation_due() -> None:
    for _ in range(collector.MIDDLE_EVERY):
        gc.collect(0)  # each counts one toward the middle generation


def test_the_young_generation_is_collected_after_an_answer(collections) -> None:
    done, _heap = collections
    gc.collect(1)  # the young and middle generations start empty
    done.clear()
    keep = [[] for _ in range(100)]  # noqa: F841  (young objects)

    collector.between_requests()

    assert done == [0]


def test_the_middle_generation_is_collected_every_hundred_answers(collections) -> None:
    done, _heap = collections
    collector._full_collection_done()  # the heap has not grown since
    gc.collect(1)  # the young and middle generations start empty
    for _ in range(collector.MIDDLE_EVERY - 1):
        gc.collect(0)
    done.clear()
    keep = [[] for _ in range(100)]  # noqa: F841  (young objects)

    collector.between_requests()
    collector.between_requests()

    assert done == [0, 1]


def test_a_full_collection_waits_until_the_heap_grew_by_a_quarter(collections) -> None:
    done, heap = collections

    def answer() -> list[int]:
        done.clear()
        collector.between_requests()
        return done[:]

    middle_generation_due()
    first = answer()  # the heap is back to 1,000,000 blocks: the next is due at 1,250,000
    middle_generation_due()
    heap.blocks = 1_249_999
    too_soon = answer()
    middle_generation_due()
    heap.blocks = 1_250_000
    due = answer()

    assert (first, too_soon, due) == ([2], [1], [2])


def test_garbage_piling_up_faster_does_not_delay_the_next_full_collection(collections) -> None:
    """Each spell of growth gets its full collection, whatever the spells before it
    left: under load the heap and the pauses stay bounded."""
    done, heap = collections
    fulls = 0
    for _ in range(50):
        middle_generation_due()
        heap.blocks += 300_000  # the cyclic garbage of a busy spell
        done.clear()
        collector.between_requests()
        fulls += done.count(2)

    assert fulls == 50
