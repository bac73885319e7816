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

Both families of rules play (:func:`canasta.rl.table.family_of`): a classic preset with the bots
of :func:`canasta.bots.make_bot`, and Modern American (``rules`` its
:data:`~canasta.modern_american.hand.RULES`, ``knobs`` its house rules) with the family's bots
(:data:`canasta.bots.modern.MODERN_BOTS`); a bot of the other family is refused in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, cast

from canasta.arena.schedule import derive_seed
from canasta.errors import CanastaError
from canasta.modern_american.knobs import NAME as MODERN_NAME
from canasta.modern_american.knobs import Knobs, ModernAmericanRules
from canasta.modern_american.knobs import rules_from_json as modern_rules_from_json
from canasta.modern_american.notation import is_modern_american
from canasta.rl.table import ClassicFamily, ModernFamily
from canasta.rules import Rules, rules_from_json

FORMAT = 1
"""Version of the data set's layout, in ``selfplay.json`` and each file's metadata."""

DEFAULT_SHARD_HANDS = 100


class SelfplayError(CanastaError):
    """A run that cannot go on: bad settings, an output folder that holds something else, a bot
    that failed."""


@dataclass(frozen=True)
class SelfplayConfig:
    """What to play: the rules, the bots, how many hands, the seed and the shard size.

    For Modern American, ``rules`` is the family's
    :data:`~canasta.modern_american.hand.RULES` (a :class:`Rules` named ``modern-american``)
    and ``knobs`` its switches (:data:`~canasta.modern_american.knobs.KNOBS` when left out);
    a classic run has no ``knobs``."""

    rules: Rules
    bots: tuple[str, ...]
    hands: int
    seed: int
    shard_hands: int = DEFAULT_SHARD_HANDS
    max_hands_per_game: int = 100
    """A game still going after this many hands ends there (e.g. endless void draws)."""
    knobs: Knobs | None = None
    """Modern American's switches (``None`` for a classic run)."""

    def __post_init__(self) -> None:
        if isinstance(self.rules, ModernAmericanRules):
            if self.knobs is None:
                object.__setattr__(self, "knobs", self.rules.knobs)
            elif self.knobs != self.rules.knobs:
                object.__setattr__(self, "rules", self.rules.replace(knobs=self.knobs))
        elif self.knobs is not None:
            raise SelfplayError(f"knobs are Modern American's switches: the rules "
                                f"{self.rules.name!r} take none")
        if not self.bots:
            raise SelfplayError("name at least one bot")
        for spec in self.bots:
            problem = bot_family_problem(spec, self.modern)
            if problem:
                raise SelfplayError(problem)
        if self.hands < 1:
            raise SelfplayError(f"hands must be at least 1, not {self.hands}")
        if self.shard_hands < 1:
            raise SelfplayError(f"shard hands must be at least 1, not {self.shard_hands}")
        if self.max_hands_per_game < 1:
            raise SelfplayError("max hands per game must be at least 1")

    @property
    def modern(self) -> bool:
        """Whether the run plays Modern American."""
        return self.knobs is not None

    @property
    def family(self) -> ClassicFamily:
        """The family of rules played, as the research adapters drive it
        (:mod:`canasta.rl.table`): deal, legal list, apply, the alphabet of ids, the tensor."""
        if self.knobs is not None:
            return ModernFamily(cast(ModernAmericanRules, self.rules), self.knobs)
        return ClassicFamily(self.rules)

    @property
    def tensor_width(self) -> int:
        """The length of a row's observation tensor (from the family)."""
        return len(self.family.dealing_tensor())

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
        """The settings as ``selfplay.json`` holds them."""
        family = self.family
        rules = family.rules_json() if isinstance(family, ModernFamily) else self.rules.to_json()
        return {"format": FORMAT, "rules": rules, "bots": list(self.bots),
                "hands": self.hands, "seed": self.seed, "shard_hands": self.shard_hands,
                "max_hands_per_game": self.max_hands_per_game}

    @staticmethod
    def from_json(data: Any) -> SelfplayConfig:
        """The settings read back from :meth:`to_json`; :class:`SelfplayError` if they are
        not settings of this format."""
        try:
            if data["format"] != FORMAT:
                raise SelfplayError(f"data set format {data['format']!r}, this version reads "
                                    f"{FORMAT}")
            knobs = None
            if is_modern_american(data["rules"]):
                modern = modern_rules_from_json(data["rules"])
                rules: Rules = modern
                knobs = modern.knobs
            else:
                rules = rules_from_json(data["rules"])
            return SelfplayConfig(
                rules=rules, bots=tuple(data["bots"]),
                hands=int(data["hands"]), seed=int(data["seed"]),
                shard_hands=int(data["shard_hands"]),
                max_hands_per_game=int(data["max_hands_per_game"]), knobs=knobs)
        except (KeyError, TypeError, ValueError, CanastaError) as e:
            raise SelfplayError(f"not self-play settings: {e}") from None


def bot_family_problem(spec: str, modern: bool) -> str | None:
    """Why the bot ``spec`` cannot play this family (Modern American when ``modern``), in
    words, or ``None``; the bot is judged by its name, so this makes no bot."""
    from canasta.bots.modern import MODERN_BOTS

    name = spec.strip().partition(":")[0].strip().lower()
    if modern and name not in MODERN_BOTS:
        return (f"bot {spec!r} plays the classic rules, not {MODERN_NAME}: name the family's "
                f"bots ({', '.join(MODERN_BOTS)})")
    if not modern and name in MODERN_BOTS:
        return (f"bot {spec!r} plays {MODERN_NAME} only: give the rules {MODERN_NAME}, or a "
                "classic bot (random, greedy, heuristic, ismcts, ...)")
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
