"""Smoke tests of the benchmark scripts: they run, and report what they promise.

Speed is measured by the scripts, never asserted here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _cpu() -> str:
    """A CPU this process may run on (CPU 0 may be fenced off in some containers)."""
    if hasattr(os, "sched_getaffinity"):
        return str(min(os.sched_getaffinity(0)))
    return "0"


def _run(script: str, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--cpu", _cpu(), *args],
        capture_output=True, text=True, timeout=120, env=env, check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _json_line(out: str) -> dict[str, Any]:
    lines = out.strip().splitlines()
    assert len(lines) == 1, out
    report = json.loads(lines[0])
    assert isinstance(report, dict)
    return report


def test_random_playout_json() -> None:
    report = _json_line(_run("random_playout.py", "--seconds", "1", "--no-baseline", "--json"))
    for key in ("hands_per_s", "decisions_per_s", "decisions_per_hand"):
        assert isinstance(report[key], (int, float)), key
        assert report[key] > 0, key
    assert report["hands"] >= 1
    assert report["decisions"] >= report["hands"]
    assert report["rules"] == "classic"
    assert report["baseline"] is None
    assert report["ratio"] is None


def test_random_playout_without_open_spiel(tmp_path: Path) -> None:
    # A stand-in pyspiel module that cannot be imported: the baseline is skipped, not fatal.
    (tmp_path / "pyspiel.py").write_text('raise ImportError("hidden by the test")\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)}
    report = _json_line(_run("random_playout.py", "--rules", "classic-2p", "--seconds", "0.2",
                             "--json", env=env))
    assert report["rules"] == "classic-2p"
    assert report["decisions_per_s"] > 0
    assert report["baseline"] is None
    assert "open_spiel" in report["baseline_note"]

    text = _run("random_playout.py", "--seconds", "0.2", env=env)
    assert "baseline skipped" in text
    assert "decisions/s" in text


def test_profile_playout() -> None:
    out = _run("profile_playout.py", "--seconds", "0.3", "--top", "5")
    assert "tottime" in out
    assert "cumtime" in out
    assert "legal_actions" in out


def test_selfplay_throughput_json() -> None:
    report = _json_line(_run("selfplay_throughput.py", "--rules", "classic-2p,modern-american",
                             "--bots", "easy", "--opponent", "random", "--arena-hands", "1",
                             "--seconds", "0.2", "--shard-hands", "1", "--json"))
    assert report["presets"] == ["classic-2p", "modern-american"]
    for loop in ("baseline", "selfplay", "arena"):
        assert report[loop]["hands"] >= 1 and report[loop]["hands_per_s"] > 0, loop
    assert report["selfplay"]["rows"] > report["selfplay"]["hands"]
    assert report["bytes_per_row"] > 0 and report["cluster_selfplay_rows_per_hour"] > 0
    assert report["classic-2p"]["rules"] == "classic-2p"
    modern = report["modern-american"]
    assert modern["bots"] == ["easy"] and modern["opponent"] == "random"
    for loop in ("baseline", "selfplay", "arena"):
        assert modern[loop]["hands"] >= 1 and modern[loop]["hands_per_cpu_s"] > 0, loop
    assert modern["arena"]["hands"] % 2 == 0  # duplicate deals, each played twice
    assert modern["selfplay"]["rows"] > modern["selfplay"]["hands"]
    assert modern["selfplay_over_baseline_cpu"] > 0 and modern["bytes_per_row"] > 0


def test_selfplay_throughput_prints_the_presets_side_by_side() -> None:
    out = _run("selfplay_throughput.py", "--rules", "classic-2p,modern-american", "--bots",
               "random", "--opponent", "random", "--arena-hands", "1", "--seconds", "0.1",
               "--shard-hands", "1")
    header = next(line for line in out.splitlines() if "classic-2p: random" in line)
    assert header.index("classic-2p") < header.index("modern-american: random")
    ratio = next(line for line in out.splitlines() if "selfplay / baseline" in line)
    assert ratio.count("(hands per CPU s)") == 2


def test_rl_playout_reports_every_path_against_the_native_one() -> None:
    report = _json_line(_run("rl_playout.py", "--rules", "classic-2p", "--seconds", "0.4",
                             "--rounds", "2", "--json"))
    paths = report["paths"]
    assert list(paths) == ["native", "openspiel", "openspiel+obs", "pettingzoo"]
    assert paths["native"]["share_of_native"] == 1.0
    for name, p in paths.items():
        assert p["hands"] >= 1 and p["engine_actions"] >= p["hands"], name
        assert p["ids"] >= p["engine_actions"], name  # an action is one id or more
        assert 0 < p["share_of_native_cpu"] < 10, name
    assert report["rounds"] == 2 and report["rules"] == "classic-2p"


def test_random_playout_also_runs_another_interpreter_and_names_the_builds() -> None:
    import canasta

    report = _json_line(_run("random_playout.py", "--seconds", "0.3", "--no-baseline",
                             "--json", "--also", sys.executable))
    assert report["compiled"] is canasta.COMPILED
    (other,) = report["also"]
    assert other["command"] == sys.executable and other["compiled"] is canasta.COMPILED
    assert other["hands_per_s"] > 0 and other["decisions"] >= other["hands"] >= 1
    text = _run("random_playout.py", "--seconds", "0.2", "--no-baseline", "--also",
                sys.executable)
    assert text.count("canasta, ") == 2 and "÷ this interpreter's" in text


def test_bots_speed() -> None:
    out = _run("bots_speed.py", "--iterations", "5", "--decisions", "2", "--game-pairs", "1",
               "--json")
    (report,) = json.loads(out)
    assert report["ismcts"]["iterations"] == 10 and report["ismcts"]["iterations_per_s"] > 0
    assert report["arena"]["hands"] >= 2 and report["arena"]["hands_per_s"] > 0


def _script(name: str) -> Any:
    """The module of the script ``benchmarks/NAME.py`` (benchmarks/ is not a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def _bot_audit() -> Any:
    """The bot_audit module of benchmarks/."""
    return _script("bot_audit")


def test_bot_audit_json_is_the_same_for_equal_bots() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bot_audit.py"), "--bots", "heuristic-v1,greedy",
         "--hands", "2", "--seed", "5", "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = _json_line(done.stdout)
    assert report["hands"] == 2 and set(report["bots"]) == {"heuristic-v1", "greedy"}
    greedy = report["bots"]["greedy"]
    assert greedy["wild_discard_pct"] == 0.0  # greedy throws a wild card only when forced
    assert greedy["counts"]["hands"] == 2 and greedy["counts"]["discards"] > 0
    bad = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bot_audit.py"), "--bots", "heuristic:keep_wilds=1"],
        capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "keep_wilds" in bad.stderr


def test_bot_audit_counts_wild_cards_feeds_and_gifts() -> None:
    from canasta.actions import DISCARDS
    from canasta.cards import parse_card
    from canasta.legal import legal_actions
    from tests.bots.helpers import position

    audit = _bot_audit()
    # the pile is frozen (a two in it): a wild card thrown there is counted twice
    state = position(pile=["4c", "2d", "8c"], stock=["5s", "6s", "7s"],
                     hands=[["2c", "9d", "Jh"], 8, 8, 8],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
                            {"score": 0, "melds": {"9": ["9c", "9c", "9h"]}}])
    tally = audit.Tally()
    audit._discard_facts(state, DISCARDS[parse_card("2c")], legal_actions(state), tally)
    assert (tally.discards, tally.wild_discards, tally.wild_onto_frozen) == (1, 1, 1)
    # an unfrozen pile: the nine lets the next player lay it off on their nines, the jack not
    state = position(pile=["4c", "6d", "8c"], stock=["5s", "6s", "7s"],
                     hands=[["2c", "9d", "Jh"], 2, 8, 8],
                     sides=[{"score": 0, "melds": {"K": ["Kc", "Kd", "Ks"]}},
                            {"score": 0, "melds": {"9": ["9c", "9c", "9h"]}}])
    legal = legal_actions(state)
    tally = audit.Tally()
    audit._discard_facts(state, DISCARDS[parse_card("Jh")], legal, tally)
    assert (tally.fed_discards, tally.feeds, tally.short_gifts) == (1, 0, 0)
    audit._discard_facts(state, DISCARDS[parse_card("9d")], legal, tally)
    assert (tally.fed_discards, tally.feeds, tally.short_gifts) == (2, 1, 1)
    assert tally.figures()["feed_pct"] == 50.0


def test_feed_floor_reports_calibration_and_the_floor_in_sight() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "feed_floor.py"), "--hands", "2", "--seed", "3",
         "--tolerance", "0", "100000"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    tenths = [line for line in lines if " / " in line and line.strip()[0].isdigit()]
    assert tenths and all(int(line.rsplit("(", 1)[1].rstrip(")")) > 0 for line in tenths)
    floors = [line for line in lines if line.strip().endswith("%") and "points:" in line]
    assert len(floors) == 2
    # seeing the hand and paying any price, it feeds no more than the bot (its wild cards are
    # the bot's own freezes and blocks, which feed nothing, so the floor keeps them)
    wild0, _, feed0 = (float(x.rstrip("%,")) for x in floors[0].split(":")[1].split())
    wild, onto, feed_any = (float(x.rstrip("%,")) for x in floors[1].split(":")[1].split())
    assert onto <= wild <= wild0 + 5.0 and feed_any <= feed0
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "feed_floor.py"), "--bot", "greedy"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "not a heuristic bot" in bad.stderr


def test_arena_merge_gives_the_arena_figure_and_pools_runs(tmp_path: Path) -> None:
    from canasta.interfaces.cli import main as canasta_main

    files = []
    for seed in (3, 4):
        path = tmp_path / f"run-{seed}.json"
        assert canasta_main(["arena", "--rules", "classic-2p", "--bots", "greedy", "random",
                             "--hands", "2", "--seed", str(seed), "--no-progress", "--json",
                             str(path)]) == 0
        files.append(path)
    own = json.loads(files[0].read_text())["pairings"][0]

    def merged(*paths: Path) -> dict[str, Any]:
        done = subprocess.run([sys.executable, str(BENCHMARKS / "arena_merge.py"), "--json",
                               *map(str, paths)],
                              capture_output=True, text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        return _json_line(done.stdout)

    one = merged(files[0])
    assert one["points_per_hand"] == own["points_per_hand"] and one["ci95"] == own["ci95"]
    assert (one["hands"], one["wins"]) == (own["hands"], own["wins"])
    both = merged(*files)
    second = json.loads(files[1].read_text())["pairings"][0]
    assert both["pairs"] == own["pairs"] + second["pairs"] and both["seeds"] == [3, 4]


def test_search_speed_times_each_spec_against_the_first() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "search_speed.py"), "--positions", "2",
         "--iterations", "4", "--specs", "ismcts:model=0", "ismcts:horizon=2", "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = _json_line(done.stdout)
    assert list(report["specs"]) == ["ismcts:model=0", "ismcts:horizon=2"]
    for figures in report["specs"].values():
        assert figures["iterations"] == 2 * 4 and figures["iterations_per_cpu_s"] > 0
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "search_speed.py"), "--specs",
                          "greedy"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "not a search bot" in bad.stderr


def test_bot_audit_counts_the_pile_points_handed_to_the_next_opponent() -> None:
    from canasta.actions import DISCARDS
    from canasta.cards import parse_card
    from tests.bots.helpers import position

    audit = _bot_audit()
    pile = ["4c", "6d", "8c", "9c", "Td", "Jc", "Qd", "Kc"]
    state = position(pile=pile, stock=["5s", "6s", "7s"],
                     hands=[["9d", "Jh", "Ah", "2c"], 8, 8, 8])
    handed = audit._handed(state, DISCARDS[parse_card("Ah")])
    # the next player (an opponent) would take the eight cards and the ace: 9 cards, 90 points
    assert (handed.taker, handed.cards, handed.frozen) == (1, 9, False)
    assert handed.points == sum(state.rules.value_of[c] for c in state.pile) + 20
    # a two on it freezes the pile: a feed of it is not one of an open pile
    assert audit._handed(state, DISCARDS[parse_card("2c")]).frozen
    tally = audit.Tally(discards=4, fed_points=90, big_fed_points=90, big_open_fed_points=60,
                        big_spared_fed_points=30)
    figures = tally.figures()
    assert figures["fed_points_per_discard"] == figures["big_fed_points_per_discard"] == 22.5
    assert figures["big_open_fed_points_per_discard"] == 15.0
    assert figures["big_spared_fed_points_per_discard"] == 7.5


def test_bot_audit_tells_a_big_feed_a_safe_natural_card_would_have_spared() -> None:
    from canasta.actions import DISCARDS
    from canasta.cards import parse_card
    from canasta.legal import legal_actions
    from tests.bots.helpers import position

    audit = _bot_audit()
    pile = ["4c", "6d", "8c", "9c", "Td", "Jc", "Qd", "Kc"]
    aces = ["Ad", "As", "5h", "6h", "7h", "8h", "Tc", "Qs"]  # the next player takes an ace
    state = position(pile=pile, stock=["5s", "6s", "7s"],
                     hands=[["9d", "Jh", "Ah", "2c"], aces, 8, 8])
    legal = legal_actions(state)
    # the ace feeds the pile, and the jack or the nine would have kept it: spared
    assert audit._handed(state, DISCARDS[parse_card("Ah")], legal).spared
    # the jack feeds nothing, so there is nothing to spare
    assert not audit._handed(state, DISCARDS[parse_card("Jh")], legal).spared
    # with the ace the only natural card, only the two blocks: a block left unmade, not spared
    state = position(pile=pile, stock=["5s", "6s", "7s"], hands=[["Ah", "2c"], aces, 8, 8])
    assert not audit._handed(state, DISCARDS[parse_card("Ah")], legal_actions(state)).spared
    # on a small pile the question is not asked
    state = position(pile=pile[:3], stock=["5s", "6s", "7s"],
                     hands=[["9d", "Jh", "Ah", "2c"], aces, 8, 8])
    assert not audit._handed(state, DISCARDS[parse_card("Ah")], legal_actions(state)).spared


def test_bot_audit_against_counts_one_side_of_the_same_hand() -> None:
    import dataclasses

    from canasta.rules import get_rules

    audit = _bot_audit()
    rules = get_rules("classic")
    for index in (0, 1, 2):
        whole = audit.audit_hand("heuristic", rules, 9, index)
        # against itself, the hand is the same: its two sides' counts add up to the whole
        halves = [audit.audit_hand("heuristic", rules, 9, index, "heuristic", side)
                  for side in (0, 1)]
        summed = audit.Tally()
        for half in halves:
            summed.add(half)
        for tally in (whole, summed):
            tally.seconds = 0.0
            tally.hands = 1
        assert dataclasses.asdict(summed) == dataclasses.asdict(whole), index
        assert all(0 < half.decisions < whole.decisions for half in halves)
        assert 0 <= whole.big_open_fed_points <= whole.big_fed_points <= whole.fed_points
    # against another bot the other seats play otherwise
    mixed = audit.audit_hand("heuristic", rules, 9, 0, "random", 0)
    alike = audit.audit_hand("heuristic", rules, 9, 0, "heuristic", 0)
    mixed.seconds = alike.seconds = 0.0
    assert dataclasses.asdict(mixed) != dataclasses.asdict(alike)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bot_audit.py"), "--bots", "heuristic", "--against",
         "heuristic-v2", "--hands", "2", "--seed", "5", "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert _json_line(done.stdout)["against"] == "heuristic-v2"
    bad = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bot_audit.py"), "--bots", "heuristic", "--against",
         "heuristic:keep_wilds=1"], capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "keep_wilds" in bad.stderr


def test_void_hands_counts_the_hands_korean_old_voids(tmp_path: Path) -> None:
    from canasta.interfaces.cli import main as canasta_main

    runs = {}
    for rules in ("korean-old", "classic"):
        runs[rules] = tmp_path / f"{rules}.json"
        assert canasta_main(["arena", "--rules", rules, "--bots", "greedy", "random", "--hands",
                             "6", "--seed", "2", "--no-progress", "--json",
                             str(runs[rules])]) == 0

    done = subprocess.run([sys.executable, str(BENCHMARKS / "void_hands.py"), "--json",
                           str(runs["korean-old"])],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = _json_line(done.stdout)
    hands = [h for g in json.loads(runs["korean-old"].read_text())["games"] for h in g["hands"]]
    void = sum(1 for h in hands if h["went_out"] is None)
    assert void >= 1 and report["bot"] == "greedy"
    assert (report["hands"], report["void_hands"]) == (len(hands), void)
    assert sum(report["held"].values()) == 2 * void  # two greedy players a void hand
    assert 0 <= report["ahead_pct"] <= 100
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "void_hands.py"),
                          str(runs["classic"])],
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and "no hand is void" in bad.stderr


def test_family_playout_json() -> None:
    done = subprocess.run([sys.executable, str(BENCHMARKS / "family_playout.py"), "--seconds",
                           "0.5", "--json"], capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    report = _json_line(done.stdout)
    for family in ("classic", "modern-american", "hand-and-foot"):
        assert report[family]["hands"] >= 1, family
        assert report[family]["decisions"] >= report[family]["hands"], family
    assert report["ratio_hands_per_cpu_s"]["modern-american / classic"] > 0
    assert report["ratio_decisions_per_cpu_s"]["hand-and-foot / classic"] > 0


def test_bot_audit_fits_the_discard_reading_model_it_was_given() -> None:
    import math
    import random

    import pytest

    audit = _bot_audit()
    rng = random.Random(4)
    truth = (0.9, 1.5, 0.3)
    rows = []
    for _ in range(4000):
        count, unseen = rng.uniform(0.02, 0.6), rng.randint(1, 7)
        z = truth[0] + truth[1] * math.log(count / (1 - count)) + truth[2] * (unseen - 5)
        rows.append((count, unseen, int(rng.random() < 1 / (1 + math.exp(-z)))))
    fitted = audit.fit_logit(rows)
    assert fitted == pytest.approx(truth, abs=0.2)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bot_audit.py"), "--pair-odds", "--bots",
         "heuristic,heuristic-v2", "--hands", "2", "--seed", "5"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "from three or more" in done.stdout and "DISCARD_PAIR_LOGIT" in done.stdout


def test_bot_audit_reads_discards_alike_whatever_the_jobs() -> None:
    from canasta.rules import get_rules

    audit = _bot_audit()
    specs, rules = ["heuristic", "heuristic-v2"], get_rules("classic")
    one = audit.read_discards(specs, rules, 3, 5)
    two = audit.read_discards(specs, rules, 3, 5, jobs=2)
    assert one[0] == two[0] and sum(one[0]) > 0
    assert set(one[1]) == set(audit.READ_MODELS)
    for name, rows in one[1].items():
        assert sorted(rows) == sorted(two[1][name]), name
    assert one[1]["DISCARD_PAIR_LOGIT"] and one[1]["DISCARD_ONE_LOGIT"]


def _deviations(*args: str) -> dict[str, Any]:
    """The JSON report of ``benchmarks/search_deviations.py`` run with ``args``."""
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "search_deviations.py"), *args, "--json"],
        capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return _json_line(done.stdout)


def test_search_deviations_weighs_only_the_departures_from_the_heuristic() -> None:
    def report(spec: str) -> dict[str, Any]:
        return _deviations("--spec", spec, "--hands", "1", "--seed", "3")

    same = report("heuristic")  # the heuristic never departs from itself
    assert same["decisions"] > 20 and same["departures"] == 0 and same["kinds"] == {}
    greedy = report("greedy")
    assert greedy["decisions"] == same["decisions"]  # the same positions are asked
    assert 0 < greedy["departures"] == sum(k["count"] for k in greedy["kinds"].values())
    assert all(" for " in kind for kind in greedy["kinds"])
    assert greedy["edges"] == {}  # greedy has no values of its own
    search = report("ismcts:iterations=20")
    assert search["decisions"] == same["decisions"]
    # every departure has both actions valued by the search (the heuristic's choice is always
    # one of its candidates), so the bins hold them all
    assert 0 < sum(k["count"] for k in search["edges"].values()) == search["departures"]
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "search_deviations.py"), "--spec",
                          "nonsense"], capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "unknown bot" in bad.stderr


def test_search_deviations_baseline_pairs_the_two_bots_decision_by_decision() -> None:
    def report(spec: str, baseline: str) -> dict[str, Any]:
        return _deviations("--spec", spec, "--baseline", baseline, "--hands", "1", "--seed", "3")

    # against the heuristic (which never departs) the paired figure is the spec's own worth
    # per decision
    greedy = report("greedy", "heuristic")
    pair = greedy["baseline"]
    assert pair["spec"] == "heuristic" and 0 < pair["differ"] == greedy["departures"]
    own = greedy["mean"] * greedy["departures"] / greedy["decisions"]
    assert pair["mean"] == pytest.approx(own) and pair["mean"] != 0
    # a bot against itself differs nowhere: the same action's play-ons share their stocks
    same = report("greedy", "greedy")
    assert same["baseline"]["differ"] == 0 and same["baseline"]["mean"] == 0
    assert same["departures"] == greedy["departures"]  # the baseline leaves the spec's figures
    # the other way round the difference changes sign
    back = report("heuristic", "greedy")["baseline"]
    assert back["mean"] == pytest.approx(-pair["mean"]) and back["differ"] == pair["differ"]


def test_search_deviations_lists_each_departure_where_positions_finds_it_again() -> None:
    from canasta.actions import format_action
    from canasta.rules import get_rules

    deviations = _script("search_deviations")
    report = _deviations("--spec", "greedy", "--hands", "2", "--seed", "3", "--each")
    each = report["each"]
    assert len(each) == report["departures"] and {e["hand"] for e in each} == {0, 1}
    assert sum(e["worth"] for e in each) == pytest.approx(report["mean"] * len(each))
    rules = get_rules("classic")
    for hand in (0, 1):
        found = list(deviations.positions(rules, 3, hand))
        for entry in (e for e in each if e["hand"] == hand):
            state, legal, mine = found[entry["decision"]]
            assert state.to_move == entry["seat"] and format_action(mine) == entry["heuristic"]
            assert entry["searched"] in {format_action(a) for a in legal} - {entry["heuristic"]}


def test_search_deviations_play_ons_shuffle_only_the_stock_and_pair_the_two_actions() -> None:
    import random

    from canasta.bots.heuristic import decide
    from canasta.deal import new_hand
    from canasta.engine import apply
    from canasta.legal import legal_actions
    from canasta.observation import observe
    from canasta.rules import get_rules

    deviations = _script("search_deviations")
    state = new_hand(get_rules("classic"), seed=4)
    for step in range(40):  # into the hand, to a choice of discards
        discards = [a for a in legal_actions(state) if a.verb == "discard"]
        if step >= 4 and len(discards) > 1:
            break
        state = apply(state, decide(observe(state, state.to_move), legal_actions(state))[0])
    restocked = deviations.restocked(state, random.Random(1))
    assert restocked.stock != state.stock and sorted(restocked.stock) == sorted(state.stock)
    assert restocked.hands == state.hands and restocked.pile == state.pile
    mine, other = discards[0], discards[-1]
    seat = state.to_move
    one = deviations.departure_worth(state, other, mine, seat, 1, 7)
    assert one == (deviations.lead_at_end(apply(state, other), seat)
                   - deviations.lead_at_end(apply(state, mine), seat))  # the true stock alone
    # an action against itself is worth nothing on every shuffle: both share each stock order
    assert deviations.departure_worth(state, mine, mine, seat, 6, 7) == 0
    many = deviations.departure_worth(state, other, mine, seat, 6, 7)
    assert many == deviations.departure_worth(state, other, mine, seat, 6, 7)  # seeded
    assert many != one  # the other five stocks count too


def test_spsa_steps_towards_the_setting_that_won_and_stays_in_range() -> None:
    tune = _script("spsa_tune")
    keep_cards, danger = tune.parse_weights("keep_cards=1:5,danger=2:14")
    assert (keep_cards.value(0.3), danger.value(0.5)) == (2.0, 8.0)  # a count stays whole
    assert (danger.value(1.4), danger.position(1.0)) == (14.0, 0.0)  # clipped to the range
    # x + c*delta beat x - c*delta: each weight moves the way its own sign pointed
    up, down = tune.step([0.5, 0.5], [1.0, -1.0], diff=40.0, a_k=0.001, c_k=0.1)
    assert up == 0.5 + 0.001 * 40.0 / 0.2 and down == 0.5 - 0.001 * 40.0 / 0.2
    assert tune.step([0.5, 0.5], [1.0, -1.0], diff=-40.0, a_k=0.001, c_k=0.1) == [down, up]
    assert tune.step([0.99], [1.0], diff=500.0, a_k=0.01, c_k=0.1) == [1.0]
    ranges, x, fixed = tune.start_of([danger], "danger=8,keep_cards=5")
    assert x == [0.5] and fixed == {"keep_cards": "5"}  # a weight not tuned stays as given
    assert ranges == [danger]
    assert tune.spec_of("heuristic", [danger], x, fixed) == "heuristic:danger=8,keep_cards=5"
    # a preset with weights of its own starts from them
    from canasta.bots.weights import PRESET_WEIGHTS

    two = PRESET_WEIGHTS["classic-2p"]
    assert tune.start_of([danger], None, two) == ([danger], [danger.position(two.danger)], {})
    assert danger.position(two.danger) != danger.position(tune.DEFAULT_WEIGHTS.danger)
    # a start outside its range widens the range, so the tuning starts where the bot plays
    above = tune.parse_weights(f"take_per_card={two.take_per_card + 5}:120")
    (per_card,), (x,), _ = tune.start_of(above, None, two)
    assert (per_card.low, per_card.high) == (two.take_per_card, 120.0)
    assert per_card.value(x) == two.take_per_card


def test_spsa_tune_plays_its_iterations_and_checks_the_result(tmp_path: Path) -> None:
    runs = []
    for name in ("one", "two"):
        path = tmp_path / f"{name}.json"
        done = subprocess.run(
            [sys.executable, str(BENCHMARKS / "spsa_tune.py"), "--weights",
             "keep_pair=10:80,danger=2:14", "--iterations", "2", "--hands", "4", "--seed", "3",
             "--check-hands", "4", "--yardstick", "greedy", "--json", str(path)],
            capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(path.read_text()))
    assert runs[0] == runs[1]  # seeded: the same run twice
    report = runs[0]
    assert [it["iteration"] for it in report["iterations"]] == [0, 1]
    for it in report["iterations"]:
        assert it["hands"] >= 4
        assert 10 <= it["weights"]["keep_pair"] <= 80 and 2 <= it["weights"]["danger"] <= 14
    from canasta.bots.weights import DEFAULT_WEIGHTS as w

    assert report["start"] == f"heuristic:keep_pair={w.keep_pair:.6g},danger={w.danger:.6g}"
    assert set(report["check"]) == {"tuned − start", "tuned − greedy", "start − greedy"}
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "spsa_tune.py"), "--weights",
                          "keep_pairs=1:2"], capture_output=True, text=True, timeout=120,
                         check=False)
    assert bad.returncode == 2 and "unknown weight 'keep_pairs'" in bad.stderr
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "spsa_tune.py"), "--opponents",
                          "greedy,nobody"], capture_output=True, text=True, timeout=120,
                         check=False)
    assert bad.returncode == 2 and "unknown bot 'nobody'" in bad.stderr


def test_spsa_against_opponents_scores_each_setting_on_the_same_deals() -> None:
    tune = _script("spsa_tune")
    from canasta.rules import get_rules

    rules = get_rules("classic")
    # both settings the same bot: they play the same deals alike, so the slope is nothing
    diff, hands = tune.slope(rules, "greedy", "greedy", ["random", "heuristic"], 8, 5, None)
    assert diff == 0.0 and hands >= 8
    # against one opponent the slope is the difference of the two settings' points a hand
    plus = tune.play(rules, "heuristic", "random", 4, 5, None).points_per_hand
    minus = tune.play(rules, "random", "random", 4, 5, None).points_per_hand
    diff, hands = tune.slope(rules, "heuristic", "random", ["random"], 8, 5, None)
    assert diff == plus - minus and diff > 0 and hands >= 8


def test_bot_audit_threat_counts_each_going_out_once_against_the_table() -> None:
    from canasta.bots import view
    from canasta.rules import get_rules

    audit = _bot_audit()
    hands = 6
    rows = audit.read_threats(["heuristic", "heuristic-v2"], get_rules("classic"), hands, 5)
    assert rows, "no opponent was counted"
    said_by_kind = {"near": view.NEAR_THREAT, "far": view.FAR_THREAT}
    went_out = 0
    for (kind, cards), sel in rows.items():
        for said, found in sel:
            expected = view.OUT_THREAT[cards - 1] if kind == "out" else said_by_kind[kind]
            assert said == expected
            went_out += found
    # a hand ends once, seen from each of the reader's two seats at most
    assert 1 <= went_out <= 2 * hands
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bot_audit.py"), "--threat", "--bots", "heuristic",
         "--hands", "2"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2 and "--threat needs two bots" in done.stderr


def test_value_fit_finds_the_weights_that_made_the_leads() -> None:
    import random

    import pytest

    value_fit = _script("value_fit")
    rng = random.Random(2)
    k = len(value_fit.FEATURES)
    truth = [rng.uniform(-50, 50) for _ in range(k)]
    rows = []
    for _ in range(600):
        x = [rng.uniform(-10, 10) for _ in range(k)]
        lead = sum(w * v for w, v in zip(truth, x, strict=True)) + rng.gauss(0, 5)
        rows.append(value_fit.Row(x, 0.0, lead))
    assert value_fit.fit(rows) == pytest.approx(truth, abs=1.0)
    rmse, explained = value_fit.errors(rows, [r.lead for r in rows])
    assert rmse == 0 and explained == 1


def test_value_fit_reports_each_value_on_the_hands_held_out() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "value_fit.py"), "--hands", "5", "--seed", "2",
         "--json"], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = _json_line(done.stdout)
    assert report["rows"]["fit"] > report["rows"]["held_out"] > 0
    for name in ("counted", "fitted", "refit"):
        assert report[name]["rmse"] > 0
    bad = subprocess.run([sys.executable, str(BENCHMARKS / "value_fit.py"), "--hands", "1"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert bad.returncode == 2 and "--hands must be at least 2" in bad.stderr
