"""The spelling of actions as ids is one-to-one with the legal list, on every preset.

From a position, enumerating every path through :class:`Choice` (each id it allows, until an
action completes) must give each legal action exactly once, with no dead end on the way; and
``encode``/``decode`` must be inverse on those spellings.
"""

from __future__ import annotations

import pytest

from canasta import Action, State, get_rules, legal_actions, new_hand, parse_action
from canasta.rl import encoding as enc
from canasta.rl.encoding import Choice, decode, encode, id_text
from tests.playouts import ALL_PRESETS, random_hand


def spellings(choice: Choice) -> list[tuple[tuple[int, ...], Action]]:
    """Every complete spelling reachable from ``choice``, by depth-first enumeration."""
    out: list[tuple[tuple[int, ...], Action]] = []
    stack = [choice]
    while stack:
        node = stack.pop()
        ids = node.ids()
        assert ids, f"dead end after {[id_text(i) for i in node.prefix]}"
        assert ids == sorted(set(ids))
        for i in ids:
            nxt = node.after(i)
            if nxt.action is not None:
                assert nxt.ids() == []
                out.append((nxt.prefix, nxt.action))
            else:
                stack.append(nxt)
    return out


def assert_one_to_one(state: State) -> int:
    legal = legal_actions(state)
    found = spellings(Choice(legal))
    assert len(found) == len(legal)
    assert sorted(map(str, (a for _, a in found))) == sorted(map(str, legal))
    for ids, action in found:
        assert encode(action) == ids
        assert decode(ids) == action
    return len(legal)


def sampled_positions(preset: str, seeds: range, every: int) -> list[State]:
    """Positions of random hands: every ``every``-th one, and each with a long legal list."""
    states: list[State] = []
    for seed in seeds:
        for i, (state, legal, _, _) in enumerate(random_hand(preset, seed)):
            if i % every == 0 or len(legal) > 40:
                states.append(state)
    return states


@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_finished_spellings_are_the_legal_actions_each_once(preset: str) -> None:
    positions = sampled_positions(preset, range(6), every=2)
    legal = [a for state in positions if assert_one_to_one(state) for a in legal_actions(state)]
    # the positions hold the hard cases: several groups in one action, wild cards, takes
    assert any(len(a.groups) > 1 for a in legal)
    assert any(c >= 48 for a in legal for g in a.groups for c in g.cards)
    assert any(a.verb == "take" and a.groups for a in legal)


def test_single_ids_never_begin_a_longer_spelling() -> None:
    singles = {enc.DRAW_ID, enc.PASS_ID, enc.ASK_ID, enc.YES_ID, enc.NO_ID,
               *range(enc.DISCARD, enc.GROUP)}
    for text in ("take", "take 7h 7d", "meld Kh Kd Ks", "meld 7: 2c", "take Ac Ad, Kh Kd Ks"):
        ids = encode(parse_action(text))
        assert ids[0] not in singles and ids[-1] == enc.END and enc.END not in ids[:-1]
    for text in ("draw", "pass", "ask", "yes", "no", "discard JK"):
        assert len(encode(parse_action(text))) == 1


def test_the_alphabet_has_125_ids_with_distinct_names() -> None:
    assert enc.NUM_IDS == 125
    names = [id_text(i) for i in range(enc.NUM_IDS)]
    assert len(set(names)) == enc.NUM_IDS
    assert names[enc.DRAW_ID] == "draw" and names[enc.END] == "end"
    with pytest.raises(ValueError):
        id_text(enc.NUM_IDS)


@pytest.mark.parametrize("ids", [(), (enc.END,), (enc.ADD,), (enc.TAKE_ID,),
                                 (enc.GROUP + 9, 37, 36, enc.END),  # cards out of order
                                 (enc.GROUP + 3, 12, 13, 14, enc.GROUP + 9, 36, 37, 38,
                                  enc.END),  # groups out of order
                                 (enc.GROUP + 9, enc.DRAW_ID, enc.END),
                                 (enc.DRAW_ID, enc.END)])
def test_decode_refuses_what_is_not_a_canonical_spelling(ids: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        decode(ids)


def test_an_id_outside_the_mask_is_refused_and_changes_nothing() -> None:
    state = new_hand(get_rules("classic"), seed=1)
    choice = Choice(legal_actions(state))
    before = choice.ids()
    with pytest.raises(ValueError, match="not legal"):
        choice.after(enc.DISCARD + 5)
    assert choice.ids() == before and choice.prefix == ()
    done = choice.after(enc.DRAW_ID)
    with pytest.raises(ValueError, match="complete"):
        done.after(enc.DRAW_ID)


HOUSE = get_rules("classic").replace(ask_before_draw=True, last_red_three_may_meld=True,
                                     one_card_pile_take_ban="stock_out")
"""House rules that add actions: asking before the draw, melding after a last red three."""


def test_house_rules_spell_one_to_one_asking_before_the_draw_included() -> None:
    import random

    from canasta import apply, new_hand
    from canasta.state import DRAW

    asked_first = checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = new_hand(HOUSE, seed=seed)
        while not state.is_over:
            legal = legal_actions(state)
            if state.phase == DRAW and any(a.verb == "ask" for a in legal):
                asked_first += 1
                assert enc.ASK_ID in Choice(legal).ids()
            if checked < 400 or state.phase == DRAW:
                assert_one_to_one(state)
                checked += 1
            state = apply(state, legal[rng.randrange(len(legal))])
    assert asked_first > 0 and checked > 400


@pytest.mark.slow
@pytest.mark.parametrize("preset", ALL_PRESETS)
def test_every_position_of_many_hands_spells_one_to_one(preset: str) -> None:
    count = sum(assert_one_to_one(state) > 0 for state in sampled_positions(preset, range(40), 1))
    assert count > 1000
