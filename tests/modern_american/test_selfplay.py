"""Self-play of Modern American: house rules kept in the settings as the family's rules JSON,
and a folder written before every family went through one interface (its house rules flat in
the rules object, the family's bots by their ``modern-`` names) still read and resumed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("pyarrow")

from canasta.family import get_rules, rules_from_json
from canasta.interfaces.cli import main
from canasta.selfplay import SelfplayConfig, run_selfplay
from canasta.selfplay.store import MANIFEST, read_config

PAGAT = {"preset": "modern-american", "special_hands": "pagat"}


def test_house_rules_are_kept_in_the_settings(tmp_path: Path) -> None:
    cfg = SelfplayConfig(rules_from_json(PAGAT), ("greedy",), hands=1, seed=2)
    assert cfg.to_json()["rules"] == PAGAT and cfg.rules.knobs.special_hands == "pagat"
    assert SelfplayConfig.from_json(cfg.to_json()) == cfg
    assert main(["selfplay", "--rules", json.dumps(PAGAT), "--bots", "greedy", "--hands", "1",
                 "--seed", "2", "--out", str(tmp_path / "run")]) == 0
    settings = json.loads((tmp_path / "run" / MANIFEST).read_text())
    assert settings["rules"] == PAGAT and settings["tensor_width"] == 394


def test_an_older_folder_is_read_and_resumed(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "old"
    (out / "steps").mkdir(parents=True)
    (out / "records").mkdir()
    older = {"format": 1, "rules": PAGAT, "bots": ["modern-greedy", "modern-random"],
             "hands": 2, "seed": 7, "shard_hands": 1, "max_hands_per_game": 100,
             "tensor_width": 394}
    (out / MANIFEST).write_text(json.dumps(older, indent=1) + "\n")
    cfg = read_config(str(out))
    assert cfg.rules == rules_from_json(PAGAT) != get_rules("modern-american")
    assert cfg.bots == ("modern-greedy", "modern-random") and cfg.seed == 7
    summary = run_selfplay(cfg, str(out))
    assert summary.dataset.hands == 2
    assert json.loads((out / MANIFEST).read_text()) == older  # the same settings, kept
    assert main(["selfplay", "--rules", json.dumps(PAGAT), "--bots", "modern-greedy",
                 "modern-random", "--hands", "2", "--shard-hands", "1", "--out",
                 str(out)]) == 0
    assert "every shard was already there" in capsys.readouterr().out
