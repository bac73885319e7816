"""Storage: every table survives a restart of the app, on SQLite and on PostgreSQL.

Each test runs twice (``database_url``): on a SQLite file, and on a fresh schema of the
PostgreSQL server named by ``CANASTA_TEST_POSTGRES_URL`` (skipped without it, failed in CI).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from canasta import apply, format_card, new_hand
from canasta.game import Game, GameRecord, as_played, replay
from canasta.interfaces.web import schema
from canasta.interfaces.web.storage import HandRow, SeatRow, Storage, TableRow
from canasta.interfaces.web.tables import hash_token
from canasta.rules import get_rules
from tests.web.support import TestClient, new_table, running_app, sit_down, wait_for


def views(client: TestClient, table_id: str, tokens: dict[int, str]) -> dict[Any, Any]:
    out: dict[Any, Any] = {None: client.get(f"/api/tables/{table_id}/view").json()}
    for seat, token in tokens.items():
        out[seat] = client.get(f"/api/tables/{table_id}/view", params={"token": token}).json()
    return out


def play_some(client: TestClient, table_id: str, tokens: dict[int, str], turns: int,
              rng: random.Random) -> None:
    """The humans sit down and play ``turns`` actions (bots answer in between)."""
    sit_down(client, table_id, tokens)
    done = 0
    while done < turns:
        v = wait_for(lambda: (w := client.get(f"/api/tables/{table_id}/view").json())
                     ["to_move"] in tokens and w)
        if v["status"] != "playing":
            return
        token = tokens[v["to_move"]]
        mine = client.get(f"/api/tables/{table_id}/view", params={"token": token}).json()
        r = client.post(f"/api/tables/{table_id}/actions",
                        json={"token": token, "action": rng.choice(mine["legal"])})
        assert r.status_code == 200, r.text
        done += 1


def test_migrations_run_twice(database_url: str) -> None:
    storage = Storage(database_url)
    try:
        storage.migrate()
        storage.migrate()
        assert storage.table_ids() == []
    finally:
        storage.close()


def test_tables_come_back_after_a_restart(database_url: str) -> None:
    seats = ["human", "bot:random", "human", "bot:random"]
    with running_app(database_url) as client:
        table_id, tokens = new_table(client, seats=seats, seed=31, names=["a", "b", "c", "d"])
        play_some(client, table_id, tokens, 12, random.Random(2))
        before = views(client, table_id, tokens)
        record = client.get(f"/api/tables/{table_id}/record").json()
        assert before[None]["version"] > 12
    with running_app(database_url) as client:
        assert table_id in client.app.state.lobby.tables  # type: ignore[attr-defined]
        after = views(client, table_id, tokens)
        for seat in before:  # the same views, connections aside
            assert after[seat] == before[seat], seat
        assert client.get(f"/api/tables/{table_id}/record").json() == record
        play_some(client, table_id, tokens, 4, random.Random(3))
        assert views(client, table_id, tokens)[None]["version"] > before[None]["version"]


def test_the_bots_still_wait_for_a_person_after_a_restart(database_url: str) -> None:
    seats = ["human", "bot:random", "bot:random", "bot:random"]
    seed = next(s for s in range(100) if Game(get_rules("classic"), seed=s).state.to_move != 0)
    with running_app(database_url) as client:
        table_id, tokens = new_table(client, seats=seats, seed=seed)
    with running_app(database_url) as client:
        time.sleep(0.3)  # the bots would have played by now (no delay)
        watched = client.get(f"/api/tables/{table_id}/view").json()
        assert watched["waiting_for"] == [0] and watched["log"] == []
        sit_down(client, table_id, tokens)
        wait_for(lambda: client.get(f"/api/tables/{table_id}/view").json()["log"])


def test_bot_tables_go_on_after_a_restart(database_url: str) -> None:
    with running_app(database_url, bot_delay=0.002) as client:
        table_id, _ = new_table(client, seats=["bot:random"] * 4, seed=5)
        wait_for(lambda: client.get(f"/api/tables/{table_id}/view").json()["version"] > 20)
    with running_app(database_url, bot_delay=0.0) as client:
        record = client.get(f"/api/tables/{table_id}/record").json()
        start = client.get(f"/api/tables/{table_id}/view").json()["version"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}/view").json()["version"]
                 > start + 10)
        later = client.get(f"/api/tables/{table_id}/record").json()
        first = record["hands"][0]["actions"]
        assert later["hands"][0]["actions"][:len(first)] == first


def test_a_seat_handed_to_a_bot_stays_with_the_bot(database_url: str) -> None:
    with running_app(database_url) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4, seed=9)
        r = client.post(f"/api/tables/{table_id}/seats/3/bot",
                        json={"token": tokens[3], "bot": "random"})
        assert r.status_code == 200
    with running_app(database_url) as client:
        seat = client.get(f"/api/tables/{table_id}/view").json()["seats"][3]
        assert seat["controller"] == "bot" and seat["bot"] == "random"
        r = client.post(f"/api/tables/{table_id}/seats/3/claim", json={"token": tokens[3]})
        assert r.json()["seats"][3]["controller"] == "human"


def test_tokens_are_stored_hashed(database_url: str) -> None:
    with running_app(database_url) as client:
        _, tokens = new_table(client, seats=["human"] * 4)
        storage = client.app.state.lobby.db.storage  # type: ignore[attr-defined]
        with storage.engine.connect() as conn:
            stored = [r[0] for r in conn.execute(select(schema.seats.c.token_hash))]
        assert len(stored) == 4 and not set(stored) & set(tokens.values())


def test_a_failed_write_changes_nothing(database_url: str, monkeypatch: pytest.MonkeyPatch,
                                        ) -> None:
    with running_app(database_url) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4, seed=14)
        mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
        before = client.get(f"/api/tables/{table_id}/view", params={"token": tokens[mover]})

        def broken(*_: Any) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(Storage, "append_action", broken)
        r = client.post(f"/api/tables/{table_id}/actions",
                        json={"token": tokens[mover], "action": "draw"})
        assert r.status_code == 503 and r.json()["code"] == "unavailable"
        monkeypatch.undo()
        after = wait_for(lambda: (w := client.get(f"/api/tables/{table_id}/view",
                                                  params={"token": tokens[mover]})).status_code
                         == 200 and w)
        assert after.json() == before.json()
        r = client.post(f"/api/tables/{table_id}/actions",
                        json={"token": tokens[mover], "action": "draw"})
        assert r.status_code == 200


def test_a_damaged_table_is_reported_and_the_others_go_on(database_url: str) -> None:
    with running_app(database_url) as client:
        bad, bad_tokens = new_table(client, seats=["human"] * 4, seed=1)
        good, good_tokens = new_table(client, seats=["human"] * 4, seed=2)
        for table_id, tokens in ((bad, bad_tokens), (good, good_tokens)):
            mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
            r = client.post(f"/api/tables/{table_id}/actions",
                            json={"token": tokens[mover], "action": "draw"})
            assert r.status_code == 200
        storage = client.app.state.lobby.db.storage  # type: ignore[attr-defined]
        with storage.engine.begin() as conn:
            conn.execute(update(schema.actions).where(schema.actions.c.table_id == bad)
                         .values(action="discard JK"))
    with running_app(database_url) as client:
        r = client.get(f"/api/tables/{bad}/view")
        assert r.status_code == 503 and r.json()["code"] == "damaged"
        assert client.get(f"/api/tables/{good}/view").status_code == 200


def test_the_stored_decks_not_the_seed_rebuild_a_table(database_url: str) -> None:
    with running_app(database_url) as client:
        table_id, tokens = new_table(client, seats=["human"] * 4, seed=40)
        play_some(client, table_id, tokens, 6, random.Random(4))
        before = views(client, table_id, tokens)
        storage = client.app.state.lobby.db.storage  # type: ignore[attr-defined]
        with storage.engine.begin() as conn:  # as if the shuffle had changed since
            conn.execute(update(schema.tables).where(schema.tables.c.id == table_id)
                         .values(seed=41))
    with running_app(database_url) as client:
        assert views(client, table_id, tokens) == before


OLD_SAVE = Path(__file__).resolve().parents[1] / "saves" / (
    "classic-6p-3x2-saved-before-the-one-card-rule.json")


def stored_row(record: GameRecord, table_id: str, tokens: dict[int, str]) -> TableRow:
    """A game record as the server stores a table of human seats (each action with its seat)."""
    played = as_played(record) or record
    hands = []
    scores = (0,) * played.rules.num_sides
    for number, replayed in enumerate(replay(played), 1):
        hand = replayed.record
        state = new_hand(played.rules, deck=hand.deck, dealer=hand.dealer, scores=scores)
        seated = []
        for line in hand.actions:
            seated.append((state.to_move, line))
            state = apply(state, line)
        hands.append(HandRow(number, hand.dealer, tuple(format_card(c) for c in hand.deck),
                             seated))
        scores = replayed.scores
    seats = tuple(SeatRow(s, f"p{s}", "human", None, hash_token(tokens[s]))
                  for s in range(record.rules.num_players))
    return TableRow(table_id, record.rules.to_json(), record.players, 1, True, "playing", seats,
                    tuple(hands))


def test_a_table_stored_before_the_one_card_rule_plays_on(database_url: str) -> None:
    """The stored game took a one-card pile with one card in hand while the stock lasted (hand
    1, action 150): legal then, illegal in today's classic family. The table comes back and
    goes on under ``one_card_pile_take_ban: "stock_out"``, the rule it was played under."""
    record = GameRecord.loads(OLD_SAVE.read_text())
    tokens = {s: f"seat-{s}-token-of-an-old-table" for s in range(record.rules.num_players)}
    storage = Storage(database_url)
    try:
        storage.migrate()
        storage.create_table(stored_row(record, "old-table", tokens))
    finally:
        storage.close()
    with running_app(database_url) as client:
        table = client.app.state.lobby.tables["old-table"]  # type: ignore[attr-defined]
        assert table.game.rules.one_card_pile_take_ban == "stock_out"
        play_some(client, "old-table", tokens, 5, random.Random(6))
        view = client.get("/api/tables/old-table/view").json()
        assert view["status"] == "playing" and view["version"] > 20
    with running_app(database_url) as client:  # and again after a restart
        table = client.app.state.lobby.tables["old-table"]  # type: ignore[attr-defined]
        assert table.game.rules.one_card_pile_take_ban == "stock_out"
        assert len(table.game.actions) == 25


@pytest.mark.parametrize("durability, synchronous", [("normal", 1), ("full", 2)])
def test_durability_sets_sqlite_s_synchronous(sqlite_url: str, durability: str,
                                              synchronous: int) -> None:
    storage = Storage(sqlite_url, durability)
    try:
        with storage.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == synchronous
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        storage.close()


def test_the_server_s_database_has_its_durability(sqlite_url: str) -> None:
    with running_app(sqlite_url, durability="full") as client:
        storage = client.app.state.lobby.db.storage  # type: ignore[attr-defined]
        with storage.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
