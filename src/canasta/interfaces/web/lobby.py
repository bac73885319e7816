"""All the tables of a server: creating them, acting at them, dealing, handing seats to bots,
pushing views, and bringing every table back after a restart.

The order of things for every change (an action, a deal, a seat change), under the table's
lock: the engine judges it on the current state (an illegal action changes nothing); the change
is committed to the database; only then is it applied in memory and pushed to everyone
listening. If the database fails, nothing changed: the table is dropped from memory and
reloaded from the database, and the client is told to try again (503).

Bots play from a task per table that runs while the server must act there (a bot's turn, or a
deal nobody needs to ask for); their decisions run off the event loop
(:class:`~canasta.interfaces.web.bot_runner.BotRunner`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from canasta.actions import Action
from canasta.bots import make_bot
from canasta.cards import format_card
from canasta.errors import IllegalActionError
from canasta.family import Family
from canasta.family import family_of as table_family
from canasta.interfaces.web.bot_runner import BotRunner, random_decision
from canasta.interfaces.web.errors import (
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    TooMany,
    Unavailable,
)
from canasta.interfaces.web.games import (
    deck_for,
    hint_bot,
    read_action,
    seat_bot,
    table_rules,
)
from canasta.interfaces.web.limits import RateLimiter
from canasta.interfaces.web.messages import CreateTable, dumps
from canasta.interfaces.web.settings import Settings
from canasta.interfaces.web.storage import (
    IDLE,
    OVER,
    PLAYING,
    ChatRow,
    Database,
    HandRow,
    Storage,
    TableSummary,
)
from canasta.interfaces.web.tables import (
    BOT,
    HUMAN,
    Listener,
    Seat,
    Table,
    TableDataError,
    hash_token,
)
from canasta.interfaces.web.views import build_view, display_names, public_record, replay_of
from canasta.interfaces.web.words import hint_parts

log = logging.getLogger(__name__)

SWEEP_SECONDS = 30.0
"""How often tables nobody uses are looked for."""
FULL_RETRY_SECONDS = 60.0
"""The ``Retry-After`` of a server that holds all the tables it may."""

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,32}$")

def _percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


class Stats:
    """Counts and latencies of committed actions, for ``GET /api/stats`` and the load test.

    The latency of an action is measured from the moment the server has it (a request parsed,
    a bot's decision back) until it is committed, applied and pushed.
    """

    def __init__(self, keep: int = 20000) -> None:
        self.started = time.time()
        self.actions = {"human": 0, "bot": 0}
        self.latency_ms: dict[str, deque[float]] = {"human": deque(maxlen=keep),
                                                    "bot": deque(maxlen=keep)}
        self.loop_lag_ms: deque[float] = deque(maxlen=keep)
        """How late a 20 ms timer of the event loop fires: time the loop was busy or starved."""

    def record(self, who: str, seconds: float) -> None:
        """Count one committed action."""
        self.actions[who] += 1
        self.latency_ms[who].append(seconds * 1000)

    def to_json(self) -> dict[str, Any]:
        """Totals and p50/p99 latencies (milliseconds) per kind of player."""
        out: dict[str, Any] = {"uptime_s": round(time.time() - self.started, 3)}
        for who, count in self.actions.items():
            values = list(self.latency_ms[who])
            out[who] = {"actions": count, "p50_ms": _percentile(values, 0.50),
                        "p99_ms": _percentile(values, 0.99)}
        lag = list(self.loop_lag_ms)
        out["loop_lag"] = {"p50_ms": _percentile(lag, 0.50), "p99_ms": _percentile(lag, 0.99),
                           "max_ms": round(max(lag), 3) if lag else None}
        return out

    async def watch_loop(self, period: float = 0.02) -> None:
        """Measure the event loop's lag until cancelled."""
        while True:
            started = time.perf_counter()
            await asyncio.sleep(period)
            self.loop_lag_ms.append((time.perf_counter() - started - period) * 1000)


class Lobby:
    """Every table of the server (see the module docstring)."""

    def __init__(self, settings: Settings, db: Database, runner: BotRunner) -> None:
        self.settings = settings
        self.db = db
        self.runner = runner
        self.tables: dict[str, Table] = {}
        self.stats = Stats()
        self._loading: dict[str, asyncio.Future[Table]] = {}
        self._bot_commits = asyncio.Semaphore(max(1, settings.bot_concurrency))
        """Bots' actions being stored at once, over all tables: a person's action never waits
        behind more than a few of them in the database queue. (Decisions are shared out by
        the runner, fairly, and never wait on this.)"""
        self._tasks: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._creations = RateLimiter(settings.tables_per_minute)
        """New tables by client address."""
        self._hints = RateLimiter(settings.hints_per_minute)
        """Hints by table and seat."""
        self._chat = RateLimiter(settings.chat_per_minute)
        """Chat lines by table and seat."""

    # -- start and stop --------------------------------------------------------------------------

    async def start(self) -> None:
        """Migrate the database, then load the tables in play that were active lately (at
        most ``max_tables``) and let their bots go on; the others are put away (``idle``)
        until someone asks for them."""
        await self.db.call(Storage.migrate)
        since = datetime.now(UTC) - timedelta(seconds=self.settings.table_idle_seconds)
        live = await self.db.call(Storage.live_table_ids, since, self.settings.max_tables)
        put_away = await self.db.call(Storage.put_away_all_but, live)
        for table_id in live:
            try:
                await self.get(table_id)
            except Exception:
                log.exception("table %s could not be resumed", table_id)
        log.info("%d tables resumed, %d put away", len(self.tables), put_away)
        self._spawn(self.stats.watch_loop(), "loop-lag")
        self._spawn(self._sweep_forever(), "sweep")

    async def stop(self) -> None:
        """Stop the bots and close every connection (the database already has everything)."""
        self._stopping = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for table in self.tables.values():
            for listener in list(table.listeners):
                listener.close()

    def _spawn(self, coro: Any, name: str) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- finding tables and seats ----------------------------------------------------------------

    async def get(self, table_id: str) -> Table:
        """The table, loaded from the database if it is not in memory; :class:`NotFound`."""
        table = self.tables.get(table_id)
        if table is not None:
            table.last_used = time.monotonic()
            return table
        if not TABLE_ID.match(table_id):
            raise NotFound("no such table")  # never echoed: it could be anything, of any size
        pending = self._loading.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Table] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id)
            future.set_result(table)
            return table
        except BaseException as e:
            future.set_exception(e)
            future.exception()  # retrieved: waiters re-raise it, nobody else needs to
            raise
        finally:
            del self._loading[table_id]

    async def _load(self, table_id: str) -> Table:
        row = await self.db.call(Storage.load_table, table_id)
        if row is None:
            raise NotFound(f"no table {table_id!r}")
        self._make_room()
        try:
            table = Table.from_row(row)
        except TableDataError as e:
            log.error("%s", e)
            raise Unavailable(f"table {table_id!r} cannot be replayed from the database",
                              "damaged") from None
        if row.status == IDLE:  # someone came back to a table put away: play goes on
            try:
                await self.db.call(Storage.set_status, table_id, PLAYING)
            except Exception:
                log.exception("could not bring table %s back", table_id)
                raise Unavailable("the table could not be brought back; try again") from None
        self.tables[table_id] = table
        self.kick(table)
        return table

    # -- bounding memory -------------------------------------------------------------------------

    def _make_room(self) -> None:
        """Room for one more table in memory: finished tables nobody watches leave first (the
        least recently used); :class:`Unavailable` ``server_full`` if there is none."""
        if len(self.tables) < self.settings.max_tables:
            return
        finished = sorted((t for t in self.tables.values() if t.game.is_over and not t.listeners),
                          key=lambda t: t.last_used)
        if finished:
            self._forget(finished[0])
            return
        raise Unavailable(f"the server holds all the tables it may ({self.settings.max_tables}); "
                          "try again later", "server_full", retry_after=FULL_RETRY_SECONDS)

    def _forget(self, table: Table) -> None:
        """Drop a table from memory (what it holds is in the database); its bots stop."""
        table.evicted = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for listener in list(table.listeners):
            listener.close()

    async def _put_away(self, table: Table) -> None:
        """Store a table in play as idle and drop it from memory (nobody is at it)."""
        async with self._locked(table):
            if table.listeners or not self._unused(table, time.monotonic()):
                return  # someone came meanwhile
            await self.db.call(Storage.set_status, table.id, IDLE)
            self._forget(table)
        log.info("table %s put away: nobody there for %g s", table.id,
                 self.settings.table_idle_seconds)

    def _unused(self, table: Table, now: float) -> bool:
        """True if nobody watches ``table`` and nobody asked for it for long enough: the
        table idle time while its game is on, ``finished_table_seconds`` once it is over."""
        if table.listeners:
            return False
        wait = (self.settings.finished_table_seconds if table.game.is_over
                else self.settings.table_idle_seconds)
        return now - table.last_used >= wait

    async def sweep(self) -> None:
        """Put away the tables in play nobody uses, and drop the finished ones."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            if table.evicted or not self._unused(table, now):
                continue
            if table.game.is_over:
                self._forget(table)
                continue
            try:
                await self._put_away(table)
            except Exception:  # the database failed: try again at the next sweep
                log.exception("table %s could not be put away", table.id)

    async def _sweep_forever(self) -> None:
        period = min(SWEEP_SECONDS, self.settings.table_idle_seconds / 4,
                     self.settings.finished_table_seconds / 4)
        while True:
            await asyncio.sleep(max(0.01, period))
            await self.sweep()

    def _seat(self, table: Table, token: str) -> int:
        seat = table.seat_of(token)
        if seat is None:
            raise Forbidden("this token holds no seat at this table")
        table.seats[seat].last_seen = time.monotonic()
        if table.sit(seat):  # the bots may start once the last person has sat down
            table.changed(play=False)
            self._broadcast(table)
            self.kick(table)
        return seat

    async def seat_of(self, table_id: str, token: str | None) -> tuple[Table, int | None]:
        """The table and the token's seat (``None`` without a token); :class:`Forbidden` for a
        wrong token."""
        table = await self.get(table_id)
        return table, (self._seat(table, token) if token is not None else None)

    @asynccontextmanager
    async def _locked(self, table: Table) -> AsyncIterator[None]:
        async with table.lock:
            if table.evicted:
                raise Unavailable("the table is being reloaded; try again", "reloading")
            yield

    # -- creating --------------------------------------------------------------------------------

    async def create(self, request: CreateTable,
                     client: str = "") -> tuple[Table, dict[int, str]]:
        """A new table, stored; returns it and the tokens of its human seats. ``client`` (an
        address) may create ``tables_per_minute``."""
        rules = table_rules(request.rules)
        family = table_family(rules)
        n = rules.num_players
        what = rules.name
        specs = request.seats or [HUMAN] + ["bot"] * (n - 1)
        if len(specs) != n:
            raise Invalid(f"{what} needs {n} seats, not {len(specs)}")
        if request.names is not None and len(request.names) != n:
            raise Invalid(f"{what} needs {n} names, not {len(request.names)}")
        seats: list[Seat] = []
        tokens: dict[int, str] = {}
        for i, spec in enumerate(specs):
            if spec == HUMAN:
                tokens[i] = secrets.token_urlsafe(24)
                name = request.names[i] if request.names else f"p{i}"
                seats.append(Seat(i, name, HUMAN, None, hash_token(tokens[i])))
                continue
            _, colon, bot = spec.partition(":")
            if colon and not bot.strip():
                raise Invalid(f"seat {i}: 'bot:' needs a bot after the colon, or write 'bot'")
            bot = bot.strip() or seat_bot(family, self.settings.default_bot)
            self._check_bot(bot, family)
            name = request.names[i] if request.names else f"bot:{bot}"
            seats.append(Seat(i, name, BOT, bot, None))
        wait = self._creations.take(client)
        if wait:
            raise TooMany(f"too many new tables from {client or 'this client'}: try again in "
                          f"{math.ceil(wait)} s", retry_after=wait)
        self._make_room()
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        table = Table.new(secrets.token_urlsafe(9), rules, seed, seats, request.auto_next)
        if any(seat.is_bot for seat in seats):  # the bots wait until every person sits down
            table.awaited = set(tokens)
        try:
            await self.db.call(Storage.create_table, table.to_row())
        except Exception:
            log.exception("could not store a new table")
            raise Unavailable("the table could not be stored; try again") from None
        self.tables[table.id] = table
        self.kick(table)
        return table, tokens

    def _check_bot(self, spec: str, family: Family) -> None:
        """:class:`Invalid` for a spec that names no bot of the table's family, or asks for
        more search than the server gives one decision (a table's bots share the workers with
        every other table)."""
        try:
            bot = make_bot(spec, family)
        except (ValueError, TypeError) as e:
            raise Invalid(f"bot {spec!r}: {e}") from None
        seconds = getattr(bot, "seconds", None)
        if seconds is not None and seconds > self.settings.max_bot_seconds:
            raise Invalid(f"bot {spec!r}: at most {self.settings.max_bot_seconds:g} seconds "
                          "a decision on this server")
        iterations = getattr(bot, "iterations", None)
        if iterations is not None and iterations > self.settings.max_bot_iterations:
            raise Invalid(f"bot {spec!r}: at most {self.settings.max_bot_iterations} "
                          "iterations a decision on this server")

    async def list_tables(self, limit: int, status: str | None) -> list[TableSummary]:
        """The most recent tables."""
        return await self.db.call(Storage.list_tables, limit, status)

    # -- views -------------------------------------------------------------------------------

    def view_of(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (``None``: spectators), built once per change."""
        return self._built(table, seat)[0]

    def _built(self, table: Table, seat: int | None) -> tuple[dict[str, Any], str]:
        built = table.views.get(seat)
        if built is None:
            view = build_view(table, seat)
            built = table.views[seat] = (view, dumps({"type": "view", "view": view}))
        return built

    def _broadcast(self, table: Table) -> None:
        """Push the new views; a listener whose view cannot be built or sent is closed (1011),
        and the others still get theirs."""
        for listener in list(table.listeners):
            try:
                listener.send(self._built(table, listener.seat)[1])
            except Exception:
                log.exception("table %s: a view could not be pushed", table.id)
                listener.close(1011)

    def _publish(self, table: Table) -> None:
        """After a stored change: forget the old views, push the new ones, let the bots go
        on. Never raises: the change is stored, and its answer must say so."""
        try:
            table.changed()
            self._broadcast(table)
            self.kick(table)
        except Exception:
            log.exception("table %s: the change is stored but could not be pushed", table.id)

    async def view(self, table_id: str, token: str | None) -> dict[str, Any]:
        """``GET /api/tables/{id}/view``."""
        table, seat = await self.seat_of(table_id, token)
        return self.view_of(table, seat)

    async def record(self, table_id: str) -> dict[str, Any]:
        """The game record once the game is over; before, the public record (no decks)."""
        table = await self.get(table_id)
        return public_record(table)

    async def replay(self, table_id: str) -> dict[str, Any]:
        """Every position of the hands that are over, played again by the engine from the
        record: the whole game once it is over; while it is on, the hands already played (the
        hand in play has none: it would show the hands and the stock)."""
        table = await self.get(table_id)
        return await asyncio.to_thread(replay_of, table)

    # -- acting ------------------------------------------------------------------------------

    async def act(self, table_id: str, token: str, text: str) -> dict[str, Any]:
        """Play an action for the token's seat; returns the seat's new view."""
        started = time.perf_counter()
        table, seat = await self.seat_of(table_id, token)
        assert seat is not None
        action = read_action(table.family, table.rules, text)  # malformed: refused at once
        async with self._locked(table):
            if table.seats[seat].is_bot:
                raise Conflict(f"a bot plays seat {seat} now: claim the seat back first",
                               "bot_seat")
            await self._commit(table, seat, action)
            view = self.view_of(table, seat)
        self.stats.record("human", time.perf_counter() - started)
        return view

    async def _commit(self, table: Table, seat: int, action: Action | str) -> None:
        """Judge, store, apply and push one action (the table's lock is held)."""
        game, family = table.game, table.family
        if game.is_over:
            raise Conflict("the game is over", "game_over")
        state = game.state
        if table.hand_over:
            raise Conflict("the hand is over: ask for the next hand", "hand_over")
        if state.to_move != seat:
            raise Conflict(f"not your turn: p{state.to_move} is to move", "not_your_turn")
        if isinstance(action, str):
            action = read_action(family, game.rules, action)
        try:
            after = family.apply(state, action)
        except IllegalActionError as e:
            raise Conflict(str(e), "illegal") from None
        final = game.ends_game(after)
        text = family.format_action(game.rules, action)
        try:
            await self.db.call(Storage.append_action, table.id, table.hand_number,
                               len(game.actions), seat, text, OVER if final else None)
        except Exception:
            log.exception("could not store %r at table %s", text, table.id)
            self._evict(table)
            raise Unavailable("the action could not be stored; nothing changed (try again)") \
                from None
        # Committed: from here on nothing may turn the action into an error answer.
        game.apply(action)
        table.history.append((seat, text))
        if final:
            game.next_hand()  # scores the last hand; the game is over
        self._publish(table)

    async def next_hand(self, table_id: str, token: str) -> dict[str, Any]:
        """Deal the next hand (any seated player may ask once the hand is over)."""
        table, seat = await self.seat_of(table_id, token)
        async with self._locked(table):
            if table.game.is_over:
                raise Conflict("the game is over", "game_over")
            if not table.hand_over:
                raise Conflict("the hand is not over", "hand_not_over")
            await self._deal(table)
            return self.view_of(table, seat)

    async def _deal(self, table: Table) -> None:
        """Store and deal the next hand (the table's lock is held, the hand is over)."""
        game = table.game
        number = table.hand_number + 1
        deck = deck_for(game.rules, table.seed, number)
        dealer = (game.state.dealer + 1) % game.rules.num_players
        try:
            await self.db.call(Storage.add_hand, table.id,
                               HandRow(number, dealer, tuple(format_card(c) for c in deck)))
        except Exception:
            log.exception("could not store hand %d at table %s", number, table.id)
            self._evict(table)
            raise Unavailable("the deal could not be stored; nothing changed (try again)") \
                from None
        game.next_hand(deck)
        table.history = []
        self._publish(table)

    # -- seats -------------------------------------------------------------------------------

    def _seat_at(self, table: Table, index: int) -> Seat:
        if not 0 <= index < len(table.seats):
            raise NotFound(f"no seat {index} at this table")
        return table.seats[index]

    def is_idle(self, seat: Seat) -> bool:
        """No connection, and no request with the seat's token for ``idle_seconds``."""
        return (seat.connections == 0
                and time.monotonic() - seat.last_seen >= self.settings.idle_seconds)

    async def hand_to_bot(self, table_id: str, index: int, token: str,
                          bot: str | None) -> dict[str, Any]:
        """A bot takes over a human seat: asked by its own player at any time, or by another
        player at the table once the seat is idle. Returns the asker's view."""
        table, actor = await self.seat_of(table_id, token)
        target = self._seat_at(table, index)
        spec = bot or seat_bot(table.family, self.settings.default_bot)
        self._check_bot(spec, table.family)
        async with self._locked(table):
            if target.is_bot:
                raise Conflict(f"a bot already plays seat {index}", "seat_is_bot")
            if actor != index and not self.is_idle(target):
                raise Forbidden(f"seat {index} is not idle: only its player may hand it to a bot "
                                f"before {self.settings.idle_seconds:g} s without a connection",
                                "not_idle")
            await self._set_controller(table, target, BOT, spec)
            return self.view_of(table, actor)

    async def claim(self, table_id: str, index: int, token: str) -> dict[str, Any]:
        """A player takes their seat back from a bot (with the seat's own token)."""
        table, actor = await self.seat_of(table_id, token)
        target = self._seat_at(table, index)
        if actor != index:
            raise Forbidden("a seat can be claimed only with its own token", "not_your_seat")
        async with self._locked(table):
            if target.is_bot:
                await self._set_controller(table, target, HUMAN, None)
            return self.view_of(table, actor)

    async def _set_controller(self, table: Table, seat: Seat, controller: str,
                              bot: str | None) -> None:
        try:
            await self.db.call(Storage.update_seat, table.id, seat.index, controller, bot)
        except Exception:
            log.exception("could not store seat %d at table %s", seat.index, table.id)
            self._evict(table)
            raise Unavailable("the seat change could not be stored; try again") from None
        seat.controller, seat.bot = controller, bot
        self._publish(table)

    # -- what the people at a table say, and the rematch ---------------------------------------

    async def say(self, table_id: str, token: str, text: str) -> dict[str, Any]:
        """A line of the token's seat's player in the table's chat (stored, then shown to the
        seats and the spectators); returns the seat's view. ``text`` is checked by
        :class:`~canasta.interfaces.web.messages.ChatLine`."""
        table, seat = await self.seat_of(table_id, token)
        assert seat is not None
        wait = self._chat.take((table.id, seat))
        if wait:
            raise TooMany(f"too many lines: the next in {math.ceil(wait)} s", retry_after=wait)
        async with self._locked(table):
            line = ChatRow(table.chat_count, seat, text)
            try:
                await self.db.call(Storage.add_chat, table.id, line)
            except Exception:
                log.exception("could not store a chat line at table %s", table.id)
                raise Unavailable("the line could not be stored; try again") from None
            table.chat.append(line)
            table.chat_count += 1
            table.changed(play=False)
            self._broadcast(table)
            return self.view_of(table, seat)

    async def rematch(self, table_id: str, token: str) -> dict[str, Any]:
        """Once the game is over, a new table with the same rules and seats (each person's
        token holds the same seat there, so every link stays good): ``{"table_id"}``. Asked
        again, by anyone at the table, the same rematch."""
        table, seat = await self.seat_of(table_id, token)
        async with self._locked(table):
            if not table.game.is_over:
                raise Conflict("a rematch follows the end of the game", "game_not_over")
            if table.rematch is None:
                # the bots keep the names they had: the same players sit down again
                # a person's seat handed to a bot is theirs again (its token holds it)
                names = [n["name"] for n in display_names(table)]
                seats = [Seat(s.index, names[s.index], HUMAN, None, s.token_hash)
                         if s.token_hash is not None else
                         Seat(s.index, names[s.index], s.controller, s.bot, None)
                         for s in table.seats]
                self._make_room()
                again = Table.new(secrets.token_urlsafe(9), table.rules, secrets.randbits(63),
                                  seats, table.auto_next)
                if any(s.is_bot for s in seats):
                    again.awaited = {s.index for s in seats if not s.is_bot and s.index != seat}
                try:
                    await self.db.call(Storage.create_table, again.to_row())
                    await self.db.call(Storage.set_rematch, table.id, again.id)
                except Exception:
                    log.exception("could not store the rematch of table %s", table.id)
                    raise Unavailable("the rematch could not be stored; try again") from None
                self.tables[again.id] = again
                table.rematch = again.id
                table.changed(play=False)
                self._broadcast(table)
                self.kick(again)
            return {"table_id": table.rematch}

    # -- hints -------------------------------------------------------------------------------

    async def hint(self, table_id: str, token: str) -> dict[str, Any]:
        """What the hint bot would play for the token's seat, and why; asked again before
        anything is played, the same hint, which spends nothing of the rate limit."""
        table, seat = await self.seat_of(table_id, token)
        assert seat is not None
        state = table.game.state
        if table.game.is_over or table.hand_over or state.to_move != seat:
            raise Conflict("not your turn", "not_your_turn")
        given = table.hints.get(seat)
        if given is not None:
            return given
        wait = self._hints.take((table.id, seat))
        if wait:
            raise TooMany(f"too many hints: the next in {math.ceil(wait)} s", retry_after=wait)
        spec = hint_bot(table.family, self.settings.hint_bot)
        revision = table.revision
        decision = await self.runner.decide(spec, state, seat, table.bot_seed(seat),
                                            explain=True, table=table.id)
        words, details = hint_parts(decision.explanation, decision.action)
        hint = {"action": decision.action, "explanation": decision.explanation,
                "words": words, "details": details, "bot": decision.bot}
        if table.revision == revision:  # nothing was played while the bot thought
            table.hints[seat] = hint
        return hint

    # -- listeners -----------------------------------------------------------------------------

    def listen(self, table: Table, seat: int | None) -> Listener:
        """Register a connection; it is sent the current view at once."""
        if seat is None:
            spectators = sum(1 for other in table.listeners if other.seat is None)
            if spectators >= self.settings.max_spectators_per_table:
                raise Conflict("too many spectators at this table", "too_many_listeners")
        elif table.seats[seat].connections >= self.settings.max_connections_per_seat:
            raise Conflict(f"too many connections for seat {seat}", "too_many_listeners")
        listener = Listener(seat)
        table.listeners.add(listener)
        if seat is not None:
            table.seats[seat].connections += 1
            table.seats[seat].last_seen = time.monotonic()
            table.changed(play=False)
            self._broadcast(table)
        else:
            listener.send(self._built(table, None)[1])
        return listener

    def unlisten(self, table: Table, listener: Listener) -> None:
        """Forget a connection."""
        if listener not in table.listeners:
            return
        table.listeners.discard(listener)
        listener.close()
        if listener.seat is not None:
            seat = table.seats[listener.seat]
            seat.connections = max(0, seat.connections - 1)
            seat.last_seen = time.monotonic()
            table.changed(play=False)
            self._broadcast(table)

    # -- the server's own moves ------------------------------------------------------------------

    def kick(self, table: Table) -> None:
        """Start the table's bot task if the server must act there and none runs."""
        if self._stopping or table.evicted or not table.needs_server():
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = self._spawn(self._serve(table), f"bots-{table.id}")

    async def _serve(self, table: Table) -> None:
        failures = 0
        while (not self._stopping and not table.evicted
               and table.needs_server()):
            if self.settings.bot_delay > 0:
                await asyncio.sleep(self.settings.bot_delay)
            try:
                await self._server_step(table)
                failures = 0
            except Unavailable:
                return  # the table is reloaded from the database, bots and all
            except Exception:
                failures += 1
                log.exception("table %s: the server's move failed", table.id)
                await asyncio.sleep(min(30.0, 0.5 * 2 ** failures))

    async def _server_step(self, table: Table) -> None:
        """One move of the server at ``table``: a bot's action, or a deal."""
        revision = table.revision
        seat = table.bot_to_move()
        if seat is None:
            async with self._bot_commits, self._locked(table):
                if table.revision == revision and table.needs_server():
                    await self._deal(table)
            return
        state = table.game.state
        rng_seed = table.bot_seed(seat.index)
        assert seat.bot is not None
        decision = await self.runner.decide(seat.bot, state, seat.index, rng_seed,
                                            table=table.id)
        async with self._bot_commits, self._locked(table):
            if table.revision != revision:
                return  # something changed meanwhile: think again
            started = time.perf_counter()
            try:
                await self._commit(table, seat.index, decision.action)
            except (Invalid, Conflict) as e:
                log.warning("table %s: bot %r chose %r (%s); a random action stands in",
                            table.id, seat.bot, decision.action, e)
                stand_in = random_decision(state, rng_seed, str(e))
                await self._commit(table, seat.index, stand_in.action)
            self.stats.record("bot", time.perf_counter() - started)

    def _evict(self, table: Table) -> None:
        """Drop a table whose last change may not have been stored, and reload it."""
        self._forget(table)
        if not self._stopping:
            self._spawn(self._reload(table.id), f"reload-{table.id}")

    async def _reload(self, table_id: str) -> None:
        delay = 0.5
        while not self._stopping:
            try:
                await self.get(table_id)
                return
            except Exception:
                log.warning("table %s: reload failed; retrying in %.1f s", table_id, delay)
                await asyncio.sleep(delay)
                delay = min(30.0, delay * 2)
