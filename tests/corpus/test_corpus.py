"""The engine reproduces the recorded corpus of seeded play (tests/corpus/record.py).

The default run replays every tenth hand; ``-m slow`` replays all of it. A refusal whose words
changed is allowed only where the list below names the change.
"""

from __future__ import annotations

import pytest

from . import record

IMPROVED: dict[str, str] = {}
"""Refusal texts reworded on purpose: recorded text -> text now."""


def _check(every: int) -> None:
    comparison = record.compare(every)
    assert comparison.hands > 0
    assert not comparison.changed, "hands that play differently: " + ", ".join(
        comparison.changed[:10])
    unexpected = {old: new for (old, new) in comparison.texts if IMPROVED.get(old) != new}
    assert not unexpected, "\n".join(f"{o!r} -> {n!r}" for o, n in list(unexpected.items())[:10])


def test_the_corpus_holds_enough_decisions() -> None:
    doc = record.load()
    assert doc["decisions"] >= 200_000
    assert {h["config"] for h in doc["hands"]} == {c.name for c in record.configs()}


def test_a_sample_of_the_corpus_replays_exactly() -> None:
    _check(every=10)


@pytest.mark.slow
def test_the_whole_corpus_replays_exactly() -> None:
    _check(every=1)
