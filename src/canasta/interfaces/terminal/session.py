"""A game at the terminal table without the screen, for every family: seats, bots,
deterministic decks, saving.

Everything random after the first deal is derived from a *game key*, a digest of the first hand's
pack order (itself fixed by ``--seed``). The pack of hand ``n`` and every bot decision (seeded by
the hand number and the number of actions already played in the hand) follow from the key, so a
game resumed from its record (NOTATION §4) goes on exactly as it would have without the break,
and the record itself needs nothing beyond NOTATION §4.

Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.actions import Action
from canasta.bots import BotSpecError, bot_table, make_bot
from canasta.bots.base import Bot
from canasta.bots.names import friendly_names, level_of
from canasta.cards import Card, format_card
from canasta.errors import PositionError
from canasta.family import Family, family_of
from canasta.game import Game, GameRecord
from canasta.rules import Rules

HUMAN_SEAT = 0
HUMAN_NAME = "human"
"""The name the record gives the person at the terminal (seat 0)."""
BOT_PREFIX = "bot:"
DEFAULT_BOT = "heuristic"
FALLBACK_BOT = "random"

SEAT_NAMES: dict[int, tuple[str, ...]] = {
    2: ("You", "North"),
    3: ("You", "West", "East"),
    4: ("You", "West", "North", "East"),
    6: ("You", "West", "Northwest", "North", "Northeast", "East"),
}
"""How seats are called around the table, clockwise from the player (play goes to the left)."""


def seat_names(num_players: int) -> tuple[str, ...]:
    """Where the seats are around the table, the player's first."""
    return SEAT_NAMES.get(num_players) or ("You", *(f"Player {i}" for i in range(1, num_players)))


def player_names(num_players: int, key: str) -> tuple[str, ...]:
    """What the players are called: ``You``, then a friendly name per bot seat, fixed by the
    game key (a resumed game keeps its names)."""
    return ("You", *friendly_names(key, num_players - 1, taken=["You"]))


def default_save_path(now: float | None = None) -> Path:
    """``$XDG_DATA_HOME/canasta/games/<timestamp>.json`` (``~/.local/share`` by default), a
    name no file has yet."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    folder = Path(base) / "canasta" / "games"
    path = folder / f"{stamp}.json"
    n = 1
    while path.exists():  # two games started in the same second
        n += 1
        path = folder / f"{stamp}-{n}.json"
    return path


def how_to_run(command: str) -> str:
    """``command`` as the user can type it: after activating the virtual environment this
    ``canasta`` was installed into, when that environment is not on the PATH (as after
    ``make``)."""
    if shutil.which("canasta") or sys.prefix == sys.base_prefix:
        return command
    activate = Path(sys.prefix) / "bin" / "activate"
    if not activate.exists():
        return command
    try:
        shown = f"./{activate.relative_to(Path.cwd())}"
    except ValueError:
        shown = str(activate)
    return f". {shown} && {command}"


def game_key(rules: Rules, first_deck: Sequence[Card]) -> str:
    """The key every later random choice derives from: a digest of the first pack order."""
    text = rules.name + ":" + " ".join(format_card(c) for c in first_deck)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def derived_seed(key: str, *parts: object) -> int:
    """A 64-bit seed from the game key and labels (stable across runs and Python versions)."""
    text = "/".join([key, *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


@dataclass
class SeatBot:
    """A bot in a seat: the spec it was asked for, the spec in use and the bot."""

    wanted: str
    spec: str
    bot: Bot


def load_bot(spec: str, explicit: bool, family: Family) -> tuple[SeatBot, str | None]:
    """Make the bot of ``spec`` for ``family``; returns it and a note when it fell back to
    another bot.

    A spec the user gave (``explicit``) must exist: :class:`BotSpecError` otherwise. The default
    bot, or one named in a record being resumed, falls back to ``random`` when it is not
    registered (yet), with a note saying so. A record's spec may end in the seat's name (older
    saves wrote ``bot:NAME:Eva``): the name is left out.
    """
    try:
        return SeatBot(spec, spec, make_bot(spec, family)), None
    except BotSpecError as e:
        if explicit:
            raise
        name, colon, tail = spec.partition(":")
        if colon and "=" not in tail:
            try:
                return SeatBot(spec, name, make_bot(name, family)), None
            except BotSpecError:
                pass
        known = ", ".join(bot_table(family).names())
        note = (f"bot {spec!r} is not available here ({e}); playing with {FALLBACK_BOT!r} "
                f"instead (known bots: {known})")
        return SeatBot(spec, FALLBACK_BOT, make_bot(FALLBACK_BOT, family)), note


class Table:
    """The game of any family, the bots in their seats, and the record file.

    The person at the terminal is seat 0; with partnerships the partner bots are the other seats
    of side 0, every other seat is an opponent.
    """

    def __init__(self, game: Game, bots: dict[int, SeatBot], save_path: Path,
                 key: str | None = None) -> None:
        self.game = game
        self.family: Family = game.family
        self.bots = bots
        self.save_path = save_path
        self.key = key or game_key(game.rules, game.deck if not game.finished
                                   else game.finished[0][0].deck)
        self.names = player_names(game.rules.num_players, self.key)
        self.positions = seat_names(game.rules.num_players)
        self.notes: list[str] = []

    # -- construction ------------------------------------------------------------------------
    @staticmethod
    def new(rules: Rules, seed: int, partner: str, opponents: str, save_path: Path,
            explicit: frozenset[str] = frozenset()) -> Table:
        """A new game. ``explicit`` names the roles (``partner``, ``opponents``) the user chose."""
        family = family_of(rules)
        bots: dict[int, SeatBot] = {}
        notes: list[str] = []
        cache: dict[str, tuple[SeatBot, str | None]] = {}
        for seat in range(1, rules.num_players):
            role = "partner" if rules.side_of(seat) == rules.side_of(HUMAN_SEAT) \
                else "opponents"
            spec = partner if role == "partner" else opponents
            if spec not in cache:
                cache[spec] = load_bot(spec, role in explicit, family)
                if cache[spec][1]:
                    notes.append(str(cache[spec][1]))
            made = cache[spec][0]
            bots[seat] = SeatBot(made.wanted, made.spec, make_bot(made.spec, family))
        players = [HUMAN_NAME] + [BOT_PREFIX + bots[s].spec for s in range(1, rules.num_players)]
        game = Game(rules, seed=seed, players=players)
        table = Table(game, bots, save_path)
        table.notes = notes
        return table

    @staticmethod
    def resume(record: GameRecord, save_path: Path, partner: str, opponents: str) -> Table:
        """A game continued from its record: the record's actions are replayed, and the bots it
        names sit in their seats again (seats it gives to people get ``partner``/``opponents``).

        Raises :class:`~canasta.errors.PositionError` or
        :class:`~canasta.errors.IllegalActionError` when the record does not replay.
        """
        rules = record.rules
        if not record.hands:
            raise PositionError("the record holds no hand to resume")
        game = Game.resume(record)
        family = game.family
        notes: list[str] = []
        if game.rules != rules:
            notes.append("this game was saved before a rule of its family changed: it goes on "
                         "under the rule it was played under ("
                         + rules_changed(rules, game.rules) + ")")
            rules = game.rules
        bots: dict[int, SeatBot] = {}
        players = list(record.players)
        if players[HUMAN_SEAT].startswith(BOT_PREFIX):
            notes.append(f"seat 0 was played by {players[HUMAN_SEAT]!r}; you take it over")
        for seat in range(1, rules.num_players):
            name = players[seat]
            if name.startswith(BOT_PREFIX):
                spec = name[len(BOT_PREFIX):]
            else:
                spec = (partner if rules.side_of(seat) == rules.side_of(HUMAN_SEAT)
                        else opponents)
                notes.append(f"seat {seat} ({name!r}) was not a bot: {spec!r} plays it now")
            made, note = load_bot(spec, explicit=False, family=family)
            if note and note not in notes:
                notes.append(note)
            bots[seat] = made
        table = Table(game, bots, save_path, key=game_key(rules, record.hands[0].deck))
        table.notes = notes
        return table

    # -- play --------------------------------------------------------------------------------
    @property
    def levels(self) -> list[str]:
        """Each seat's bot level (``medium``, ...; the player's seat: empty)."""
        return [level_of(self.bots[s].spec, self.family) if s in self.bots else ""
                for s in range(self.rules.num_players)]

    @property
    def rules(self) -> Rules:
        """The game's rules."""
        return self.game.rules

    @property
    def state(self) -> Any:
        """The current hand's position (the family's own value)."""
        return self.game.state

    def observation(self, seat: int = HUMAN_SEAT) -> Any:
        """What ``seat`` (the player by default) may see now."""
        return self.family.observe(self.game.state, seat)

    def legal(self) -> list[Action]:
        """The legal actions of the seat to move."""
        return self.family.legal_actions(self.game.state)

    def text(self, action: Action) -> str:
        """The canonical text of ``action`` under the game's rules."""
        return self.family.format_action(self.rules, action)

    def rng_for_move(self, salt: str = "bot") -> random.Random:
        """The random source of the decision at this point of the game (hand, action index)."""
        return random.Random(derived_seed(self.key, salt, self.game.hand_number,
                                          len(self.game.actions)))

    def bot_move(self) -> tuple[Action, str | None]:
        """The action of the bot to move, and a note if the bot failed and a random legal
        action was played instead (a bot bug never stops the game)."""
        seat = self.state.to_move
        legal = self.legal()
        rng = self.rng_for_move()
        seat_bot = self.bots[seat]
        try:
            action = seat_bot.bot.choose(self.observation(seat), legal, rng)
        except Exception as e:  # a bot bug must not end the game
            return legal[rng.randrange(len(legal))], (
                f"{self.names[seat]}'s bot {seat_bot.spec!r} failed ({type(e).__name__}: {e}); "
                "a random legal move was played")
        if action not in legal:
            return legal[rng.randrange(len(legal))], (
                f"{self.names[seat]}'s bot {seat_bot.spec!r} chose {self.text(action)!r}, "
                "which is not legal; a random legal move was played")
        return action, None

    def play(self, action: Action) -> Any:
        """Apply an action of the seat to move (raises IllegalActionError, nothing changes)."""
        state = self.game.apply(action)
        self.save()
        return state

    def next_hand(self) -> None:
        """Score the ended hand and deal the next (its pack derived from the game key)."""
        deck = self.family.shuffled_pack(self.rules, derived_seed(self.key, "deck",
                                                                  self.game.hand_number + 1))
        self.game.next_hand(deck)
        self.save()

    # -- the record --------------------------------------------------------------------------
    def save(self) -> None:
        """Write the record (NOTATION §4) to the save file, atomically."""
        path = self.save_path
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".canasta-", suffix=".json", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.game.record.dumps() + "\n")
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise


def rules_changed(now: Rules, then: Rules) -> str:
    """The fields ``then`` sets otherwise than ``now``, as a player reads them
    (``one_card_pile_take_ban 'stock_out'``)."""
    a, b = now.to_json(), then.to_json()
    a = a if isinstance(a, dict) else {"preset": a}
    b = b if isinstance(b, dict) else {"preset": b}
    return ", ".join(f"{key} {value!r}" for key, value in b.items() if a.get(key) != value)
