"""Modern American Canasta at the web table: one person (seat 0) with a bot partner against two
bots, on the page ``/modern.html`` (docs/variants.md).

``POST /api/modern/tables`` deals a game and returns its id and the person's token;
``GET /api/modern/tables/{id}/view`` is what seat 0 sees with its legal actions; ``POST
.../actions`` plays one (the bots then play until it is seat 0's turn again or the hand ends);
``POST .../next`` deals the next hand; ``GET .../hint`` says what ``modern-search`` would play
for you, and why. A refused action is a 409 whose ``words`` say the rule
and nothing changes. The record is stored after every request that plays, before the reply, so
a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import json
import secrets
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Header, Path, Query, Request
from fastapi.responses import JSONResponse
from sqlalchemy import select

from canasta.bots.modern import ModernHeuristicBot, ModernSearchBot
from canasta.cards import format_card
from canasta.errors import CanastaError, IllegalActionError
from canasta.interfaces.web import schema
from canasta.interfaces.web.errors import Conflict, Forbidden, Invalid, NotFound
from canasta.interfaces.web.families import modern_rules_json
from canasta.interfaces.web.storage import Storage
from canasta.interfaces.web.tables import hash_token
from canasta.interfaces.web.words import hint_words
from canasta.modern_american.action_text import format_action, key_text, parse_action
from canasta.modern_american.ending import winner
from canasta.modern_american.game import replay
from canasta.modern_american.hand import RULES, Hand, shuffled_pack
from canasta.modern_american.melds import MAX_MELD
from canasta.modern_american.play import apply, legal_actions, new_hand
from canasta.modern_american.view import seat_view

router = APIRouter(prefix="/api/modern", tags=["modern-american"])

NAMES = ("You", "Eva", "Pat", "Carla")
"""Seat 0 is the person; Pat (opposite) is the partner."""
PLAYERS = ["you", "bot:modern-heuristic", "bot:modern-heuristic", "bot:modern-heuristic"]


@dataclass
class ModernGame:
    """A game in play: its record, and the hand and scores the record replays to."""

    id: str
    token_hash: str
    record: dict[str, Any]
    hand: Hand = field(init=False)
    scores: tuple[int, ...] = field(init=False)
    won: int | None = field(init=False)

    def __post_init__(self) -> None:
        last = list(replay(self.record))[-1]
        self.hand = last.hand
        self.scores = last.scores if last.hand.end is not None else last.hand.scores
        self.won = last.winner

    @property
    def seed(self) -> int:
        return int(self.record["seed"])

    def play(self, action_text: str) -> None:
        """Seat 0's action, then the bots' until seat 0 is to move or the hand ends."""
        if self.hand.end is not None:
            raise Conflict("the hand is over: deal the next one", "hand_over")
        if self.hand.to_move != 0:
            raise Conflict("it is not your turn", "not_your_turn")
        try:
            action = parse_action(self.hand, action_text)
        except CanastaError as e:
            raise Invalid(f"invalid action {action_text!r}: {e}", "invalid_action") from None
        try:
            after = apply(self.hand, action)
        except IllegalActionError as e:
            raise Conflict(e.reason, "illegal") from None
        self._log(action)
        self.hand = after
        self.bots_play()

    def bots_play(self) -> None:
        """The bots play until seat 0 is to move or the hand is over."""
        while self.hand.end is None and self.hand.to_move != 0:
            seat = self.hand.to_move
            bot = ModernHeuristicBot(self.seed * 1009 + len(self._actions()) * 4 + seat)
            action = bot.choose(self.hand)
            self._log(action)
            self.hand = apply(self.hand, action)
        if self.hand.end is not None:
            self.scores = tuple(a + s.total for a, s in zip(self.hand.scores,
                                                             self.hand.end.sides))
            dream = (self.hand.side_of(self.hand.end.special[0])
                     if self.hand.end.special and self.hand.end.wins_game else None)
            self.won = winner(self.hand.rules, self.scores, dream)

    def next_hand(self) -> None:
        """Deal the next hand once this one is over and the game goes on."""
        if self.hand.end is None:
            raise Conflict("the hand is still being played", "hand_in_play")
        if self.won is not None:
            raise Conflict("the game is over", "game_over")
        self._deal(len(self.record["hands"]))
        self.bots_play()

    def _deal(self, number: int) -> None:
        deck = shuffled_pack(RULES, self.seed * 1000 + number)
        self.record["hands"].append({"dealer": number % 4,
                                     "deck": [format_card(c) for c in deck], "actions": []})
        self.hand = new_hand(deck=deck, dealer=number % 4, scores=self.scores,
                             rules=self.hand.rules)

    def _actions(self) -> list[str]:
        actions: list[str] = self.record["hands"][-1]["actions"]
        return actions

    def _log(self, action: Any) -> None:
        self._actions().append(f"p{self.hand.to_move}: {format_action(self.hand, action)}")

    def view(self) -> dict[str, Any]:
        """What seat 0 sees, its legal actions in the notation, the moves of this hand."""
        h = self.hand
        mine = h.to_move == 0 and h.end is None
        return {
            "id": self.id, "names": list(NAMES), "hand_number": len(self.record["hands"]),
            "position": seat_view(h, 0),
            "legal": [format_action(h, a) for a in legal_actions(h)] if mine else [],
            "moves": [_move_words(line) for line in self._actions()[-24:]],
            "scores": list(self.scores), "dead": [key_text(r) for r in sorted(h.dead)],
            "canastas": [[key_text(k) for k, m in h.side_melds(side) if len(m) >= MAX_MELD]
                         for side in (0, 1)],
            "turn_card_drawn": h.turn_card_drawn, "winner": self.won,
            "rules": self.record["rules"],
        }


def _move_words(line: str) -> str:
    """A move as seat 0 may read it: which three another player keeps stays hidden."""
    seat, _, text = line.partition(": ")
    who = int(seat[1:])
    if who != 0 and text.startswith("keep"):
        text = "lays the threes (and may keep one)"
    return f"{NAMES[who]}: {text}"


# -- storage ---------------------------------------------------------------------------------

def _save(storage: Storage, game: ModernGame, new: bool) -> None:
    row = {"record": json.dumps(game.record), "updated_at": datetime.now(UTC)}
    with storage.engine.begin() as conn:
        if new:
            conn.execute(schema.modern_games.insert().values(
                id=game.id, token_hash=game.token_hash, **row))
        else:
            conn.execute(schema.modern_games.update().where(
                schema.modern_games.c.id == game.id).values(**row))


def _load(storage: Storage, game_id: str) -> tuple[str, str] | None:
    with storage.engine.connect() as conn:
        row = conn.execute(select(schema.modern_games.c.token_hash,
                                  schema.modern_games.c.record)
                           .where(schema.modern_games.c.id == game_id)).first()
    return None if row is None else (row[0], row[1])


def _games(request: Request) -> dict[str, ModernGame]:
    games: dict[str, ModernGame] | None = getattr(request.app.state, "modern_games", None)
    if games is None:
        games = request.app.state.modern_games = {}
    return games


async def _game(request: Request, game_id: str, token: str | None) -> ModernGame:
    games = _games(request)
    game = games.get(game_id)
    if game is None:
        found = await request.app.state.lobby.db.call(_load, game_id)
        if found is None:
            raise NotFound(f"no Modern American table {game_id!r}", "no_table")
        game = ModernGame(game_id, found[0], json.loads(found[1]))
        games[game_id] = game
    if token is None or not secrets.compare_digest(hash_token(token), game.token_hash):
        raise Forbidden("this table needs its player's token", "bad_token")
    return game


Token = Annotated[str | None, Query(max_length=128, description="The player's token.")]
TokenHeader = Annotated[str | None, Header(max_length=128)]
GameId = Annotated[str, Path(max_length=64, description="The table's id.")]


@router.post("/tables", status_code=201, operation_id="createModernTable")
async def create_table(
        request: Request,
        house_rules: Annotated[dict[str, Any] | None, Body(embed=True)] = None) -> JSONResponse:
    """Deal a game of Modern American Canasta: you against three ``modern-heuristic`` bots,
    with the preset's rules or some of its switches set (``house_rules``)."""
    game_id = secrets.token_urlsafe(9)
    token = secrets.token_urlsafe(24)
    seed = secrets.randbelow(2**31)
    record = {"rules": modern_rules_json(house_rules), "players": PLAYERS, "seed": seed, "hands": [{
        "dealer": 0, "deck": [format_card(c) for c in shuffled_pack(RULES, seed * 1000)],
        "actions": []}]}
    game = ModernGame(game_id, hash_token(token), record)
    game.bots_play()
    await request.app.state.lobby.db.call(_save, game, True)
    _games(request)[game_id] = game
    return JSONResponse({"id": game_id, "token": token, "view": game.view()}, status_code=201)


@router.get("/tables/{game_id}/view", operation_id="getModernView")
async def get_view(request: Request, game_id: GameId, token: Token = None,
                   x_canasta_token: TokenHeader = None) -> JSONResponse:
    """What you see at the table, with your legal actions."""
    game = await _game(request, game_id, token or x_canasta_token)
    return JSONResponse(game.view())


@router.post("/tables/{game_id}/actions", operation_id="playModernAction")
async def post_action(request: Request, game_id: GameId,
                      action: Annotated[str, Body(embed=True, max_length=300)],
                      token: Token = None, x_canasta_token: TokenHeader = None) -> JSONResponse:
    """Play one action (``draw``, ``meld Kc Kd Ks``, ``keep none``, ...); the bots answer."""
    game = await _game(request, game_id, token or x_canasta_token)
    before = json.dumps(game.record)
    try:
        game.play(action)
        await request.app.state.lobby.db.call(_save, game, False)
    except Exception:
        _games(request)[game_id] = ModernGame(game.id, game.token_hash, json.loads(before))
        raise
    return JSONResponse(game.view())


@router.post("/tables/{game_id}/next", operation_id="nextModernHand")
async def post_next(request: Request, game_id: GameId, token: Token = None,
                    x_canasta_token: TokenHeader = None) -> JSONResponse:
    """Deal the next hand (after the end of one, while the game goes on)."""
    game = await _game(request, game_id, token or x_canasta_token)
    before = json.dumps(game.record)
    try:
        game.next_hand()
        await request.app.state.lobby.db.call(_save, game, False)
    except Exception:
        _games(request)[game_id] = ModernGame(game.id, game.token_hash, json.loads(before))
        raise
    return JSONResponse(game.view())


@router.get("/tables/{game_id}/hint", operation_id="getModernHint")
async def get_hint(request: Request, game_id: GameId, token: Token = None,
                   x_canasta_token: TokenHeader = None) -> JSONResponse:
    """What the hint bot (``modern-search``, which reads only what your seat may know) would
    play for you now, and why: ``{"action", "explanation", "words", "bot"}``."""
    game = await _game(request, game_id, token or x_canasta_token)
    h = game.hand
    if h.end is not None or h.to_move != 0:
        raise Conflict("a hint is for your turn", "not_your_turn")
    bot = ModernSearchBot(game.seed * 1013 + len(game._actions()))
    action, why = await asyncio.to_thread(bot.explain, h)  # play-outs: off the event loop
    text = format_action(h, action)
    return JSONResponse({"action": text, "explanation": why, "words": hint_words(why, text),
                         "bot": bot.name})
