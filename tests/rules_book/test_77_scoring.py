"""RULES §7.7 — scoring, exact arithmetic (scenarios #64 to #75).

Hands are played to their end through actions where the row describes them (#64, #65, #70,
#72–#74), or ended by a final discard from a prepared position (#66, #69, #75); rows that give
only a table (#67, #68, #71) are positions in phase ``over``, which the loader scores
(RULES §1.17). The four-player partnership rows run on the three four-player presets.
"""

from __future__ import annotations

import pytest

from canasta import SideResult, State, get_rules

from .builders import PRESETS, kind, over, position, presets_where
from .checks import play

FOUR_PLAYER = ["classic", "korean-old", "spruce-classic"]


def _parts(side: SideResult) -> tuple[int, int, int, int, int, int, int]:
    return (side.melded, side.canastas, side.hidden, side.red_threes, side.going_out,
            side.in_hand, side.total)


def _result(state: State) -> tuple[SideResult, ...]:
    assert state.is_over
    assert state.result is not None
    return state.result.sides


# -- #64, #65 ---------------------------------------------------------------------------------

def _s64_state(preset: str) -> State:
    """The position of #64 before N's turn.

    The row gives N six kings, a king on top of the pile and W two more: nine kings, one more
    than the 108-card pack holds. W holds two jacks instead (the same 20 points).
    """
    return position(
        preset, phase="draw",
        hands={0: "Kc Kd Kd Kh Kh Ks 8c 8c 8d 8d 2c", 1: "JK Ac 5c", 2: "Qc 9c 7c 3s",
               3: "Jc Jd 4d 2d"},
        pile="4c JK 8h Kc",
        melds={1: {"A": "Ad Ah As", "6": "6c 6d 6h 2h"}},
        red_threes={0: "3h 3d", 1: "3h"},
    )


def _s64_play(preset: str) -> State:
    state = _s64_state(preset)
    assert state.pile_frozen
    return play(state, "take Kc Kd Kd Kh Kh Ks", "meld 8c 8c 8d 8d 8h 2c JK", "discard 4c")


@pytest.mark.parametrize("preset", ["classic", "korean-old"])
def test_s64_full_hand_concealed_going_out_1360_75(preset: str) -> None:
    end = _s64_play(preset)
    assert end.result is not None
    assert (end.result.went_out, end.result.concealed) == (0, True)
    ns, ew = _result(end)
    assert _parts(ns) == (190, 800, 0, 200, 200, 30, 1360)
    assert _parts(ew) == (95, 0, 0, 100, 0, 120, 75)


@pytest.mark.parametrize("preset", ["spruce-classic"])
def test_s65_full_hand_spruce_hidden_kings_canasta_1460_75(preset: str) -> None:
    end = _s64_play(preset)
    assert end.result is not None and end.result.concealed
    ns, ew = _result(end)
    assert _parts(ns) == (190, 800, 100, 200, 200, 30, 1460)
    assert _parts(ew) == (95, 0, 0, 100, 0, 120, 75)


# -- #66 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", FOUR_PLAYER)
def test_s66_unmelded_side_red_threes_negative_minus_345(preset: str) -> None:
    state = position(preset, hands={0: "9c", 1: "JK Ac Tc 5c", 2: "", 3: "Ad Ah Qc Qd"},
                     melds={0: {"K": kind("K", 7)}}, red_threes={1: "3h 3d"})
    end = play(state, "discard 9c")
    ew = _result(end)[1]
    assert (ew.melded, ew.red_threes, ew.in_hand, ew.going_out) == (0, -200, 145, 0)
    assert ew.total == -345


# -- #67, #68 ---------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", presets_where(lambda r: r.red_three_score(4) == 800))
@pytest.mark.parametrize(("melded", "expected"), [(True, 800), (False, -800)])
def test_s67_all_four_red_threes_800(preset: str, melded: bool, expected: int) -> None:
    n = get_rules(preset).num_players
    end = over(preset, hands={s: "" for s in range(n)},
               melds={0: {"K": "Kc Kd Kh"}} if melded else {},
               red_threes={0: "3h 3h 3d 3d"})
    side = _result(end)[0]
    assert side.red_threes == expected
    assert side.total == expected + (30 if melded else 0)


@pytest.mark.parametrize("preset", PRESETS)
def test_s68_natural_canasta_of_seven_kings_570(preset: str) -> None:
    n = get_rules(preset).num_players
    end = over(preset, hands={s: "" for s in range(n)}, melds={0: {"K": kind("K", 7)}})
    side = _result(end)[0]
    assert (side.melded, side.canastas) == (70, 500)
    assert side.total == 570


# -- #69, #75 ---------------------------------------------------------------------------------

def _s69_state(preset: str) -> State:
    """S to discard its last spare card with the stock exhausted; W then cannot take the pile.

    NS: melds worth 300 with one mixed canasta (aces), one red three, hands 25 + 20 after the
    discard. EW: no melds, two red threes, hands 100 + 50.
    """
    return position(
        preset,
        to_move=2,
        hands={0: "Kc Kd 5c", 1: "JK JK", 2: "9c 9d 4c", 3: "Kh Qd Jd Th 9h"},
        stock="",
        pile="6h",
        melds={0: {"A": "Ac Ac Ad Ah As 2c 2d", "Q": "Qc Qc Qd Qh Qs",
                   "J": "Jc Jc Jd Jh Js", "T": "Tc Tc Td Td Th Ts"}},
        red_threes={0: "3h", 1: "3d 3d"},
    )


@pytest.mark.parametrize("preset", presets_where(
    lambda r: r.num_players == 4 and r.stock_exhausted_rule == "continue_by_pile"))
def test_s69_stock_ran_out_no_going_out_655_minus_350(preset: str) -> None:
    end = play(_s69_state(preset), "discard 4c")
    assert end.result is not None
    assert end.result.went_out is None and not end.result.void
    ns, ew = _result(end)
    assert _parts(ns) == (300, 300, 0, 100, 0, 45, 655)
    assert _parts(ew) == (0, 0, 0, -200, 0, 150, -350)


@pytest.mark.parametrize("preset", presets_where(lambda r: r.stock_exhausted_rule == "void_draw"))
def test_s75_stock_runs_out_void_draw_scores_nothing_korean_old(preset: str) -> None:
    end = play(_s69_state(preset), "discard 4c")
    assert end.result is not None
    assert end.result.void and end.result.went_out is None
    ns, ew = _result(end)
    assert (ns.total, ew.total) == (0, 0)
    assert end.scores == (0, 0)


# -- #70 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["classic-2p"])
def test_s70_two_player_going_out_1195_305(preset: str) -> None:
    state = position(
        preset,
        hands={0: "5c 5d 5h 4c", 1: "Kc Kd 7c JK"},
        melds={0: {"Q": "Qc Qc Qd Qd Qh Qh Qs", "9": "9c 9c 9d 9d 9h 9s JK"},
               1: {"A": "Ac Ad Ah 2c"}},
        red_threes={0: "3h", 1: "3d 3d 3h"},
    )
    end = play(state, "meld 5c 5d 5h", "discard 4c")
    assert end.result is not None
    assert (end.result.went_out, end.result.concealed) == (0, False)
    a, b = _result(end)
    assert _parts(a) == (70 + 110 + 15, 800, 0, 100, 100, 0, 1195)
    assert _parts(b) == (80, 0, 0, 300, 0, 75, 305)


# -- #71 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["classic-6p"])
@pytest.mark.parametrize(("reds", "expected"),
                         [("3h 3h 3d 3d", 400), ("3h 3h 3h 3d 3d", 1000),
                          ("3h 3h 3h 3d 3d 3d", 1200)], ids=["four", "five", "six"])
def test_s71_six_player_red_three_schedule(preset: str, reds: str, expected: int) -> None:
    assert get_rules(preset).red_three_score(len(reds.split())) == expected
    end = over(preset, hands={s: "" for s in range(6)}, melds={0: {"K": "Kc Kd Kh"}},
               red_threes={0: reds})
    side = _result(end)[0]
    assert side.red_threes == expected
    assert side.total == 30 + expected


# -- #72 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["spruce-classic"])
def test_s72_hidden_natural_canasta_from_hand_670(preset: str) -> None:
    state = position(preset, hands={0: kind("J", 7) + " 9c", 2: ""},
                     melds={0: {"K": "Kc Kd Kh"}})
    laid = play(state, f"meld {kind('J', 7)}")
    assert laid.hidden[0] == (7,)  # rank index of the jacks
    end = play(laid, "discard 9c")
    ns = _result(end)[0]
    assert (ns.melded, ns.canastas, ns.hidden) == (70 + 30, 500, 100)
    assert (ns.melded - 30) + ns.canastas + ns.hidden == 670


# -- #73 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["korean-old"])
def test_s73_korean_old_perfect_hula_895(preset: str) -> None:
    state = position(preset, phase="draw",
                     hands={0: kind("J", 7) + " 4c 4c 4d 4d", 2: "9c 6c"},
                     stock="2c 5d 9s Ts", red_threes={0: "3h"})
    state = play(state, "draw")
    assert len(state.hands[0]) == 13
    end = play(state, f"meld {kind('J', 7)}, 4c 4c 4d 4d 2c", "discard 5d")
    assert end.result is not None
    assert (end.result.went_out, end.result.concealed) == (0, True)
    ns = _result(end)[0]
    assert _parts(ns) == (110, 500, 0, 100, 200, 15, 895)


# -- #74 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", FOUR_PLAYER)
def test_s74_going_out_not_concealed_1120(preset: str) -> None:
    state = position(
        preset,
        hands={0: "Qh 7c", 2: "9c Tc"},
        melds={0: {"K": "Kc Kc Kd Kd Kh Kh Ks", "8": "8c 8c 8d 8d 8h 2c JK",
                   "Q": "Qc Qc Qd Qs"}},
    )
    end = play(state, "meld Qh", "discard 7c")
    assert end.result is not None
    assert (end.result.went_out, end.result.concealed) == (0, False)
    ns = _result(end)[0]
    assert _parts(ns) == (240, 800, 0, 0, 100, 20, 1120)
