"""Play seeded random hands and print one digest per hand of every state and legal list.

Run by ``tests/builds/test_builds.py`` once with the pure-Python sources and once with the
compiled build; the two outputs must be identical. Each line is ``preset seed digest``; the hand
replays from its seed alone (``canasta.new_hand(rules, seed=seed, dealer=seed % players)``, the
choices from ``random.Random(seed)``).

Usage: ``python digest_playouts.py HANDS [--pure SRC] [PRESET ...]`` (every preset by default).
With ``--pure SRC`` the sources in ``SRC`` are imported, whatever is installed. The presets of
the other families than the first play :func:`hands_of` hands (fewer: their positions are
digested through their JSON, which costs more).

The digest chains Python's ``hash`` of every state's fields and of every legal list (cheap: the
comparison plays 2,000 hands of each classic preset per build), so both runs need the same
``PYTHONHASHSEED``. ``hash(None)`` differs from process to process, so the fields that may hold
``None`` go in as their ``repr``; the last state of each hand goes in whole as its ``repr``. A
position of another family goes in as its JSON at every decision.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys

MAY_BE_NONE = ("melds", "answer", "lone_hand", "result")
"""State fields that may hold ``None`` (hashed through their ``repr``)."""
OTHER_FAMILY_HANDS = 200
"""The most hands of each preset of a family other than the first."""


def hands_of(preset: str, hands: int) -> int:
    """How many hands of ``preset`` are digested when the first family's presets play
    ``hands``."""
    import canasta

    first = canasta.families()[0]
    return hands if canasta.family_of(preset) is first else min(hands, OTHER_FAMILY_HANDS)


def _json(position: object) -> str:
    """A position of any family as its JSON text, keys sorted: everything it holds, written
    the same by both builds (a ``repr`` may list a set in another order)."""
    import json

    import canasta

    return json.dumps(canasta.state_to_json(position), sort_keys=True)


def digest_hand(rules: object, seed: int) -> str:
    """The digest of one random hand: every state (all fields) and every legal list, in order."""
    import canasta
    from canasta.state import FIELDS, HandState

    assert isinstance(rules, canasta.Rules)
    exact = [name for name in FIELDS if name not in MAY_BE_NONE and name != "rules"]
    state = canasta.new_hand(rules, seed=seed, dealer=seed % rules.num_players)
    choice = random.Random(seed).choice
    chain = 0
    if not isinstance(state, HandState):  # another family's position: its JSON
        while not state.is_over:
            actions = canasta.legal_actions(state)
            chain = hash((chain, _json(state), tuple(actions)))
            state = canasta.apply(state, choice(actions))
        return hashlib.blake2b(repr((chain, _json(state))).encode(), digest_size=12).hexdigest()
    while not state.is_over:
        actions = canasta.legal_actions(state)
        # the rules are the same all hand long; a list hashes as the tuple of its actions
        chain = hash((chain, tuple(getattr(state, name) for name in exact),
                      repr(tuple(getattr(state, name) for name in MAY_BE_NONE)),
                      tuple(actions)))
        state = canasta.apply(state, choice(actions))
    last = repr((chain, state.fields()[1:])).encode()
    return hashlib.blake2b(last, digest_size=12).hexdigest()


def main(argv: list[str]) -> int:
    """Print ``preset seed digest`` for ``HANDS`` hands of each preset."""
    hands = int(argv[0])
    rest = argv[1:]
    if rest[:1] == ["--pure"]:
        sys.path.insert(0, rest[1])
        rest = rest[2:]
    import canasta

    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("digest_playouts.py needs PYTHONHASHSEED=0 (the same hashes in every run)")
    print(f"compiled {canasta.COMPILED}")
    presets = rest or sorted(canasta.PRESETS)
    for name in presets:
        rules = canasta.get_rules(name)
        for seed in range(hands_of(name, hands)):
            print(name, seed, digest_hand(rules, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
