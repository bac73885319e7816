"""``canasta play``: a game of Canasta against bots in the terminal, under any family's rules.

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

from canasta.rules import Rules

DESCRIPTION = """\
Play a game of Canasta against bots, under any preset of any family of rules (--rules lists
them). You are seat 0 ("You"); in partnership rules your partner sits opposite, and play goes
clockwise from you. Each bot has a name and a level (easy, medium, hard, expert).

At your turn the table is shown with a short numbered list of sensible moves: type a number, or
an action as docs/notation.md writes it ('draw', 'take 7h 7d', 'meld Kh Kd Ks, 8c 8d 2s',
'meld 7: 2c', 'discard 9s', 'ask', 'yes', 'no', 'pass', and a family's own actions such as
'keep 3s', 'meld W: 2c 2d JK' or 'special Pairs') or its short form ('d', 't', 'm K',
'x 9s'). 'help' lists every command, 'hint' asks the family's hint bot what it would play and
why, 'legal' lists every legal action, 'quit' (or Ctrl-D, Ctrl-C) saves and leaves. Tab
completes verbs and cards.

House rules: start from a preset and change any field of its family (docs/rules.md; each
family's own fields in docs/notation.md), e.g.
  canasta play --rules classic --set target_score=3000 --set min_canastas_to_go_out=2

The game is saved after every action (default: a new file under
~/.local/share/canasta/games/); 'canasta replay --text FILE' tells it move by move and
'canasta play --resume FILE' continues it with the same bots (the file says which family and
rules it holds). From a checkout, make play PLAY_ARGS="--opponents hard --resume FILE" does
the same (or '. .venv/bin/activate' first to put canasta on the PATH). The bots are described
in docs/bots.md: --partner and --opponents take a level or a bot of the game's family (listed
below; 'canasta hint' asks a bot about a position)."""


def add_command(subparsers: Any) -> None:
    """Add ``play`` to the ``canasta`` command's subparsers."""
    from canasta.family import preset_names
    from canasta.interfaces.cli import BotsHelp

    p = subparsers.add_parser(
        "play", help="play a game against bots in the terminal", description=DESCRIPTION,
        add_help=False, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-h", "--help", action=BotsHelp,
                   help="show this help message, every family's bots and levels, and exit")
    names = preset_names()
    p.add_argument("--rules", metavar="R", help=f"preset (default {names[0]}): "
                   + ", ".join(names))
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
    it can be: ``3000``, ``false``, ``[[null, 15], [0, 50]]``; else as text), in the family of
    ``rules``. The rules engine judges the result (:class:`~canasta.errors.RulesError` with its
    own message)."""
    from canasta.errors import RulesError
    from canasta.family import family_of

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
    return family_of(rules).rules_from_json({**preset, **changes})


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
    from canasta.family import families, family_of, get_rules
    from canasta.game import GameRecord
    from canasta.interfaces.terminal.app import run_session
    from canasta.interfaces.terminal.session import DEFAULT_BOT, Table, default_save_path

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
        try:
            record = GameRecord.loads(text)
            if args.rules and family_of(args.rules) is not family_of(record.rules):
                return _fail(f"cannot resume {args.resume!r}: it holds a game of "
                             f"{family_of(record.rules).title}, not {args.rules} (leave out "
                             "--rules to resume it)")
            table = Table.resume(record, save or path, partner, opponents)
        except CanastaError as e:
            return _fail(f"cannot resume {args.resume!r}: {e}")
        for flag in ("rules", "seed", "partner", "opponents", "set"):
            if getattr(args, flag):
                table.notes.append(f"--{flag} is ignored when resuming: the record decides")
        seed_note = ""
        console.print(f"Resuming {path} (hand {table.game.hand_number}, "
                      f"{len(table.game.actions)} moves into it).", soft_wrap=True)
    else:
        try:
            rules = get_rules(args.rules) if args.rules else families()[0].default_rules
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
