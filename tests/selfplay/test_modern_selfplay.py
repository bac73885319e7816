"""Self-play of Modern American: the family's ids and tensor in the rows, records that replay
as the family's games, resuming, house rules in the settings, and bots of the wrong family
refused in words."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from canasta.interfaces.cli import main  # noqa: E402
from canasta.modern_american.game import replay  # noqa: E402
from canasta.modern_american.hand import RULES  # noqa: E402
from canasta.modern_american.knobs import KNOBS  # noqa: E402
from canasta.rl.encoding import MODERN  # noqa: E402
from canasta.rl.table import ModernFamily  # noqa: E402
from canasta.rl.tensor import modern_tensor_size, tensor_size  # noqa: E402
from canasta.selfplay import SelfplayConfig, SelfplayError, run_selfplay  # noqa: E402
from canasta.selfplay.store import read_records, rebuild_steps, shard_file  # noqa: E402
from tests.selfplay.support import modern_config, steps, stop_after_one  # noqa: E402


def test_rows_spell_the_familys_ids_and_rebuild_from_the_records(tmp_path: Path) -> None:
    cfg = modern_config()
    assert isinstance(cfg.family, ModernFamily) and cfg.knobs == KNOBS
    assert cfg.tensor_width == modern_tensor_size() != tensor_size(RULES)
    summary = run_selfplay(cfg, str(tmp_path))
    assert summary.dataset.shards == 2 and summary.dataset.hands == 4
    table = steps(tmp_path)
    assert table.schema.field("observation").type.list_size == modern_tensor_size()
    rows = table.drop_columns(["observation"]).to_pylist()
    assert rows and all(r["chosen"] in r["legal"] for r in rows)
    assert max(max(r["legal"]) for r in rows) < MODERN.size
    # ids only Modern American has (keeping a three) are spelled
    keep_ids = {i for i in range(MODERN.size) if MODERN.id_text(i).startswith("keep")}
    assert keep_ids & {r["chosen"] for r in rows}
    assert {r["bot"] for r in rows} == {"modern-greedy", "modern-random"}
    for hand_rows in _per_hand(rows).values():
        assert sum({r["seat"]: r["return"] for r in hand_rows}.values()) == 0
    for shard in range(cfg.shards):
        stored = pq.read_table(tmp_path / "steps" / shard_file(shard))
        rebuilt = rebuild_steps(str(tmp_path), shard)
        assert rebuilt.equals(stored) and rebuilt.schema.metadata == stored.schema.metadata
    # the first tensor of a hand is the family's own for that seat at the deal
    hand = read_records(str(tmp_path), 0)[0]
    family = cfg.family
    first = table.slice(0, 1).to_pylist()[0]
    position = family.new_hand(hand.deck, hand.dealer, hand.scores)
    assert first["observation"] == pytest.approx(family.tensor(position, position.to_move))


def test_records_replay_as_the_familys_games(tmp_path: Path) -> None:
    cfg = modern_config(hands=3, shard_hands=3, bots=("modern-heuristic",))
    run_selfplay(cfg, str(tmp_path))
    hands = read_records(str(tmp_path), 0)
    assert [h.game for h in hands] == [0, 0, 0]  # one game: 8500 is far
    assert [h.dealer for h in hands] == [0, 1, 2]
    record = {"rules": "modern-american",
              "hands": [{"dealer": h.dealer, "deck": _cards(h.deck), "actions": list(h.actions)}
                        for h in hands]}
    totals = [tuple(s.total for s in r.hand.end.sides) for r in replay(record)]
    assert totals == [h.totals for h in hands]
    assert hands[1].scores == hands[0].totals


def test_an_interrupted_run_resumes(tmp_path: Path) -> None:
    cfg = modern_config(hands=6, shard_hands=2)
    out = str(tmp_path / "run")
    with pytest.raises(KeyboardInterrupt):
        run_selfplay(cfg, out, progress=stop_after_one)
    assert sorted(p.name for p in (tmp_path / "run" / "steps").iterdir()) == [shard_file(0)]
    resumed = run_selfplay(cfg, out)
    assert resumed.resumed == 1 and [r.shard for r in resumed.played] == [1, 2]
    run_selfplay(cfg, str(tmp_path / "whole"))
    assert steps(tmp_path / "run").equals(steps(tmp_path / "whole"))
    # other house rules are another run: refused in that folder
    other = SelfplayConfig(RULES, cfg.bots, hands=6, seed=1, shard_hands=2,
                           knobs=_pagat())
    with pytest.raises(SelfplayError, match="rules differ"):
        run_selfplay(other, out)


def test_house_rules_are_kept_in_the_settings(tmp_path: Path) -> None:
    knobs = _pagat()
    cfg = SelfplayConfig(RULES, ("modern-greedy",), hands=1, seed=2, knobs=knobs)
    assert cfg.to_json()["rules"] == {"preset": "modern-american", "special_hands": "pagat"}
    assert SelfplayConfig.from_json(cfg.to_json()) == cfg
    assert main(["selfplay", "--rules", json.dumps(cfg.to_json()["rules"]), "--bots",
                 "modern-greedy", "--hands", "1", "--seed", "2", "--out",
                 str(tmp_path / "run")]) == 0
    settings = json.loads((tmp_path / "run" / "selfplay.json").read_text())
    assert settings["rules"] == cfg.to_json()["rules"] and settings["tensor_width"] == 394


@pytest.mark.parametrize(("rules", "bot", "words"), [
    ("modern-american", "heuristic", "'heuristic' plays the classic rules, not modern-american"),
    ("classic", "modern-heuristic", "'modern-heuristic' plays modern-american only"),
    ("modern-american", "modern-heuristic:depth=3", "bad settings"),
])
def test_a_bot_of_the_wrong_family_is_refused(rules: str, bot: str, words: str, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["selfplay", "--rules", rules, "--bots", bot, "--hands", "2", "--out",
                 str(tmp_path / "x")])
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert code == 2 and out.out == "" and len(lines) == 1
    assert lines[0].startswith("invalid arguments: --bots:") and words in lines[0]
    assert not (tmp_path / "x").exists()


def test_the_settings_refuse_a_bot_of_the_wrong_family() -> None:
    with pytest.raises(SelfplayError, match="plays the classic rules"):
        SelfplayConfig(RULES, ("modern-random", "greedy"), hands=1, seed=1)
    from canasta.rules import get_rules

    with pytest.raises(SelfplayError, match="plays modern-american only"):
        SelfplayConfig(get_rules("classic"), ("modern-random",), hands=1, seed=1)
    with pytest.raises(SelfplayError, match="take none"):
        SelfplayConfig(get_rules("classic"), ("random",), hands=1, seed=1, knobs=KNOBS)


def test_the_command_plays_modern_american(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--rules", "modern-american", "--bots", "modern-heuristic,modern-random",
            "--hands", "2", "--shard-hands", "1", "--seed", "5", "--out", str(tmp_path / "d")]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "selfplay modern-american: modern-heuristic, modern-random; seed 5" in text
    assert "2 hands in 2 shards" in text
    assert main(args) == 0 and "every shard was already there" in capsys.readouterr().out


def _pagat() -> Any:
    import dataclasses

    return dataclasses.replace(KNOBS, special_hands="pagat")


def _cards(deck: tuple[int, ...]) -> list[str]:
    from canasta.cards import format_card

    return [format_card(c) for c in deck]


def _per_hand(rows: list[dict[str, Any]]) -> dict[tuple[int, int, int], list[dict[str, Any]]]:
    out: dict[tuple[int, int, int], list[dict[str, Any]]] = {}
    for row in rows:
        out.setdefault((row["shard"], row["game"], row["hand"]), []).append(row)
    return out
