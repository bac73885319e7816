"""A corpus of seeded play that pins the engine's behaviour: every legal list, every state,
the rule each refused action names, and every hand's result.

Every preset is played as it is and with each rules field that changes play set another way
(:data:`VARIATIONS`), by uniformly random choices and by four ``heuristic-v1`` bots (frozen,
so that work on the bots leaves the corpus as it is), from seeded deals at several starting
scores (so the opening minimums vary). At every decision two
near-legal actions are tried besides the one played (:func:`probes`); a refused one records the
words of its refusal. The corpus file keeps, per hand, a digest of every legal list and every
position after every action (NOTATION §3 JSON: the public form, independent of the engine's
insides), the refusals in order (as indices into one table of texts) and the totals.

Only the public API is used (text actions, positions as JSON), so the corpus recorded from one
version of the engine checks any later one.

Usage::

    python -m tests.corpus.record write [--scale K]   # record the corpus (data/corpus.json.gz)
    python -m tests.corpus.record check [--every N]   # replay it; list every difference

``check`` prints each refusal text that changed (old -> new, with how often) and exits 1 when a
legal list, a state or a result differs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import canasta
from canasta import CanastaError, apply, legal_actions, new_hand, observe
from canasta.actions import format_action, parse_action
from canasta.position import state_to_json
from canasta.rules import PRESETS, Rules

DATA = Path(__file__).parent / "data" / "corpus.json.gz"

VARIATIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("draw-1", {"draw_count": 1}),
    ("draw-2", {"draw_count": 2}),
    ("no-cover", {"upcard_cover_kinds": frozenset()}),
    ("cover-black3", {"upcard_cover_kinds": frozenset({"wild", "red3", "black3"})}),
    ("freeze-wild-only", {"upcard_freeze_kinds": frozenset({"wild"})}),
    ("dealt-reds-kept", {"dealt_red_threes_replaced": False}),
    ("pile-reds-replaced", {"pile_red_threes_replaced": True}),
    ("values", {"card_values": (("JK", 40), ("2", 25), ("A", 15), ("K", 10), ("Q", 10),
                                ("J", 10), ("T", 10), ("9", 5), ("8", 10), ("7", 5),
                                ("6", 5), ("5", 0), ("4", 5))}),
    ("black3-value", {"black_three_value": 100}),
    ("red3-value", {"red_three_value": 200, "red_three_schedule": ()}),
    ("reds-not-negative", {"red_threes_negative_if_no_meld": False}),
    ("min-meld-4", {"min_meld_size": 4}),
    ("naturals-3", {"min_naturals_per_meld": 3}),
    ("wilds-1", {"max_wilds_per_meld": 1}),
    ("wilds-5", {"max_wilds_per_meld": 5}),
    ("wilds-le-naturals", {"wilds_must_not_exceed_naturals": True}),
    ("max-meld-8", {"max_meld_size": 8}),
    ("canasta-6", {"canasta_size": 6}),
    ("canasta-8", {"canasta_size": 8}),
    ("bonuses", {"natural_canasta_bonus": 700, "mixed_canasta_bonus": 250}),
    ("hidden-bonus", {"hidden_canasta_bonus": 100}),
    ("black3-sizes", {"black_three_meld_sizes": (3,)}),
    ("thresholds", {"initial_meld_thresholds": ((None, 10), (1500, 120), (3000, 150))}),
    ("no-exempt", {"concealed_out_minimum_exempt_on_stock_draw": False}),
    ("wild-no-freeze", {"pile_frozen_by_wild": False}),
    ("open-before-meld", {"pile_frozen_until_side_melds": False}),
    ("black3-freezes", {"black_three_freezes_pile": True}),
    ("no-natural-wild-take", {"unfrozen_take_natural_plus_wild": False}),
    ("no-meld-take", {"unfrozen_take_by_adding_to_meld": False}),
    ("canastas-0", {"min_canastas_to_go_out": 0}),
    ("canastas-1", {"min_canastas_to_go_out": 1}),
    ("canastas-2", {"min_canastas_to_go_out": 2}),
    ("out-discard", {"going_out_requires_discard": True}),
    ("out-bonuses", {"going_out_bonus": 300, "concealed_going_out_bonus": 50}),
    ("concealed-free", {"concealed_requires_own_canasta": False}),
    ("concealed-partner-melds", {"concealed_forbids_adding_to_partner_melds": False}),
    ("concealed-no-take", {"concealed_allows_pile_take": False}),
    ("no-asking", {"permission_question_enabled": False}),
    ("asks-1", {"permission_asks_per_hand": 1}),
    ("ask-before-draw", {"ask_before_draw": True}),
    ("void-draw", {"stock_exhausted_rule": "void_draw"}),
    ("void-draw-empty", {"stock_exhausted_rule": "void_draw", "draw_trigger": "stock_empty",
                         "draw_hand_scoring": "normal_without_out_bonus"}),
    ("end-after-discard", {"stock_exhausted_rule": "end_after_last_discard"}),
    ("continue-by-pile", {"stock_exhausted_rule": "continue_by_pile"}),
    ("no-forced-take", {"stock_out_forced_take": False}),
    ("ban-stock-out", {"one_card_pile_take_ban": "stock_out"}),
    ("ban-never", {"one_card_pile_take_ban": "never"}),
    ("last-red3-continues", {"red_three_last_card_ends_hand": False}),
    ("last-red3-melds", {"last_red_three_may_meld": True}),
    ("short-stock", {"hand_size": 15}),
)
"""Rules fields that change play, each set another way (a variation equal to the preset, or
one the preset cannot take, is left out)."""

SCORES = (0, 1500, 3000, 7000)
"""The starting score of every side in a hand, by seed (the opening minimum follows it)."""


@dataclass(frozen=True)
class Config:
    """One rule set of the corpus: a preset, or a preset with one variation."""

    name: str
    rules: Rules


def configs() -> list[Config]:
    """Every preset, then every valid variation of each."""
    out = [Config(p, PRESETS[p]) for p in sorted(PRESETS)]
    for preset in sorted(PRESETS):
        base = PRESETS[preset]
        for label, changes in VARIATIONS:
            try:
                rules = base.replace(**changes)
            except CanastaError:
                continue
            if rules == base:
                continue
            out.append(Config(f"{preset}+{label}", rules))
    return out


def hands_of(config: Config, scale: int) -> list[tuple[str, int]]:
    """The (mode, seed) pairs of a configuration: more for the presets themselves."""
    base = "+" not in config.name
    random_hands = (24 if base else 3) * scale
    heuristic_hands = (6 if base else 1) * scale
    return ([("random", s) for s in range(random_hands)]
            + [("heuristic", 1000 + s) for s in range(heuristic_hands)])


# -- probes: near-legal actions --------------------------------------------------------------

WILD_NAMES = ("2c", "2d", "2h", "2s", "JK")


def _rank(card: str) -> str:
    return card[0]


def _meld_probe(rng: random.Random, hand: list[str], melds: dict[str, list[str]]) -> str:
    wilds = [c for c in hand if c in WILD_NAMES]
    naturals = [c for c in hand if c not in WILD_NAMES]
    ranks = sorted({_rank(c) for c in naturals} | set(melds))
    if not ranks:
        return "meld " + " ".join(rng.sample(hand, min(len(hand), 3))) if hand else "meld 7c"
    groups = []
    for _ in range(1 if rng.random() < 0.75 else 2):
        rank = rng.choice(ranks)
        same = [c for c in naturals if _rank(c) == rank]
        cards = rng.sample(same, rng.randint(0, min(4, len(same)))) if same else []
        cards += rng.sample(wilds, rng.randint(0, min(3, len(wilds)))) if wilds else []
        if rng.random() < 0.1 and naturals:
            cards.append(rng.choice(naturals))  # another rank: a mixed group
        if not cards:
            cards = [rng.choice(hand)]
        if all(c in WILD_NAMES for c in cards) and rng.random() < 0.8:
            groups.append(f"{rank}: " + " ".join(cards))
        else:
            groups.append(" ".join(cards))
    return "meld " + ", ".join(groups)


def _take_probe(rng: random.Random, hand: list[str], pile: list[str]) -> str:
    if not pile or rng.random() < 0.3:
        return "take"
    top = _rank(pile[-1])
    same = [c for c in hand if _rank(c) == top and c not in WILD_NAMES]
    wilds = [c for c in hand if c in WILD_NAMES]
    cards = rng.sample(same, rng.randint(0, min(3, len(same)))) if same else []
    cards += rng.sample(wilds, rng.randint(0, min(2, len(wilds)))) if wilds else []
    if rng.random() < 0.15 and hand:
        cards.append(rng.choice(hand))
    return "take " + " ".join(cards) if cards else "take"


def _mutated(rng: random.Random, legal: list[str], hand: list[str]) -> str | None:
    """A listed meld or take with one card more or one card less."""
    laying = [a for a in legal if a.startswith(("meld ", "take "))]
    if not laying or not hand:
        return None
    verb, _, rest = rng.choice(laying).partition(" ")
    groups = [g.strip() for g in rest.split(",")] if rest else []
    if groups and rng.random() < 0.5:
        i = rng.randrange(len(groups))
        prefix, sep, cards_text = groups[i].rpartition(": ")
        cards = cards_text.split()
        if len(cards) > 1:
            cards.pop(rng.randrange(len(cards)))
            groups[i] = (prefix + sep if sep else "") + " ".join(cards)
    elif groups:
        i = rng.randrange(len(groups))
        groups[i] = groups[i] + " " + rng.choice(hand)
    else:
        groups = [rng.choice(hand)]
    return verb + " " + ", ".join(groups)


def probes(rng: random.Random, position: dict[str, Any], legal: list[str]) -> list[str]:
    """Two actions near the legal ones, drawn from ``rng`` (their texts)."""
    seat = position["to_move"]
    hand = position["hands"][seat]
    melds = position["sides"][seat % len(position["sides"])]["melds"]
    out = []
    for _ in range(2):
        kind = rng.random()
        text: str | None
        if kind < 0.15:
            text = rng.choice(("draw", "take", "ask", "yes", "no", "pass"))
        elif kind < 0.3:
            text = "discard " + (rng.choice(hand) if hand and rng.random() < 0.9 else "JK")
        elif kind < 0.55:
            text = _meld_probe(rng, hand, melds)
        elif kind < 0.7:
            text = _take_probe(rng, hand, position["pile"])
        else:
            text = _mutated(rng, legal, hand)
        if text is not None:
            out.append(text)
    return out


# -- playing ---------------------------------------------------------------------------------

@dataclass
class HandLog:
    """What one hand of the corpus records."""

    digest: str
    decisions: int
    refusals: list[str]
    totals: list[int]


def play_hand(rules: Rules, mode: str, seed: int) -> HandLog:
    """Play one seeded hand; returns its digest, decisions, refusal texts and totals."""
    from canasta.bots import make_bot

    n = rules.num_players
    start = SCORES[seed % len(SCORES)]
    state = new_hand(rules, seed=seed, dealer=seed % n, scores=[start] * rules.num_sides)
    choose = random.Random(seed)
    probe_rng = random.Random(seed * 7919 + 1)
    bots = [make_bot("heuristic-v1") for _ in range(n)] if mode == "heuristic" else None
    bot_rngs = [random.Random(seed * 10 + s) for s in range(n)]
    digest = hashlib.blake2b(digest_size=16)
    refusals: list[str] = []
    decisions = 0
    while not state.is_over:
        legal = legal_actions(state)
        texts = [format_action(a) for a in legal]
        position = state_to_json(state)
        digest.update(("\n".join(texts) + "\n#\n").encode())
        for text in probes(probe_rng, position, texts):
            try:
                action = parse_action(text)
                apply(state, action)
            except CanastaError as e:
                refusals.append(f"{type(e).__name__}: {e}")
            else:
                refusals.append("legal " + format_action(action))
        if bots is not None:
            seat = state.to_move
            action = bots[seat].choose(observe(state, seat), legal, bot_rngs[seat])
        else:
            action = choose.choice(legal)
        state = apply(state, action)
        decisions += 1
        digest.update(json.dumps(state_to_json(state), sort_keys=True).encode())
    assert state.result is not None
    return HandLog(digest.hexdigest(), decisions, refusals,
                   [side.total for side in state.result.sides])


def run(scale: int = 1, every: int = 1) -> Iterator[tuple[str, str, int, HandLog]]:
    """Play the corpus (every ``every``-th hand of each configuration)."""
    for config in configs():
        for i, (mode, seed) in enumerate(hands_of(config, scale)):
            if i % every == 0:
                yield config.name, mode, seed, play_hand(config.rules, mode, seed)


def write(scale: int) -> None:
    """Record the corpus from the engine as it is now."""
    messages: dict[str, int] = {}
    rows = []
    total = 0
    for name, mode, seed, log in run(scale):
        ids = [messages.setdefault(m, len(messages)) for m in log.refusals]
        rows.append({"config": name, "mode": mode, "seed": seed, "decisions": log.decisions,
                     "digest": log.digest, "refusals": ids, "totals": log.totals})
        total += log.decisions
    DATA.parent.mkdir(exist_ok=True)
    doc = {"engine": canasta.__version__, "scale": scale, "decisions": total,
           "messages": list(messages), "hands": rows}
    with gzip.open(DATA, "wt", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
    print(f"{len(rows)} hands, {total} decisions, {len(messages)} distinct refusals -> {DATA}")


def load() -> dict[str, Any]:
    """The recorded corpus."""
    with gzip.open(DATA, "rt", encoding="utf-8") as f:
        doc: dict[str, Any] = json.load(f)
    return doc


@dataclass
class Comparison:
    """How a replay of the corpus differs from the recording."""

    hands: int
    decisions: int
    changed: list[str]
    """Hands whose legal lists, states or totals differ (``config mode seed``)."""
    texts: Counter[tuple[str, str]]
    """Refusal texts that changed: (recorded, now) -> how often."""


def compare(every: int = 1, only: str | None = None) -> Comparison:
    """Replay every ``every``-th recorded hand (of configurations named ``only``, if given)."""
    doc = load()
    messages = doc["messages"]
    rules_of = {c.name: c.rules for c in configs()}
    result = Comparison(0, 0, [], Counter())
    for i, row in enumerate(doc["hands"]):
        if i % every or (only is not None and not row["config"].startswith(only)):
            continue
        log = play_hand(rules_of[row["config"]], row["mode"], row["seed"])
        result.hands += 1
        result.decisions += log.decisions
        if (log.digest != row["digest"] or log.totals != row["totals"]
                or len(log.refusals) != len(row["refusals"])):
            result.changed.append(f"{row['config']} {row['mode']} {row['seed']}")
            continue
        for old_id, new in zip(row["refusals"], log.refusals):
            old = messages[old_id]
            if old != new:
                result.texts[(old, new)] += 1
    return result


def main(argv: list[str]) -> int:
    """``write [--scale K]`` or ``check [--every N] [--only CONFIG]``."""
    if not argv or argv[0] not in ("write", "check"):
        print(__doc__)
        return 2
    opts = dict(zip(argv[1::2], argv[2::2]))
    if argv[0] == "write":
        write(int(opts.get("--scale", 1)))
        return 0
    comparison = compare(int(opts.get("--every", 1)), opts.get("--only"))
    print(f"replayed {comparison.hands} hands, {comparison.decisions} decisions")
    for hand in comparison.changed:
        print("DIFFERS", hand)
    for (old, new), count in comparison.texts.most_common():
        print(f"refusal text x{count}:\n  was: {old}\n  now: {new}")
    return 1 if comparison.changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
