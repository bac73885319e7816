"""A table in memory (the room): the game, its seats, one lock, and who is listening.

A :class:`Table` is rebuilt from its stored record by replay (:meth:`Table.from_row`): the
rules, the seed, every hand's deck and every action. It holds no rules logic of its own: the
family of its rules (:func:`canasta.family.family_of`) judges every action.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from canasta.cards import format_card
from canasta.family import Family, family_of
from canasta.game import Game
from canasta.interfaces.web.games import new_game, resume
from canasta.interfaces.web.storage import (
    CHAT_KEPT,
    OVER,
    PLAYING,
    ChatRow,
    HandRow,
    SeatRow,
    TableRow,
)
from canasta.rules import Rules

HUMAN = "human"
BOT = "bot"


class TableDataError(Exception):
    """A stored table that does not replay (a damaged or foreign database)."""


def hash_token(token: str) -> str:
    """The stored form of a seat token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Seat:
    """A seat at a table and who plays it."""

    index: int
    name: str
    controller: str
    """``human`` or ``bot``."""
    bot: str | None = None
    """The bot spec while a bot plays the seat."""
    token_hash: str | None = None
    connections: int = 0
    """Open WebSocket connections with this seat's token."""
    last_seen: float = field(default_factory=time.monotonic)
    """When the seat's token was last used (monotonic clock)."""

    @property
    def is_bot(self) -> bool:
        """True while a bot plays the seat."""
        return self.controller == BOT

    def to_row(self) -> SeatRow:
        """The stored form."""
        return SeatRow(self.index, self.name, self.controller, self.bot, self.token_hash)

    def to_json(self) -> dict[str, Any]:
        """The public description of the seat (never its token)."""
        return {"seat": self.index, "name": self.name, "controller": self.controller,
                "bot": self.bot, "connected": self.connections > 0}


class Listener:
    """One WebSocket connection: the seat it speaks for (``None`` for a spectator) and the
    queue of JSON texts its sender task writes out, in order."""

    def __init__(self, seat: int | None, limit: int = 256) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limit)
        self.closed = False
        self.close_code = 1000

    def send(self, text: str) -> None:
        """Queue a message; a client too slow to keep up is disconnected."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1013)

    def close(self, code: int = 1012) -> None:
        """Ask the sender task to close the connection (1012: the server reloads the table;
        1013: the client did not keep up)."""
        if not self.closed:
            self.closed = True
            self.close_code = code
            while True:  # make room for the closing sentinel
                try:
                    self.queue.put_nowait(None)
                    break
                except asyncio.QueueFull:
                    self.queue.get_nowait()


class Table:
    """One table: a whole game in progress, its seats and its listeners."""

    def __init__(self, table_id: str, game: Game, seed: int, seats: list[Seat],
                 auto_next: bool | None, history: list[tuple[int, str]] | None = None) -> None:
        self.id = table_id
        self.game = game
        """The game, of any family (:class:`~canasta.game.Game`)."""
        self.family: Family = family_of(game.rules)
        """The family of the table's rules: it judges every action."""
        self.seed = seed
        self.seats = seats
        self.auto_next = auto_next
        self.history: list[tuple[int, str]] = history or []
        """``(seat, action)`` of the current hand."""
        self.lock = asyncio.Lock()
        """Held while an action, a deal or a seat change is checked, stored and applied."""
        self.revision = 0
        """Bumped by every change of play (actions, deals, seats)."""
        self.listeners: set[Listener] = set()
        self.bot_task: asyncio.Task[None] | None = None
        self.evicted = False
        """Set when the table was dropped from memory (what it holds is in the database)."""
        self.last_used = time.monotonic()
        """When someone last asked for the table (monotonic clock): tables nobody uses leave
        memory."""
        self.views: dict[int | None, tuple[dict[str, Any], str]] = {}
        """Views built since the last change, by seat (``None``: spectators), with their
        WebSocket message text."""
        self.hints: dict[int, dict[str, Any]] = {}
        """Hints given since the last change of play, by seat: asked again, a hint answers the
        same (a time-bounded search may choose otherwise on a second run)."""
        self.chat: deque[ChatRow] = deque(maxlen=CHAT_KEPT)
        """The latest lines of the table's chat (the view shows them)."""
        self.chat_count = 0
        """Lines said at the table so far (the next line's index)."""
        self.rematch: str | None = None
        """The table of the rematch of this finished game, once asked for."""
        self.awaited: set[int] = set()
        """Seats whose player has not sat down yet (never used the seat's token): while a
        person plays one of them, the bots wait (see :meth:`waiting_for`)."""

    # -- building -------------------------------------------------------------------------------

    @staticmethod
    def new(table_id: str, rules: Rules, seed: int, seats: list[Seat],
            auto_next: bool | None) -> Table:
        """A fresh table: the first hand is dealt from ``seed``."""
        game = new_game(rules, seed, [s.name for s in seats])
        return Table(table_id, game, seed, seats, auto_next)

    def to_row(self) -> TableRow:
        """The stored form of a fresh table."""
        game = self.game
        hand = HandRow(1, game.state.dealer, tuple(format_card(c) for c in game.deck))
        return TableRow(self.id, game.rules.to_json(), tuple(game.players), self.seed,
                        self.auto_next, self.status_word, tuple(s.to_row() for s in self.seats),
                        (hand,))

    @staticmethod
    def from_row(row: TableRow) -> Table:
        """Rebuild a table from storage by replaying its record (every action checked again;
        the decks are the stored ones); raises :class:`TableDataError` if it does not replay."""
        try:
            if [h.number for h in row.hands] != list(range(1, len(row.hands) + 1)):
                raise TableDataError("the hands are not numbered 1, 2, ...")
            game = resume(row.rules, row.players, row.hands)
            history = list(row.hands[-1].actions)
        except TableDataError as e:
            raise TableDataError(f"table {row.id}: {e}") from None
        except (ValueError, IndexError) as e:  # the engine's errors (illegal action, bad card,
            # bad rules) and a table without hands
            raise TableDataError(f"table {row.id} does not replay: {e}") from None
        seats = [Seat(s.seat, s.name, s.controller, s.bot, s.token_hash) for s in row.seats]
        if [s.index for s in seats] != list(range(game.rules.num_players)):
            raise TableDataError(f"table {row.id}: the seats do not match the rules")
        table = Table(row.id, game, row.seed, seats, row.auto_next, history)
        table.chat.extend(row.chat)
        table.chat_count = row.chat[-1].idx + 1 if row.chat else 0
        table.rematch = row.rematch
        if not game.is_over and any(s.is_bot for s in seats):
            # who sat down is not stored: a person who has not acted yet is awaited
            acted = {seat for h in row.hands for seat, _ in h.actions}
            table.awaited = {s.index for s in seats if not s.is_bot and s.index not in acted}
        return table

    # -- reading --------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The table's rules."""
        return self.game.rules

    @property
    def hand_over(self) -> bool:
        """True when the current hand has ended (and the next is not dealt yet)."""
        return bool(self.game.state.is_over)

    @property
    def hand_number(self) -> int:
        """The current hand, from 1 (the last one once the game is over)."""
        return len(self.game.finished) + (0 if self.game.is_over else 1)

    @property
    def status(self) -> str:
        """``playing``, ``hand_over`` (waiting for the next deal) or ``game_over``."""
        if self.game.is_over:
            return "game_over"
        return "hand_over" if self.hand_over else "playing"

    @property
    def status_word(self) -> str:
        """The stored status: ``playing`` or ``over``."""
        return OVER if self.game.is_over else PLAYING

    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or ``None``."""
        digest = hash_token(token)
        found = None
        for seat in self.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                found = seat.index
        return found

    def humans(self) -> Iterator[Seat]:
        """Seats people play now."""
        return (s for s in self.seats if not s.is_bot)

    def deals_by_itself(self) -> bool:
        """True if the next hand is dealt without a request (see ``auto_next``)."""
        if self.auto_next is not None:
            return self.auto_next
        return not any(self.humans())

    def bot_to_move(self) -> Seat | None:
        """The bot seat to act now, if any."""
        if self.game.is_over or self.hand_over:
            return None
        seat = self.seats[self.game.state.to_move]
        return seat if seat.is_bot else None

    def waiting_for(self) -> list[int]:
        """The seats people play whose player has not sat down yet: the bots wait until every
        one of them has, so nobody arrives to moves already made."""
        return sorted(i for i in self.awaited if not self.seats[i].is_bot)

    def sit(self, seat: int) -> bool:
        """The player of ``seat`` is here (their token was used); True if they were awaited."""
        if seat not in self.awaited:
            return False
        self.awaited.discard(seat)
        return True

    def needs_server(self) -> bool:
        """True if the server must act next: a bot's turn, or a deal nobody needs to ask for,
        once every person has sat down."""
        if self.game.is_over or self.waiting_for():
            return False
        if self.hand_over:
            return self.deals_by_itself()
        return self.bot_to_move() is not None

    def bot_seed(self, seat: int) -> str:
        """The seed of a bot's decision: the same record gives the same decisions."""
        return f"{self.seed}:{self.hand_number}:{len(self.game.actions)}:{seat}"

    # -- changing -------------------------------------------------------------------------------

    def changed(self, play: bool = True) -> None:
        """Forget the built views; ``play`` also bumps :attr:`revision`."""
        if play:
            self.revision += 1
            self.hints.clear()
        self.views.clear()
