"""Play seeded random hands and print one digest per hand of every state and legal list.

Run by ``tests/builds/test_builds.py`` once with the pure-Python sources and once with the
compiled build; the two outputs must be identical. Each line is ``preset seed digest``; the hand
replays from its seed alone (``canasta.new_hand(rules, seed=seed, dealer=seed % players)``, the
choices from ``random.Random(seed)``).

Usage: ``python digest_playouts.py HANDS [--pure SRC] [PRESET ...]`` (every preset by default).
With ``--pure SRC`` the sources in ``SRC`` are imported, whatever is installed.
"""

from __future__ import annotations

import hashlib
import random
import sys


def digest_hand(rules: object, seed: int) -> str:
    """The digest of one random hand: every state (all fields) and every legal list, in order."""
    import canasta

    assert isinstance(rules, canasta.Rules)
    state = canasta.new_hand(rules, seed=seed, dealer=seed % rules.num_players)
    choice = random.Random(seed).choice
    h = hashlib.blake2b(digest_size=12)
    while True:
        h.update(repr(state.fields()[1:]).encode())  # the rules are the same all hand long
        if state.is_over:
            return h.hexdigest()
        actions = canasta.legal_actions(state)
        h.update(repr(actions).encode())
        state = canasta.apply(state, choice(actions))


def main(argv: list[str]) -> int:
    """Print ``preset seed digest`` for ``HANDS`` hands of each preset."""
    hands = int(argv[0])
    rest = argv[1:]
    if rest[:1] == ["--pure"]:
        sys.path.insert(0, rest[1])
        rest = rest[2:]
    import canasta

    print(f"compiled {canasta.COMPILED}")
    presets = rest or sorted(canasta.PRESETS)
    for name in presets:
        rules = canasta.get_rules(name)
        for seed in range(hands):
            print(name, seed, digest_hand(rules, seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
