"""``canasta play``: a game of Canasta against bots in the terminal.

The player sits in seat 0; with partnerships the partner bot sits opposite, every other seat is
an opponent. The game is saved as a record (NOTATION §4) after every action, so that
``canasta replay FILE`` replays it and ``canasta play --resume FILE`` goes on with it.

This module only adds the subcommand; the screen (rich) is imported when the command runs, so
the rest of the command line works without rich installed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from canasta.rules import PRESETS, Rules

MODERN = "modern-american"

DESCRIPTION = """\
Play a game of Canasta against bots. You are seat 0 ("You"); in partnership rules your partner
sits opposite, and play goes clockwise from you. Each bot has a name and a level (easy,
medium, hard, expert).

At your turn the table is shown with a short numbered list of sensible moves: type a number, or
an action as docs/notation.md writes it ('draw', 'take 7h 7d', 'meld Kh Kd Ks, 8c 8d 2s',
'meld 7: 2c', 'discard 9s', 'ask', 'yes', 'no', 'pass') or its short form ('d', 't', 'm K',
'x 9s'). 'help' lists every command, 'hint' asks the expert bot, 'legal' lists every legal
action, 'quit' (or Ctrl-D, Ctrl-C) saves and leaves. Tab completes verbs and cards.

House rules: start from a preset and change any field of docs/rules.md, e.g.
  canasta play --rules classic --set target_score=3000 --set min_canastas_to_go_out=2

The game is saved after every action (default: a new file under
~/.local/share/canasta/games/); 'canasta replay --text FILE' tells it move by move and
'canasta play --resume FILE' continues it with the same bots (a Modern American game too: the
file says which family it holds). From a checkout, make play
PLAY_ARGS="--opponents hard --resume FILE" does the same (or '. .venv/bin/activate' first to
put canasta on the PATH). The bots are described in docs/bots.md."""


def add_command(subparsers: Any) -> None:
    """Add ``play`` to the ``canasta`` command's subparsers."""
    p = subparsers.add_parser(
        "play", help="play a game against bots in the terminal", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rules", metavar="R", help="preset (default classic): "
                   + ", ".join([*PRESETS, "modern-american"]))
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="change a rules field of the preset (repeatable; docs/rules.md lists "
                        "them), e.g. target_score=3000 or pile_frozen_by_wild=false; a list "
                        "or object in JSON")
    p.add_argument("--partner", metavar="BOT",
                   help="bot (or level) for your partner (default: heuristic)")
    p.add_argument("--opponents", metavar="BOT",
                   help="bot (or level) for the opponents (default: heuristic)")
    p.add_argument("--seed", type=int, help="seed of the shuffles (default: random)")
    p.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE")
    p.add_argument("--save", metavar="FILE",
                   help="where to save the game (default: a new file in "
                        "~/.local/share/canasta/games, or the --resume file)")
    p.add_argument("--delay", type=float, default=0.3, metavar="SECONDS",
                   help="pause after each bot move (default 0.3)")
    p.set_defaults(func=cmd_play)


def house_rules(rules: Rules, settings: Sequence[str]) -> Rules:
    """``rules`` with the ``FIELD=VALUE`` settings of ``--set`` (a value is read as JSON when
    it can be: ``3000``, ``false``, ``[[null, 15], [0, 50]]``; else as text). The rules engine
    judges the result (:class:`~canasta.errors.RulesError` with its own message)."""
    from canasta.errors import RulesError
    from canasta.rules import rules_from_json

    if not settings:
        return rules
    changes: dict[str, Any] = {}
    for setting in settings:
        field, eq, text = setting.partition("=")
        if not eq or not field.strip():
            raise RulesError(f"{setting!r} is not FIELD=VALUE (e.g. target_score=3000)")
        try:
            changes[field.strip()] = json.loads(text)
        except json.JSONDecodeError:
            changes[field.strip()] = text.strip()
    base = rules.to_json()
    preset = base if isinstance(base, dict) else {"preset": base}
    return rules_from_json({**preset, **changes})


def _fail(message: str) -> int:
    sys.stderr.write(message + "\n")
    return 2


def cmd_play(args: argparse.Namespace) -> int:
    """Run ``canasta play``; returns the exit status."""
    try:
        from rich.console import Console
    except ImportError:
        return _fail("canasta play needs rich: pip install 'canasta[cli]'")
    from canasta.bots import BotSpecError
    from canasta.errors import CanastaError
    from canasta.game import GameRecord
    from canasta.interfaces.terminal.app import run_session
    from canasta.interfaces.terminal.session import DEFAULT_BOT, Table, default_save_path
    from canasta.rules import get_rules

    # Ctrl-C saves and leaves even when a parent process started us with SIGINT ignored or
    # blocked (both are inherited).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    console = Console(highlight=False)
    partner = args.partner or DEFAULT_BOT
    opponents = args.opponents or DEFAULT_BOT
    save = Path(args.save).expanduser() if args.save else None
    if args.delay < 0:
        return _fail("invalid --delay: seconds, 0 or more")
    if args.resume:
        path = Path(args.resume).expanduser()
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            return _fail(f"cannot resume {args.resume!r}: {e.strerror}")
        family = _record_family(text)
        wanted = (args.rules or "").strip().lower()
        if family == MODERN or (family is None and wanted == MODERN):
            return _resume_modern(args, console, path, text)
        if wanted == MODERN:
            return _fail(f"cannot resume {args.resume!r}: it holds a game of the classic "
                         f"family, not {MODERN} (leave out --rules to resume it)")
        try:
            record = GameRecord.loads(text)
            table = Table.resume(record, save or path, partner, opponents)
        except CanastaError as e:
            return _fail(f"cannot resume {args.resume!r}: {e}")
        for flag in ("rules", "seed", "partner", "opponents", "set"):
            if getattr(args, flag):
                table.notes.append(f"--{flag} is ignored when resuming: the record decides")
        seed_note = ""
        console.print(f"Resuming {path} (hand {table.game.hand_number}, "
                      f"{len(table.game.actions)} moves into it).", soft_wrap=True)
    elif (args.rules or "").strip().lower() == "modern-american":
        return _play_modern(args, console)
    else:
        try:
            rules = get_rules(args.rules or "classic")
        except CanastaError as e:
            return _fail(f"invalid --rules: {e}")
        try:
            rules = house_rules(rules, args.set)
        except CanastaError as e:
            return _fail(f"invalid --set: {e}")
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        explicit = frozenset(r for r in ("partner", "opponents") if getattr(args, r))
        try:
            table = Table.new(rules, seed, partner, opponents, save or default_save_path(),
                              explicit)
        except BotSpecError as e:
            return _fail(f"invalid bot: {e}")
        if args.partner and not rules.partnership:
            table.notes.append(f"{rules.name} has no partnerships: --partner is ignored")
        seed_note = f"seed {seed}"
    try:
        table.save()
    except OSError as e:
        return _fail(f"cannot save the game to {str(table.save_path)!r}: {e.strerror}")
    names = table.names
    bots = ", ".join(f"{names[s]} ({table.levels[s]})" for s in sorted(table.bots))
    console.print(f"canasta play · {table.rules.name} · with {bots}")
    console.print(f"Saving the game to {table.save_path} after every move.", style="dim",
                  soft_wrap=True)
    console.print("Type 'help' for the commands, a number to play a suggestion.", style="dim")
    return run_session(table, console, args.delay, seed_note)


def _play_modern(args: argparse.Namespace, console: Any) -> int:
    """A game of Modern American Canasta (:mod:`canasta.interfaces.terminal.modern`)."""
    from canasta.interfaces.terminal.modern import ModernTable
    from canasta.interfaces.terminal.session import default_save_path

    for flag in ("set", "partner", "opponents"):
        if getattr(args, flag):
            return _fail(f"--{flag} is not played with modern-american yet: the bots are "
                         "modern-heuristic, the rules the preset's")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    save = Path(args.save).expanduser() if args.save else default_save_path()
    table = ModernTable.new(seed)
    console.print(f"canasta play · modern-american · seed {seed} · with Eva, Pat (your "
                  "partner) and Carla (modern-heuristic)")
    return _play_modern_table(args, console, table, save)


def _play_modern_table(args: argparse.Namespace, console: Any, table: Any, save: Path) -> int:
    """Save a Modern American game (:class:`~canasta.interfaces.terminal.modern.ModernTable`),
    then play it, saving after every action, until it ends or the player leaves."""
    from canasta.interfaces.terminal.modern import leave, play_on

    try:
        table.save(save)
    except OSError as e:
        return _fail(f"cannot save the game to {str(save)!r}: {e.strerror}")
    console.print(f"Saving the game to {save} after every move. Type 'help' for the "
                  "commands.", style="dim", soft_wrap=True)
    try:
        return play_on(console, console.input, table, save, max(0.0, args.delay))
    except (EOFError, KeyboardInterrupt):  # the game was saved after its last action
        console.print()
        leave(console, save)
        return 0


def _record_family(text: str) -> str | None:
    """The family of the game a save file holds (``modern-american`` or ``classic``), or
    ``None`` when the file is no record at all."""
    from canasta.modern_american.notation import is_modern_american

    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or "rules" not in data:
        return None
    return MODERN if is_modern_american(data["rules"]) else "classic"


def _resume_modern(args: argparse.Namespace, console: Any, path: Path, text: str) -> int:
    """Go on with a saved game of Modern American Canasta."""
    from canasta.errors import CanastaError
    from canasta.interfaces.terminal.modern import ModernTable

    if args.rules and args.rules.strip().lower() != MODERN:
        return _fail(f"cannot resume {args.resume!r}: it holds a game of {MODERN}, not "
                     f"{args.rules} (leave out --rules to resume it)")
    try:
        table = ModernTable.resume(text)
    except CanastaError as e:
        return _fail(f"cannot resume {args.resume!r}: {e}")
    for flag in ("seed", "partner", "opponents", "set"):
        if getattr(args, flag):
            table.notes.append(f"--{flag} is ignored when resuming: the record decides")
    save = Path(args.save).expanduser() if args.save else path
    bots = ", ".join(f"{name} ({table.bots[s]})" for s, name in ((1, "Eva"), (2, "Pat"),
                                                                 (3, "Carla")))
    console.print(f"Resuming {path} (hand {table.number}, {len(table.actions)} moves into it).",
                  soft_wrap=True)
    console.print(f"canasta play · {MODERN} · with {bots}; Pat is your partner")
    return _play_modern_table(args, console, table, save)
