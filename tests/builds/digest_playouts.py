"""Play seeded random hands and print one digest per hand of every state and legal list.

Run by ``tests/builds/test_builds.py`` once with the pure-Python sources and once with the
compiled build; the two outputs must be identical. Each line is ``preset seed digest``; the hand
replays from its seed alone (``canasta.new_hand(rules, seed=seed, dealer=seed % players)``, the
choices from ``random.Random(seed)``).

Usage: ``python digest_playouts.py HANDS [--pure SRC] [PRESET ...]`` (every preset by default).
With ``--pure SRC`` the sources in ``SRC`` are imported, whatever is installed.

The digest chains Python's ``hash`` of every state's fields and of every legal list (cheap: the
comparison plays 2,000 hands of each preset per build), so both runs need the same
``PYTHONHASHSEED``. ``hash(None)`` differs from process to process, so the fields that may hold
``None`` go in as their ``repr``; the last state of each hand goes in whole as its ``repr``.
"""

from __future__ import annotations

import hashlib
import os
import random
import sys

MAY_BE_NONE = ("melds", "answer", "lone_hand", "result")
"""State fields that may hold ``None`` (hashed through their ``repr``)."""


def digest_hand(rules: object, seed: int) -> str:
    """The digest of one random hand: every state (all fields) and every legal list, in order."""
    import canasta
    from canasta.state import FIELDS

    assert isinstance(rules, canasta.Rules)
    exact = [name for name in FIELDS if name not in MAY_BE_NONE and name != "rules"]
    state = canasta.new_hand(rules, seed=seed, dealer=seed % rules.num_players)
    choice = random.Random(seed).choice
    chain = 0
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
        for seed in range(hands):
            print(name, seed, digest_hand(rules, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
