"""The legal-action list is sound and complete (NOTATION §5).

Sound: no illegal action is listed (every listed action applies: see test_random_hands).
Complete: every legal way to play the turn can be made from listed actions. The test tries many
candidate actions built by brute force (melds and takes of every sub-multiset of the relevant
cards, several groups for openings) on positions from random hands. Every candidate that the
engine accepts must either be listed, or lead to a position that listed actions also reach
(e.g. a take with three natural cards = the listed take with a pair, then a meld of the third).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest

from canasta import Action, Group, IllegalActionError, State, apply, legal_actions
from canasta.actions import DRAW, canonical, make_group
from canasta.cards import IS_BLACK_THREE, IS_NATURAL, IS_WILD, RANK_OF, Card
from canasta.position import state_to_json
from canasta.rules import get_rules
from tests.playouts import ALL_PRESETS, last_stock_card_red_three, other_readings, random_hand


def key(state: State) -> str:
    """A state as text, ignoring the order in which a turn's melds were made and the public
    bookkeeping of cards known to be in hands (which differs with the order cards were shown)."""
    data: dict[str, Any] = state_to_json(state)
    data.pop("known", None)
    turn = data.pop("turn", None)
    if turn is not None:
        turn.pop("melded")
        turn["created"] = sorted(turn["created"])
        data["turn"] = turn
    return repr(sorted(data.items(), key=lambda kv: kv[0]))


def on_the_way(state: State, target: State) -> bool:
    """Can ``state`` still grow into ``target`` by laying more cards from the same hand?"""
    seat = target.to_move
    if Counter(target.hands[seat]) - Counter(state.hands[seat]):
        return False
    for mine, theirs in zip(state.melds, target.melds, strict=True):
        for a, b in zip(mine, theirs, strict=True):
            if a is not None and (b is None or Counter(a) - Counter(b)):
                return False
    return True


def reachable(state: State, target: State, target_key: str, depth: int) -> bool:
    if key(state) == target_key:
        return True
    if depth == 0 or state.is_over:
        return False
    for action in legal_actions(state):
        if action.verb not in ("meld", "take"):
            continue
        after = apply(state, action)
        if after.is_over != target.is_over and after.is_over:
            continue
        if on_the_way(after, target) and reachable(after, target, target_key, depth - 1):
            return True
    return False


def sub_multisets(cards: list[Card], low: int, high: int) -> list[tuple[Card, ...]]:
    out: set[tuple[Card, ...]] = set()
    for k in range(low, min(high, len(cards)) + 1):
        out.update(itertools.combinations(sorted(cards), k))
    return sorted(out)


def candidates(state: State, rng: random.Random) -> list[Action]:
    """Brute-force actions to try in this position."""
    hand = list(state.hands[state.to_move])
    wilds = [c for c in hand if IS_WILD[c]]
    by_rank: dict[int, list[Card]] = {}
    for c in hand:
        if IS_NATURAL[c]:
            by_rank.setdefault(RANK_OF[c], []).append(c)
    out: list[Action] = []
    if state.phase == "draw" and state.pile and IS_NATURAL[state.pile[-1]]:
        rank = RANK_OF[state.pile[-1]]
        tops = [make_group(list(g), rank) for g in sub_multisets(by_rank.get(rank, []) + wilds,
                                                                   0, 6)]
        for top in tops:
            out.append(Action("take", (top,) if top.cards else ()))
        out.append(Action("take", (make_group(by_rank.get(rank, []) + wilds, rank),)))
        extras = [make_group(list(g)) for r, cs in by_rank.items() if r != rank
                  for g in sub_multisets(cs + wilds[:1], 3, 4)]
        for top in rng.sample(tops, min(len(tops), 6)):
            for extra in rng.sample(extras, min(len(extras), 6)):
                if top.cards and not set(extra.cards) & set(wilds) - set(top.cards):
                    out.append(canonical(Action("take", (top, extra))))
    if state.phase == "play":
        groups: list[Group] = []
        for rank in range(11):
            naturals = by_rank.get(rank, [])
            for nat in sub_multisets(naturals, 0, 5):
                for wild in sub_multisets(wilds, 0, 3):
                    if nat or wild:
                        groups.append(make_group(list(nat + wild), rank))
        blacks = [c for c in hand if IS_BLACK_THREE[c]]
        groups += [make_group(list(g)) for g in sub_multisets(blacks, 3, 4)]
        out += [Action("meld", (g,)) for g in groups]
        # an opening of the whole hand by rank, wild cards on the longest group (a going out
        # in one action; once the side has melded, single groups reach it)
        ranks = sorted(by_rank, key=lambda r: -len(by_rank[r]))
        if ranks and not any(state.melds[state.owner_of(state.to_move)]):
            whole = [make_group(by_rank[r] + (wilds if i == 0 else []), r)
                     for i, r in enumerate(ranks)]
            if blacks:
                whole.append(make_group(blacks))
            out.append(canonical(Action("meld", tuple(whole))))
        multi = [g for g in groups if len(g.cards) >= 3 or len(hand) <= 4]
        for _ in range(60):
            if len(multi) < 2:
                break
            pick = rng.sample(multi, rng.choice((2, 3)) if len(multi) > 2 else 2)
            if len({g.rank for g in pick}) == len(pick):
                out.append(canonical(Action("meld", tuple(pick))))
    return out


def check_candidates(state: State, listed: set[Action], rng: random.Random, where: str,
                     ) -> tuple[int, int]:
    """Apply every candidate: an illegal one must not be listed, a legal one must be listed or
    reached from listed actions. Returns (legal candidates tried, reached)."""
    tried = reached = 0
    for action in candidates(state, rng):
        try:
            target = apply(state, action)
        except IllegalActionError:
            assert action not in listed, f"listed but illegal: {action}"
            continue
        tried += 1
        if action in listed:
            continue
        assert reachable(state, target, key(target), 4), (
            f"{where}: legal {action} is neither listed nor reached from listed actions "
            f"in\n{state}")
        reached += 1
    return tried, reached


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_legal_action_is_listed_or_reached(preset: str) -> None:
    rng = random.Random(17)
    tried = reached = 0
    for seed in range(20):
        for i, (state, legal, _, _) in enumerate(random_hand(preset, seed)):
            if state.phase not in ("draw", "play") or i % 3:
                continue
            t, r = check_candidates(state, set(legal), rng, f"{preset} seed {seed}")
            tried, reached = tried + t, reached + r
    assert tried > 200
    assert reached > 0 or preset == "korean-old"


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_legal_action_is_listed_or_reached_under_the_other_readings(preset: str) -> None:
    """RULES §8.2's other readings: one-card takes, asking before the draw (and the draw or
    take a "yes" or "no" then allows), melding on a last red three."""
    rng = random.Random(18)
    rules = other_readings(preset)
    tried = 0
    for seed in range(3):
        for i, (state, legal, _, _) in enumerate(random_hand(preset, seed, rules)):
            if state.phase not in ("draw", "play") or (i % 3 and state.answer is None):
                continue
            tried += check_candidates(state, set(legal), rng, f"{preset} seed {seed}")[0]
    assert tried > 200


@pytest.mark.parametrize("preset", [p for p in ALL_PRESETS
                                    if get_rules(p).stock_exhausted_rule != "void_draw"])
def test_a_last_red_three_turn_lists_every_meld(preset: str) -> None:
    """Positions from random hands where the next draw takes the stock's last card, a red
    three, under ``last_red_three_may_meld``: melds may leave cards, and ``pass`` ends."""
    rng = random.Random(19)
    rules = other_readings(preset)
    turns = 0
    for seed in range(8):
        for i, (state, _, _, _) in enumerate(random_hand(preset, seed)):
            if state.phase != "draw" or i % 4:
                continue
            cut = last_stock_card_red_three(state, rules)
            if cut is None:
                continue
            last = apply(cut, DRAW)
            if last.is_over:
                continue
            assert last.turn.last_red_three and not last.stock
            legal = legal_actions(last)
            assert legal[-1].verb == "pass" or last.answer == "yes"
            assert not any(a.verb == "discard" for a in legal)
            check_candidates(last, set(legal), rng, f"{preset} seed {seed}")
            turns += 1
    assert turns > 20
