"""Bots at the server: a bot that fails, dawdles or cheats never stalls a table, and the
request limits hold."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

import pytest

from canasta import Action, Observation, apply, get_rules, new_hand, parse_action
from canasta.bots import bot_table
from canasta.interfaces.web.bot_runner import BotRunner
from canasta.interfaces.web.bot_workers import Decision
from tests.web.support import TestClient, new_table, running_app, wait_for

BOTS = bot_table().bots


class BrokenBot:
    name = "broken"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("out of order")


class SleepyBot:
    name = "sleepy"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(0.5)
        return legal[0]


class CheatingBot:
    name = "cheating"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        return parse_action("meld JK JK JK JK")


@pytest.mark.parametrize("bot", [BrokenBot, SleepyBot, CheatingBot])
def test_a_failing_bot_is_stood_in_for(bot: type, sqlite_url: str,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, bot.name, bot)
    with running_app(sqlite_url, bot_timeout=0.1) as client:
        table_id, _ = new_table(client, seats=[f"bot:{bot.name}"] * 4, seed=3)
        wait_for(lambda: client.get(f"/api/tables/{table_id}/view").json()["version"] >= 6,
                 timeout=20)


def test_the_hint_names_the_bot_that_answered(client: TestClient,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, tokens = new_table(client, seats=["human"] * 4, seed=3)
    mover = client.get(f"/api/tables/{table_id}/view").json()["to_move"]
    monkeypatch.setitem(BOTS, "heuristic", BrokenBot)
    hint = client.get(f"/api/tables/{table_id}/hint", params={"token": tokens[mover]}).json()
    assert hint["bot"] == "fallback" and hint["explanation"] == "the bot failed"


def test_request_bodies_are_capped(client: TestClient) -> None:
    table_id, _ = new_table(client, seats=["human"] * 4)
    big = b'{"token": "' + b"x" * 70000 + b'", "action": "draw"}'
    r = client.post(f"/api/tables/{table_id}/actions", content=big,
                    headers={"content-type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "too_large"

    def chunks() -> object:
        yield b'{"token": "'
        for _ in range(100):
            yield b"x" * 1000
        yield b'", "action": "draw"}'

    r = client.post(f"/api/tables/{table_id}/actions", content=chunks(),  # type: ignore[arg-type]
                    headers={"content-type": "application/json"})
    assert r.status_code == 413


SERVER_THAT_DIES = """
import asyncio, os, sys
from canasta import new_hand, get_rules
from canasta.interfaces.web.bot_runner import BotRunner

async def main():
    runner = BotRunner(workers=1)
    state = new_hand(get_rules("classic"), 1)
    await runner.decide("random", state, state.to_move, "seed")
    print(*runner.worker_pids(), flush=True)
    await asyncio.sleep(60)

asyncio.run(main())
"""


def test_bot_workers_end_when_the_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER_THAT_DIES], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert server.stdout is not None
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers and all(_alive(pid) for pid in workers)
    finally:
        server.kill()  # SIGKILL: the server cannot stop its pool
        server.wait()
    try:
        wait_for(lambda: not any(_alive(pid) for pid in workers), timeout=10)
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is dead: its parent never reaps it
        return stat.read().split(") ")[-1][0] != "Z"


# -- fair bot time ---------------------------------------------------------------------------------

def _decide_all(runner: BotRunner, asks: list[tuple[str, str]],
                gap: float = 0.0) -> list[tuple[Decision, float]]:
    """Ask ``runner`` for one decision per ``(spec, table)``, in order (``gap`` seconds apart);
    returns each decision with the second it came back (from the first ask)."""
    state = new_hand(get_rules("classic"), 1)

    async def main() -> list[tuple[Decision, float]]:
        started = time.monotonic()

        async def one(spec: str, table: str) -> tuple[Decision, float]:
            decision = await runner.decide(spec, state, state.to_move, "seed", table=table)
            return decision, time.monotonic() - started

        tasks = []
        for spec, table in asks:
            tasks.append(asyncio.create_task(one(spec, table)))
            await asyncio.sleep(gap or 0)
        try:
            return list(await asyncio.gather(*tasks))
        finally:
            runner.close()

    return asyncio.run(main())


class RecordingBot:
    name = "recording"

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(0.05)
        return legal[0]


def test_tables_take_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "recording", RecordingBot)
    runner = BotRunner(workers=0, threads=1)
    asks = [("recording", "busy")] * 4 + [("recording", "other")]
    done = _decide_all(runner, asks)
    order = sorted(range(len(asks)), key=lambda i: done[i][1])
    # one worker: the busy table's first decision runs at once, its second was queued before
    # the other table's; then the other table's turn comes, before the busy table's last two
    assert order.index(4) == 2, order


def test_a_decision_s_time_counts_from_when_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "sleepy", SleepyBot)  # 0.5 s a decision
    runner = BotRunner(workers=0, threads=1, timeout=0.9)
    done = _decide_all(runner, [("sleepy", "a"), ("sleepy", "b"), ("sleepy", "c")])
    assert done[2][1] > 0.9  # the last one waited longer than the timeout in the queue...
    assert [d.bot for d, _ in done] == ["sleepy"] * 3  # ...and still had its whole time
    assert runner.counts.timeouts == 0


class SearchingBot:
    """Thinks for a budget, like a search."""

    name = "searching"
    seconds = 0.6

    def choose(self, obs: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
        time.sleep(self.seconds)
        return legal[0]


def test_searches_leave_a_worker_for_quick_decisions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "searching", SearchingBot)
    runner = BotRunner(workers=0, threads=2)
    asks = [("searching", f"search-{i}") for i in range(3)] + [("random", "quick")]
    done = _decide_all(runner, asks, gap=0.01)
    quick_at = done[3][1]
    first_search_at = min(at for _, at in done[:3])
    assert quick_at < first_search_at < quick_at + 1, done  # it never waited for a search
    # and the searches took turns on the one worker they may hold
    assert sorted(at for _, at in done[:3])[-1] > 3 * SearchingBot.seconds


def test_a_decision_out_of_time_is_ended_alone() -> None:
    """Real processes: the search that runs out of time is killed, and only it; the others
    (another search, a quick bot) answer for themselves."""
    runner = BotRunner(workers=3, timeout=2.0)
    pids: list[list[int]] = []

    async def watch() -> None:
        while len(runner.worker_pids()) < 3:
            await asyncio.sleep(0.05)
        pids.append(runner.worker_pids())

    state = apply(new_hand(get_rules("classic"), 1), parse_action("draw"))  # choices to think on

    async def main() -> list[Decision]:
        runner.start()
        await watch()
        try:
            asks = [("ismcts:seconds=10", "slow"), ("ismcts:seconds=0.3", "search"),
                    ("random", "quick")]
            return list(await asyncio.gather(*(
                runner.decide(spec, state, state.to_move, "seed", table=table)
                for spec, table in asks)))
        finally:
            pids.append(runner.worker_pids())
            runner.close()

    slow, search, quick = asyncio.run(main())
    assert slow.bot == "fallback" and slow.explanation == "the bot ran out of time"
    assert search.bot == "ismcts:seconds=0.3" and quick.bot == "random"
    assert runner.counts.timeouts == 1 and runner.counts.replaced == 1
    before, after = set(pids[0]), set(pids[1])
    assert len(before - after) == 1 and len(before & after) == 2  # one process replaced
