"""Bot names: distinct at a table, fixed by its seed, never a person's, with the level."""

from __future__ import annotations

import pytest

from canasta.bots import bot_table
from canasta.bots.names import FRIENDLY_NAMES, friendly_names, level_of, seat_names, with_level
from canasta.family import Family, families

LEVELS = bot_table().levels


def test_names_are_distinct_and_fixed_by_the_seed() -> None:
    first = friendly_names("table-a", 5)
    assert len(set(first)) == 5 and set(first) <= set(FRIENDLY_NAMES)
    assert friendly_names("table-a", 5) == first  # the same table, the same names
    assert any(friendly_names(f"table-{i}", 5) != first for i in "bcd")  # others differ


def test_a_person_keeps_their_name_and_no_bot_takes_it() -> None:
    for seed in range(40):
        names = seat_names(["Rosa", "bot:medium", "bot:hard", "Hugo"], seed)
        assert names[0] == "Rosa" and names[3] == "Hugo"
        assert len({n.lower() for n in names}) == 4


def test_more_bots_than_names_still_get_distinct_names() -> None:
    names = friendly_names(1, len(FRIENDLY_NAMES) + 3)
    assert len(set(names)) == len(names)


def test_levels() -> None:
    assert [level_of(s) for s in ("easy", "greedy", "heuristic", LEVELS["hard"],
                                  LEVELS["expert"], "random",
                                  "ismcts:iterations=50")] == [
        "easy", "easy", "medium", "hard", "expert", "random", "ismcts"]
    assert with_level("Vera", "bot") == "Vera (bot)"


@pytest.mark.parametrize("family", families(), ids=lambda f: f.name)
def test_every_familys_levels_read_back_from_their_specs(family: Family) -> None:
    table = bot_table(family)
    for level, spec in table.levels.items():
        assert level_of(spec, family) == level_of(level, family) == level
        assert with_level("Vera", spec, family) == f"Vera ({level})"
    for old, name in table.aliases.items():
        assert level_of(old, family) == level_of(name, family)
