"""The id-by-id driver of the environments: spelling, whole actions, hands and points."""

from __future__ import annotations

import random

import pytest

from canasta import get_rules, parse_action
from canasta.rl.encoding import DRAW_ID, END, encode
from canasta.rl.table import Table, hand_returns, seat_returns
from canasta.rl.tensor import max_side_points


def play_out(table: Table, rng: random.Random) -> list[list[float]]:
    """Random legal ids to the end; the points of each hand as it ended."""
    ended = []
    while not table.over:
        table.play(rng.choice(table.legal_ids()))
        if table.finished is not None:
            ended.append(table.finished)
    return ended


def test_hands_follow_one_another_and_their_points_add_up() -> None:
    table = Table(get_rules("classic-3p"), hands=3)
    table.reset(seed=4)
    ended = play_out(table, random.Random(4))
    assert 1 <= len(ended) <= 3
    assert table.returns == pytest.approx([sum(h[p] for h in ended) for p in range(3)])
    assert all(abs(sum(h)) < 1e-9 for h in ended)  # zero-sum
    assert len(table.game.finished) + (0 if table.game.is_over else 1) >= len(ended)
    bound = max_side_points(table.rules) * 2
    assert all(abs(x) <= bound for h in ended for x in h)
    assert table.legal_ids() == []
    with pytest.raises(ValueError, match="over"):
        table.play(DRAW_ID)


def test_an_illegal_id_or_action_changes_nothing() -> None:
    table = Table(get_rules("classic"))
    table.reset(seed=2)
    state, ids = table.state, table.legal_ids()
    with pytest.raises(ValueError):
        table.play(END)
    with pytest.raises(ValueError, match="not legal"):
        table.play_action(parse_action("discard 7h"))
    assert table.state is state and table.legal_ids() == ids
    table.play_action(parse_action("draw"))
    meld = next(a for a in table.choice.actions() if a.verb == "meld") \
        if any(a.verb == "meld" for a in table.choice.actions()) else None
    if meld is not None:
        table.play(encode(meld)[0])
        with pytest.raises(ValueError, match="half spelled"):
            table.play_action(meld)


def test_the_hand_result_is_shared_by_the_partners() -> None:
    table = Table(get_rules("classic"))
    table.reset(seed=9)
    play_out(table, random.Random(9))
    points = hand_returns(table.state)
    assert points[0] == points[2] == -points[1] == -points[3]
    assert points == table.returns


@pytest.mark.parametrize("preset", ["classic", "classic-3p-cutthroat", "classic-6p-3x2"])
def test_seat_returns_are_the_side_lead_over_the_others_mean(preset: str) -> None:
    rules = get_rules(preset)
    totals = [1230, -45, 610][:rules.num_sides]
    returns = seat_returns(rules, totals)
    for seat, r in enumerate(returns):
        side = rules.side_of(seat)
        others = [t for s, t in enumerate(totals) if s != side]
        assert r == totals[side] - sum(others) / len(others)
    by_side = {rules.side_of(seat): r for seat, r in enumerate(returns)}
    assert sum(by_side.values()) == pytest.approx(0.0)
