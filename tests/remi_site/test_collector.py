"""When the web process collects garbage (remi_site.collector): the generation that is
due after each answer, and full collections spaced by what the last one took."""

from __future__ import annotations

import gc
from types import SimpleNamespace

import pytest

from remi_site import collector


@pytest.fixture
def collections(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], SimpleNamespace]:
    """The generations collected, and a clock that a full collection moves 0.5 s on."""
    real = gc.collect
    clock = SimpleNamespace(now=1000.0)
    done: list[int] = []

    def collect(generation: int = 2) -> int:
        done.append(generation)
        if generation == 2:
            clock.now += 0.5
        return real(generation)

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(collector, "time", SimpleNamespace(monotonic=lambda: clock.now))
    monkeypatch.setattr(collector, "_full_due_at", 0.0)
    return done, clock


def older_generations_due() -> None:
    for _ in range(collector.OLDER_EVERY):
        gc.collect(1)  # each counts one toward the oldest generation


def test_the_young_generation_is_collected_after_an_answer(collections) -> None:
    done, _clock = collections
    gc.collect(2)
    done.clear()
    keep = [[] for _ in range(10)]  # noqa: F841  (young objects)

    collector.between_requests()

    assert done == [0]


def test_a_full_collection_waits_a_hundred_times_what_the_last_one_took(collections) -> None:
    done, clock = collections

    def answer() -> list[int]:
        done.clear()
        collector.between_requests()
        return done[:]

    older_generations_due()
    first = answer()  # takes 0.5 s: the next may run 50 s after it ended
    older_generations_due()
    clock.now += 49
    too_soon = answer()
    clock.now += 1.5
    due = answer()

    assert (first, too_soon, due) == ([2], [1], [2])
