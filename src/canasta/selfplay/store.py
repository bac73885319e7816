"""The data set on disk: Parquet shards written atomically, resuming, reading, rebuilding.

Layout of an output folder ``OUT``:

- ``OUT/selfplay.json``: the settings (:meth:`SelfplayConfig.to_json`) and the tensor width;
  a run into a folder that has one must have the same settings, and then resumes;
- ``OUT/steps/shard-NNNNNN.parquet``: one row per action id chosen (:data:`STEP_COLUMNS`);
- ``OUT/records/shard-NNNNNN.parquet``: one row per hand (:data:`RECORD_COLUMNS`).

A shard's files are written under hidden temporary names (``.shard-NNNNNN.parquet.HOST-PID.tmp``,
which readers of Parquet folders skip) and renamed when complete, the records first: a shard is
done when its steps file exists, and a run resumes with the shards that are not.

pyarrow is imported by the functions that use it.
"""

from __future__ import annotations

import json
import os
import re
import socket
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canasta.cards import format_card, parse_cards
from canasta.rl.table import seat_returns
from canasta.selfplay.plan import SelfplayConfig, SelfplayError
from canasta.selfplay.records import PlayedHand
from canasta.selfplay.steps import HandSteps

MANIFEST = "selfplay.json"
STEPS = "steps"
RECORDS = "records"
METADATA_KEY = b"canasta.selfplay"
ROW_GROUP_ROWS = 16384
"""Rows held in memory before they are written as one Parquet row group."""
COMPRESSION = "zstd"
SHARD_FILE = re.compile(r"shard-(\d{6})\.parquet")
TEMPORARY = re.compile(r"\.shard-\d{6}\.parquet\..+\.tmp")

STEP_COLUMNS = {
    "shard": "int32: the shard",
    "game": "int32: the game within the shard, from 0",
    "hand": "int16: the hand within the game, from 0",
    "seat": "int8: the seat that chose",
    "step": "int32: the row within the hand, from 0",
    "action": "int32: the engine action within the hand the id belongs to, from 0",
    "bot": "string: the bot at that seat",
    "observation": "fixed_size_list<float32>: the seat's tensor (the family's, "
                   "canasta.rl.research) with the ids before this one spelled",
    "legal": "list<int16>: the ids the mask allowed (the family's alphabet)",
    "chosen": "int16: the id chosen",
    "return": "float32: the hand's return for that seat (its side's total minus the mean of "
              "the other sides')",
}
RECORD_COLUMNS = {
    "shard": "int32", "game": "int32", "hand": "int16",
    "dealer": "int8: the dealer's seat",
    "scores": "list<int32>: side scores at the start of the hand",
    "bots": "list<string>: the bot at each seat",
    "deck": "list<string>: the pack order before the deal, as card texts (NOTATION)",
    "actions": "list<string>: the actions in order, as the family's texts (NOTATION)",
    "totals": "list<int32>: side totals of the hand",
}


def shard_file(shard: int) -> str:
    """The file name of shard ``shard`` (in ``steps/`` and in ``records/``)."""
    return f"shard-{shard:06d}.parquet"


def _metadata(config: SelfplayConfig) -> dict[bytes, bytes]:
    settings = {**config.to_json(), "tensor_width": config.tensor_width}
    return {METADATA_KEY: json.dumps(settings).encode()}


def _steps_schema(config: SelfplayConfig) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("shard", pa.int32()), ("game", pa.int32()), ("hand", pa.int16()), ("seat", pa.int8()),
        ("step", pa.int32()), ("action", pa.int32()), ("bot", pa.dictionary(pa.int8(),
                                                                             pa.string())),
        ("observation", pa.list_(pa.float32(), config.tensor_width)),
        ("legal", pa.list_(pa.int16())), ("chosen", pa.int16()), ("return", pa.float32()),
    ], metadata=_metadata(config))


def _records_schema(config: SelfplayConfig) -> Any:
    import pyarrow as pa

    return pa.schema([
        ("shard", pa.int32()), ("game", pa.int32()), ("hand", pa.int16()),
        ("dealer", pa.int8()), ("scores", pa.list_(pa.int32())),
        ("bots", pa.list_(pa.string())), ("deck", pa.list_(pa.string())),
        ("actions", pa.list_(pa.string())), ("totals", pa.list_(pa.int32())),
    ], metadata=_metadata(config))


def steps_table(config: SelfplayConfig, shard: int,
                hands: Iterable[tuple[PlayedHand, HandSteps]]) -> Any:
    """The rows of some hands of a shard as a ``pyarrow.Table``."""
    import pyarrow as pa

    schema = _steps_schema(config)
    width = config.tensor_width
    cols: dict[str, list[Any]] = {name: [] for name in ("game", "hand", "step", "bot",
                                                          "return")}
    # one dictionary for every file of a run: the bots in the order of the settings
    names = list(dict.fromkeys(config.bots))
    code = {name: i for i, name in enumerate(names)}
    seats, actions, chosen, observations, legal = [], [], [], [], []
    offsets: list[int] = [0]
    for played, steps in hands:
        n = len(steps)
        returns = seat_returns(config.rules, played.totals)
        cols["game"].extend([played.game] * n)
        cols["hand"].extend([played.hand] * n)
        cols["step"].extend(range(n))
        cols["bot"].extend(code[played.bots[s]] for s in steps.seats)
        cols["return"].extend(returns[s] for s in steps.seats)
        seats.append(steps.seats)
        actions.append(steps.actions)
        chosen.append(steps.chosen)
        observations.append(steps.observations)
        legal.append(steps.legal)
        base = offsets[-1]
        offsets.extend(base + o for o in steps.offsets[1:])
    rows = len(cols["game"])

    def joined(parts: list[Any], kind: Any) -> Any:
        data = b"".join(p.tobytes() for p in parts)
        return pa.Array.from_buffers(kind, len(data) * 8 // kind.bit_width,
                                     [None, pa.py_buffer(data)])

    legal_values = joined(legal, pa.int16())
    arrays = [
        pa.array([shard] * rows, pa.int32()), pa.array(cols["game"], pa.int32()),
        pa.array(cols["hand"], pa.int16()), joined(seats, pa.int8()),
        pa.array(cols["step"], pa.int32()), joined(actions, pa.int32()),
        pa.DictionaryArray.from_arrays(pa.array(cols["bot"], pa.int8()),
                                       pa.array(names, pa.string())),
        pa.FixedSizeListArray.from_arrays(joined(observations, pa.float32()), width),
        pa.ListArray.from_arrays(pa.array(offsets, pa.int32()), legal_values),
        joined(chosen, pa.int16()), pa.array(cols["return"], pa.float32()),
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def records_table(config: SelfplayConfig, shard: int, hands: Iterable[PlayedHand]) -> Any:
    """The records of some hands of a shard as a ``pyarrow.Table``."""
    import pyarrow as pa

    hands = list(hands)
    return pa.Table.from_pydict({
        "shard": [shard] * len(hands), "game": [h.game for h in hands],
        "hand": [h.hand for h in hands], "dealer": [h.dealer for h in hands],
        "scores": [list(h.scores) for h in hands], "bots": [list(h.bots) for h in hands],
        "deck": [[format_card(c) for c in h.deck] for h in hands],
        "actions": [list(h.actions) for h in hands],
        "totals": [list(h.totals) for h in hands],
    }, schema=_records_schema(config))


class ShardWriter:
    """Writes one shard: rows as they come (a row group at a time), records at the end; both
    files under temporary names until :meth:`close` renames them. Used as a context manager,
    an error removes the temporary files."""

    def __init__(self, out: str, config: SelfplayConfig, shard: int) -> None:
        import pyarrow.parquet as pq

        self.config, self.shard = config, shard
        name = shard_file(shard)
        hidden = f".{name}.{socket.gethostname()}-{os.getpid()}.tmp"
        self._paths = {kind: (Path(out, kind, hidden), Path(out, kind, name))
                       for kind in (STEPS, RECORDS)}
        self._file = open(self._paths[STEPS][0], "wb")  # noqa: SIM115 (closed in close/abort)
        self._writer = pq.ParquetWriter(self._file, _steps_schema(config),
                                        compression=COMPRESSION)
        self._pending: list[tuple[PlayedHand, HandSteps]] = []
        self._pending_rows = 0
        self._hands: list[PlayedHand] = []
        self.bytes = 0
        """Size of both files, once closed."""

    def add(self, played: PlayedHand, steps: HandSteps) -> None:
        """Add a hand (hands come in order)."""
        self._hands.append(played)
        self._pending.append((played, steps))
        self._pending_rows += len(steps)
        if self._pending_rows >= ROW_GROUP_ROWS:
            self._flush()

    def _flush(self) -> None:
        if self._pending:
            self._writer.write_table(steps_table(self.config, self.shard, self._pending))
        self._pending, self._pending_rows = [], 0

    def close(self) -> None:
        """Write what is left and rename both files to their final names."""
        import pyarrow.parquet as pq

        self._flush()
        self._writer.close()
        _sync_and_close(self._file)
        records_tmp, records = self._paths[RECORDS]
        with open(records_tmp, "wb") as f:
            pq.write_table(records_table(self.config, self.shard, self._hands), f,
                           compression=COMPRESSION)
            _sync(f)
        steps_tmp, steps = self._paths[STEPS]
        os.replace(records_tmp, records)
        os.replace(steps_tmp, steps)  # the shard is done
        self.bytes = steps.stat().st_size + records.stat().st_size

    def abort(self) -> None:
        """Remove the temporary files."""
        try:
            self._writer.close()
        except Exception:  # already broken: the file goes anyway
            pass
        self._file.close()
        for tmp, _ in self._paths.values():
            tmp.unlink(missing_ok=True)

    def __enter__(self) -> ShardWriter:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is not None:
            self.abort()
            return
        try:
            self.close()
        except BaseException:
            self.abort()
            raise


def _sync(f: Any) -> None:
    f.flush()
    os.fsync(f.fileno())


def _sync_and_close(f: Any) -> None:
    _sync(f)
    f.close()


# -- a run's folder ------------------------------------------------------------------------------
def prepare(out: str, config: SelfplayConfig) -> set[int]:
    """Make ``out`` ready for ``config`` and return the shards already done there.

    A new or empty folder gets the settings file; a folder with one must hold the same
    settings (the run then resumes); anything else is refused with :class:`SelfplayError`.
    Temporary files of shards that never finished are removed.
    """
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise SelfplayError(f"{out!r} is not a folder")
    manifest = root / MANIFEST
    wanted = {**config.to_json(), "tensor_width": config.tensor_width}
    if manifest.exists():
        try:
            found = json.loads(manifest.read_text())
        except (OSError, ValueError) as e:
            raise SelfplayError(f"cannot read {str(manifest)!r}: {e}") from None
        if found != wanted:
            keys = sorted(k for k in set(found) | set(wanted) if found.get(k) != wanted.get(k))
            raise SelfplayError(
                f"{out!r} holds a self-play run with other settings ({', '.join(keys)} differ):"
                " run again with the same settings to resume it, or choose another folder")
    elif root.exists() and any(root.iterdir()):
        raise SelfplayError(f"{out!r} is not empty and holds no {MANIFEST}: choose an empty "
                            "or new folder")
    else:
        for kind in (STEPS, RECORDS):
            (root / kind).mkdir(parents=True, exist_ok=True)
        tmp = root / f".{MANIFEST}.tmp"
        tmp.write_text(json.dumps(wanted, indent=1) + "\n")
        os.replace(tmp, manifest)
    for kind in (STEPS, RECORDS):
        (root / kind).mkdir(exist_ok=True)
        for path in (root / kind).iterdir():
            if TEMPORARY.fullmatch(path.name):
                path.unlink(missing_ok=True)
    return done_shards(out)


def done_shards(out: str) -> set[int]:
    """The shards whose files are both in ``out``."""
    found = []
    for kind in (STEPS, RECORDS):
        folder = Path(out, kind)
        names = (SHARD_FILE.fullmatch(p.name) for p in folder.iterdir()) \
            if folder.is_dir() else iter(())
        found.append({int(m.group(1)) for m in names if m})
    return found[0] & found[1]


@dataclass(frozen=True)
class DatasetSize:
    """What an output folder holds."""

    shards: int
    hands: int
    rows: int
    bytes: int


def dataset_size(out: str) -> DatasetSize:
    """Shards, hands, rows and bytes of the finished shards in ``out`` (from the Parquet
    footers: nothing is read but them)."""
    import pyarrow.parquet as pq

    shards = sorted(done_shards(out))
    hands = rows = size = 0
    for shard in shards:
        steps, records = (Path(out, kind, shard_file(shard)) for kind in (STEPS, RECORDS))
        rows += pq.read_metadata(steps).num_rows
        hands += pq.read_metadata(records).num_rows
        size += steps.stat().st_size + records.stat().st_size
    return DatasetSize(len(shards), hands, rows, size)


# -- reading back --------------------------------------------------------------------------------
def read_config(out: str) -> SelfplayConfig:
    """The settings of the run in ``out``."""
    try:
        return SelfplayConfig.from_json(json.loads(Path(out, MANIFEST).read_text()))
    except (OSError, ValueError) as e:
        raise SelfplayError(f"{out!r} holds no self-play run: {e}") from None


def read_records(out: str, shard: int) -> list[PlayedHand]:
    """The hands of a finished shard, from its records file."""
    import pyarrow.parquet as pq

    table = pq.read_table(Path(out, RECORDS, shard_file(shard)))
    return [PlayedHand(game=r["game"], hand=r["hand"], dealer=r["dealer"],
                       scores=tuple(r["scores"]), bots=tuple(r["bots"]),
                       deck=tuple(parse_cards(r["deck"])), actions=tuple(r["actions"]),
                       totals=tuple(r["totals"]))
            for r in table.to_pylist()]


def replay_steps(config: SelfplayConfig, hands: Iterable[PlayedHand]) -> Iterator[
        tuple[PlayedHand, HandSteps]]:
    """The rows of recorded hands, computed again by playing their actions."""
    rules = config.rules
    research = config.research
    family = research.family
    for played in hands:
        position = family.new_hand(rules, deck=played.deck, dealer=played.dealer,
                                   scores=played.scores, number=played.hand + 1)
        steps = HandSteps(research)
        for text in played.actions:
            action = family.parse_action(rules, text)
            steps.add(position, position.to_move, family.legal_actions(position), action)
            position = family.apply(position, action)
        if not position.is_over or tuple(family.totals(position)) != played.totals:
            raise SelfplayError(f"game {played.game}, hand {played.hand}: the record does not "
                                "replay to its totals")
        yield played, steps


def rebuild_steps(out: str, shard: int) -> Any:
    """Shard ``shard``'s rows as a ``pyarrow.Table``, rebuilt from its records alone."""
    config = read_config(out)
    return steps_table(config, shard, replay_steps(config, read_records(out, shard)))
