"""What a self-play run plays: the settings, the shards and the seeds derived from them.

A run of ``hands`` hands is cut into shards of ``shard_hands`` hands (the last one may be
shorter). Shard ``k`` plays whole games to the rules' target, one after another, until it has
its hands (its last game may be cut short). Everything in a shard comes from the seed
:func:`shard_seed` ``(seed, k)``: the pack orders, the bots' random generators, which bot holds
which side. So a shard is the same wherever and whenever it is played, and played again after a
crash it gives the same rows.

Bots hold sides: with ``--bots B1,B2`` game ``g`` of a shard gives side ``s`` to bot
``(s + g) % 2``, so both bots play both sides; one bot holds every seat; in a partnership both
partners are the same bot. The first dealer of game ``g`` is seat ``g % players``.

Every family of rules plays (the rules' family, :func:`canasta.family.family_of`), with the
family's bots and levels (:func:`canasta.bots.make_bot`); what a row holds (the ids, the tensor)
comes from the family's research interface (:func:`canasta.rl.research.research_of`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from canasta.arena.schedule import derive_seed
from canasta.errors import CanastaError
from canasta.family import rules_from_json
from canasta.rl.research import Research, research_of
from canasta.rules import Rules

FORMAT = 1
"""Version of the data set's layout, in ``selfplay.json`` and each file's metadata."""

DEFAULT_SHARD_HANDS = 100


class SelfplayError(CanastaError):
    """A run that cannot go on: bad settings, an output folder that holds something else, a bot
    that failed."""


@dataclass(frozen=True)
class SelfplayConfig:
    """What to play: the rules (of any family, house rules included), the bots, how many
    hands, the seed and the shard size."""

    rules: Rules
    bots: tuple[str, ...]
    hands: int
    seed: int
    shard_hands: int = DEFAULT_SHARD_HANDS
    max_hands_per_game: int = 100
    """A game still going after this many hands ends there (e.g. endless void draws)."""

    def __post_init__(self) -> None:
        if not self.bots:
            raise SelfplayError("name at least one bot")
        for spec in self.bots:
            problem = bot_problem(spec, self.rules)
            if problem:
                raise SelfplayError(problem)
        if self.hands < 1:
            raise SelfplayError(f"hands must be at least 1, not {self.hands}")
        if self.shard_hands < 1:
            raise SelfplayError(f"shard hands must be at least 1, not {self.shard_hands}")
        if self.max_hands_per_game < 1:
            raise SelfplayError("max hands per game must be at least 1")

    @property
    def research(self) -> Research:
        """The family's research interface: the alphabet of ids, the tensor (and
        ``research.family``, the family: deal, legal list, apply, totals)."""
        return research_of(self.rules)

    @property
    def tensor_width(self) -> int:
        """The length of a row's observation tensor (from the family)."""
        return len(self.research.dealing_tensor())

    @property
    def shards(self) -> int:
        """How many shards the run has."""
        return math.ceil(self.hands / self.shard_hands)

    def shard_size(self, shard: int) -> int:
        """Hands in shard ``shard``."""
        if not 0 <= shard < self.shards:
            raise ValueError(f"shard {shard} is not one of 0..{self.shards - 1}")
        return min(self.shard_hands, self.hands - shard * self.shard_hands)

    def seat_bots(self, game: int) -> tuple[str, ...]:
        """The bot at each seat in game ``game`` of a shard."""
        rules = self.rules
        return tuple(self.bots[(rules.side_of(s) + game) % len(self.bots)]
                     for s in range(rules.num_players))

    def to_json(self) -> dict[str, Any]:
        """The settings as ``selfplay.json`` holds them (the rules as the family writes them:
        a preset name, or ``{"preset": NAME, FIELD: VALUE}`` with the house rules)."""
        return {"format": FORMAT, "rules": self.rules.to_json(), "bots": list(self.bots),
                "hands": self.hands, "seed": self.seed, "shard_hands": self.shard_hands,
                "max_hands_per_game": self.max_hands_per_game}

    @staticmethod
    def from_json(data: Any) -> SelfplayConfig:
        """The settings read back from :meth:`to_json` (older files too: a family's house rules
        written flat in its rules object are that family's rules JSON); :class:`SelfplayError`
        if they are not settings of this format."""
        try:
            if data["format"] != FORMAT:
                raise SelfplayError(f"data set format {data['format']!r}, this version reads "
                                    f"{FORMAT}")
            return SelfplayConfig(
                rules=rules_from_json(data["rules"]), bots=tuple(data["bots"]),
                hands=int(data["hands"]), seed=int(data["seed"]),
                shard_hands=int(data["shard_hands"]),
                max_hands_per_game=int(data["max_hands_per_game"]))
        except (KeyError, TypeError, ValueError, CanastaError) as e:
            raise SelfplayError(f"not self-play settings: {e}") from None


def bot_problem(spec: str, rules: Rules) -> str | None:
    """Why the bot ``spec`` cannot play ``rules`` (no bot or level of the family, nor an
    installed bot, goes by that name, or its parameters are wrong), in words, or ``None``."""
    from canasta.bots import make_bot

    try:
        make_bot(spec, rules)
    except CanastaError as e:
        return str(e)
    return None


def shard_seed(seed: int, shard: int) -> int:
    """The seed everything in shard ``shard`` of a run seeded ``seed`` comes from."""
    return derive_seed("selfplay", seed, shard)


def deck_seed(shard_seed: int, game: int, hand: int) -> int:
    """Seed of the pack order of hand ``hand`` of game ``game`` of a shard."""
    return derive_seed("deck", shard_seed, game, hand)


def bot_seed(shard_seed: int, game: int, hand: int, seat: int) -> int:
    """Seed of the random generator of the bot at ``seat`` for one hand of a shard."""
    return derive_seed("bot", shard_seed, game, hand, seat)
