"""Self-play of every registered family of rules: the family's ids and tensor in the rows,
rows rebuilt from the records, records that replay as the family's games, the family's bots
and levels by name, and the command line. The mechanics (shards, seeds, resuming, workers) are
tested on the classic family in test_selfplay.py."""

from __future__ import annotations

from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from canasta.family import Family, families  # noqa: E402
from canasta.game import GameRecord, HandRecord, replay  # noqa: E402
from canasta.interfaces.cli import main  # noqa: E402
from canasta.rl.research import research_of  # noqa: E402
from canasta.selfplay import SelfplayConfig, SelfplayError, run_selfplay  # noqa: E402
from canasta.selfplay.store import read_records, rebuild_steps, shard_file  # noqa: E402
from tests.selfplay.support import family_config, steps  # noqa: E402

every_family = pytest.mark.parametrize("family", families(), ids=lambda f: f.name)


@every_family
def test_rows_spell_the_family_s_ids_and_rebuild_from_the_records(family: Family,
                                                                   tmp_path: Path) -> None:
    cfg = family_config(family, hands=2, shard_hands=1)
    research = research_of(family.default_rules)
    assert cfg.research is research and cfg.tensor_width == len(research.dealing_tensor())
    summary = run_selfplay(cfg, str(tmp_path))
    assert summary.dataset.shards == 2 and summary.dataset.hands == 2
    table = steps(tmp_path)
    assert table.schema.field("observation").type.list_size == cfg.tensor_width
    rows = table.drop_columns(["observation"]).to_pylist()
    assert rows and all(r["chosen"] in r["legal"] for r in rows)
    assert max(max(r["legal"]) for r in rows) < research.alphabet.size
    assert {r["bot"] for r in rows} <= {"easy", "random"}
    for shard in range(cfg.shards):
        stored = pq.read_table(tmp_path / "steps" / shard_file(shard))
        rebuilt = rebuild_steps(str(tmp_path), shard)
        assert rebuilt.equals(stored) and rebuilt.schema.metadata == stored.schema.metadata
    # the first row of a hand is the family's tensor of the seat to move at the deal
    hand = read_records(str(tmp_path), 0)[0]
    rules = cfg.rules
    position = family.new_hand(rules, deck=hand.deck, dealer=hand.dealer, scores=hand.scores)
    first = table.slice(0, 1).to_pylist()[0]
    assert first["observation"] == pytest.approx(research.tensor(position, position.to_move))


@every_family
def test_records_replay_as_the_family_s_games(family: Family, tmp_path: Path) -> None:
    cfg = family_config(family, hands=2, shard_hands=2, bots=("easy",))
    run_selfplay(cfg, str(tmp_path))
    hands = read_records(str(tmp_path), 0)
    games: dict[int, list[HandRecord]] = {}
    for h in hands:
        games.setdefault(h.game, []).append(HandRecord(h.dealer, h.deck, h.actions))
    totals = [family.totals(r.state) for game in games.values()
              for r in replay(GameRecord(cfg.rules, hands[0].bots, tuple(game)))]
    assert totals == [h.totals for h in hands]
    assert SelfplayConfig.from_json(cfg.to_json()) == cfg


@every_family
def test_the_command_plays_the_family_with_its_levels(family: Family, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    preset = next(iter(family.presets()))
    args = ["selfplay", "--rules", preset, "--bots", "easy,random", "--hands", "2",
            "--shard-hands", "1", "--seed", "5", "--out", str(tmp_path / "d")]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert f"selfplay {preset}: easy, random; seed 5" in text and "2 hands in 2 shards" in text
    assert main(args) == 0 and "every shard was already there" in capsys.readouterr().out
    code = main(["selfplay", "--rules", preset, "--bots", "nobody", "--hands", "2", "--out",
                 str(tmp_path / "x")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and f"unknown bot 'nobody' for {family.title}" in err[0]
    with pytest.raises(SelfplayError, match="unknown bot"):
        family_config(family, bots=("nobody",))
