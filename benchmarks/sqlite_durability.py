"""The cost of ``canasta serve --durability full`` (SQLite ``synchronous=FULL``).

Stores ``--actions`` actions one commit each, as the server does (``Storage.append_action``:
one transaction per accepted action), on a fresh SQLite file with each durability in turn —
``normal`` first, the baseline — and prints the commits per second and the p50/p99 latency of
one commit. The file lives in ``--dir`` (default: the system's temporary folder): put it on the
disk the server's database will use, since the cost is the disk's sync (a tmpfs syncs nothing).

Example (the figures in the web table's report)::

    nice python benchmarks/sqlite_durability.py --actions 2000
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from canasta.interfaces.web.storage import HandRow, SeatRow, Storage, TableRow


def measure(folder: Path, durability: str, actions: int) -> dict[str, float]:
    """Commit ``actions`` actions on a fresh file; commits/s and latencies (ms)."""
    storage = Storage(f"sqlite:///{folder / f'{durability}.sqlite3'}", durability)
    storage.migrate()
    storage.create_table(TableRow("bench", "classic", ("a", "b"), 1, None, "playing",
                                  (SeatRow(0, "a", "human"), SeatRow(1, "b", "human")),
                                  (HandRow(1, 0, ("JK",)),)))
    latencies = []
    started = time.perf_counter()
    for index in range(actions):
        t = time.perf_counter()
        storage.append_action("bench", 1, index, index % 2, "draw")
        latencies.append((time.perf_counter() - t) * 1000)
    elapsed = time.perf_counter() - started
    storage.close()
    latencies.sort()
    return {"commits_per_s": actions / elapsed, "p50_ms": statistics.median(latencies),
            "p99_ms": latencies[int(0.99 * (len(latencies) - 1))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000, help="commits per setting (2000)")
    parser.add_argument("--dir", help="where the files go (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        results = {d: measure(Path(folder), d, args.actions) for d in ("normal", "full")}
    base = results["normal"]["commits_per_s"]
    for durability, r in results.items():
        print(f"--durability {durability:6}: {r['commits_per_s']:8.0f} commits/s  "
              f"p50 {r['p50_ms']:6.2f} ms  p99 {r['p99_ms']:6.2f} ms  "
              f"({r['commits_per_s'] / base:.2f}x normal)")


if __name__ == "__main__":
    main()
