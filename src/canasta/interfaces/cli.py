"""The ``canasta`` command (NOTATION §5).

Exit status: 0 on success; 1 for a well-formed action the rules do not allow (one line on
standard error starting ``illegal action``); 2 for input that cannot be understood (one line
starting ``invalid``). Nothing is printed on standard output unless the status is 0, and no
traceback ever reaches the user.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from canasta import COMPILED, __version__
from canasta.errors import CanastaError, IllegalActionError, NotationError
from canasta.family import (
    Family,
    apply_line,
    family_of,
    get_rules,
    new_hand,
    parse_position,
    preset_names,
    rules_from_json,
    state_to_json,
)
from canasta.game import GameRecord, replay
from canasta.position import dumps
from canasta.rules import Rules

BUILD = "rules core compiled with mypyc" if COMPILED else "pure-Python rules core"
"""Which build of the rules core runs (``canasta --version`` says it)."""

EXIT_ILLEGAL = 1
EXIT_INVALID = 2

DESCRIPTION = """\
Canasta: play against bots (play), at a web table (serve), compare bots (arena), and drive
the rules engine (deal, legal, apply, replay, hint).

Positions and game records are JSON (see docs/notation.md); actions are one line each, e.g.
'draw', 'take 7h 7d', 'meld Kh Kd Ks, 8c 8d 2s', 'meld 7: 2c', 'discard 9s', 'ask', 'yes'.
Read a file path, or '-' for standard input. Every command plays every family of rules: a
position or record says its family by its "rules".

presets: {presets}

exit status: 0 ok; 1 an action the rules do not allow ("illegal action ..." on stderr);
2 input that cannot be understood ("invalid ..." on stderr)."""


class _Invalid(Exception):
    """Bad command-line input (exit 2)."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Invalid(f"invalid arguments: {message} (see canasta {self.prog.split()[-1]} "
                       "--help)" if " " in self.prog else f"invalid arguments: {message}")


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise _Invalid(f"invalid input: cannot read {path!r}: {e.strerror}") from None


def _print_json(data: Any) -> None:
    sys.stdout.write(dumps(data) + "\n")


def _rules_arg(text: str) -> Rules:
    """A preset name of any family, or a rules object in JSON (NOTATION §3)."""
    if not text.lstrip().startswith("{"):
        return get_rules(text)
    try:
        return rules_from_json(json.loads(text))
    except json.JSONDecodeError as e:
        raise _Invalid(f"invalid --rules: not a preset name nor a JSON object ({e})") from None


def cmd_deal(args: argparse.Namespace) -> int:
    rules = _rules_arg(args.rules)
    scores = None
    if args.scores is not None:
        try:
            scores = [int(s) for s in args.scores.split(",")]
        except ValueError:
            raise _Invalid(f"invalid --scores {args.scores!r}: integers separated by commas") \
                from None
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    _print_json(state_to_json(new_hand(rules, seed, dealer=args.dealer, scores=scores)))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    position = parse_position(_read(args.position))
    family = family_of(position)
    lines = [family.format_action(position.rules, a) for a in family.legal_actions(position)]
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    position = parse_position(_read(args.position))
    for line in args.actions:
        try:
            position = apply_line(position, line)
        except NotationError as e:
            raise _Invalid(f"invalid action {line!r}: {e}") from None
    _print_json(state_to_json(position))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = GameRecord.loads(_read(args.record))
    family = family_of(record.rules)
    try:
        return _replay(family, record, args.text)
    except IllegalActionError as e:
        older = family.as_played(record)
        if older is None:
            raise
        raise IllegalActionError(e.action, f"{e.reason} (a game saved before a rule of its "
                                 f"family changed: it replays with {_changed(record, older)} "
                                 "in its rules, and 'canasta play --resume' goes on under "
                                 "that rule)") from None


def _changed(record: GameRecord, older: GameRecord) -> str:
    """The rules fields ``older`` sets and ``record`` does not, as JSON members."""
    now, then = record.rules.to_json(), older.rules.to_json()
    now = now if isinstance(now, dict) else {"preset": now}
    then = then if isinstance(then, dict) else {"preset": then}
    return ", ".join(json.dumps({key: value})[1:-1] for key, value in then.items()
                     if now.get(key) != value)


def _replay(family: Family, record: GameRecord, text: bool) -> int:
    if text:
        from canasta.interfaces.terminal.advice import pretty_cards, replay_text

        # all of it first: an illegal record prints nothing
        lines = [pretty_cards(line) for line in replay_text(record)]
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    hands = []
    last = None
    for hand in replay(record):
        last = hand
        entry: dict[str, Any] = {"hand": hand.number, "dealer": hand.record.dealer,
                                 "actions": len(hand.record.actions)}
        result = family.result_to_json(hand.state)
        if result is not None:
            entry["result"] = result
        else:
            entry["in_progress"] = family.position_to_json(hand.state)
        entry["scores"] = list(hand.scores)
        hands.append(entry)
    scores = list(last.scores) if last else [0] * record.rules.num_sides
    winner = (family.winner(record.rules, scores, last.state)
              if last and last.state.is_over else None)
    _print_json({"rules": record.rules.to_json(), "players": list(record.players),
                 "hands": hands, "scores": scores, "over": winner is not None,
                 "winner": winner})
    return 0


HINT_DESCRIPTION = """\
Print the action a bot plays in a position, on one line, and then its reason in a player's
words (the terminal game's 'hint' says the same). The bot sees only what the player to move
may see (its own hand and the table), never the other hands or the stock.

The bot is the family's hint level unless --bot or --level names another: the levels are
easy, medium, hard and expert (each family's bots and levels are listed below). The same
--seed gives the same answer; searching bots take about a second.

  canasta deal --rules classic --seed 4 > pos.json
  canasta hint pos.json                      # the hint level's move and why
  canasta hint pos.json --level easy --json  # {"action", "reason", "bot", "seat"}

exit status: 0 ok; 2 a position that cannot be read, a hand that is over, an unknown bot."""


def bots_help() -> str:
    """Every family's bots and levels, for ``--help``: a help that names what it accepts."""
    from canasta.bots import bot_table
    from canasta.family import families

    lines = ["bots (a name, or name:key=value,...) and levels, by family:"]
    for family in families():
        table = bot_table(family)
        levels = ", ".join(f"{level} = {spec}" for level, spec in table.levels.items())
        for text, indent in ((f"{family.title} ({', '.join(family.presets())}):", "  "),
                             (f"bots: {', '.join(table.bots)}", "    "),
                             (f"levels: {levels}; hints: {table.hint_level}", "    ")):
            lines.append(textwrap.fill(text, 92, initial_indent=indent,
                                       subsequent_indent=indent + "  ",
                                       break_on_hyphens=False))
    return "\n".join(lines)


class BotsHelp(argparse.Action):
    """``-h``/``--help`` that ends with every family's bots and levels (read when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        sys.stdout.write(parser.format_help() + "\n" + bots_help() + "\n")
        parser.exit()


def cmd_hint(args: argparse.Namespace) -> int:
    from canasta.bots import BotSpecError, bot_table, explain, make_bot

    position = parse_position(_read(args.position))
    family = family_of(position)
    if position.is_over:
        raise _Invalid("invalid position: the hand is over, nobody is to move")
    table = bot_table(family)
    if args.level is not None and args.level not in table.levels:
        raise _Invalid(f"invalid --level {args.level!r}: one of {', '.join(table.levels)}")
    spec = args.bot or (table.levels[args.level] if args.level else table.hint_level)
    try:
        bot = make_bot(spec, family)
    except BotSpecError as e:
        raise _Invalid(f"invalid --bot: {e}") from None
    seat = position.to_move
    legal = family.legal_actions(position)
    action, reason = explain(bot, family.observe(position, seat), legal,
                             random.Random(args.seed))
    text = family.format_action(position.rules, action)
    if args.json:
        _print_json({"action": text, "reason": reason, "bot": spec, "seat": seat})
    else:
        sys.stdout.write(f"{text}\n{reason}\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command (its subcommands are added here)."""
    presets = ", ".join(preset_names())
    parser = _Parser(prog="canasta", description=DESCRIPTION.format(presets=presets),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"canasta {__version__} ({BUILD})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("deal", help="print the starting position of a new hand",
                       description="Print the starting position of a hand (JSON). The same "
                       "--seed gives the same deal.")
    p.add_argument("--rules", required=True, metavar="R",
                   help=f"a preset of any family ({presets}) or a rules object in JSON, "
                   "e.g. '{\"preset\": \"classic\", \"hand_size\": 13}'")
    p.add_argument("--seed", type=int, help="shuffle seed (default: random)")
    p.add_argument("--dealer", type=int, help="dealer seat (default: the rules' first dealer)")
    p.add_argument("--scores", metavar="S0,S1,..",
                   help="cumulative scores of the sides (they set the opening minimums)")
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("legal", help="list the legal actions of a position",
                       description="Print every legal action for the player to move, canonical, "
                       "one per line.")
    p.add_argument("position", help="position JSON file, or - for standard input")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("apply", help="apply actions to a position",
                       description="Apply the actions in order and print the resulting position. "
                       "Quote each action: canasta apply pos.json 'meld 7h 7d 7s' 'discard 4c'.")
    p.add_argument("position", help="position JSON file, or - for standard input")
    p.add_argument("actions", nargs="+", metavar="ACTION", help="an action line")
    p.set_defaults(func=cmd_apply)

    p = sub.add_parser("replay", help="replay a game record",
                       description="Replay a game record (JSON) and print each hand's result "
                       "and the final scores as JSON, or with --text the whole game move by move.")
    p.add_argument("record", help="game record JSON file, or - for standard input")
    p.add_argument("--text", action="store_true",
                   help="tell the game hand by hand in readable lines instead of JSON")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("hint", help="print the action a bot plays in a position, and why",
                       description=HINT_DESCRIPTION, add_help=False,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-h", "--help", action=BotsHelp,
                   help="show this help message, every family's bots and levels, and exit")
    p.add_argument("position", help="position JSON file, or - for standard input")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--bot", metavar="SPEC",
                     help="a bot of the position's family, e.g. heuristic or "
                          "'ismcts:iterations=200'")
    who.add_argument("--level", metavar="L", help="a level: easy, medium, hard or expert")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the bot's random choices (default 0)")
    p.add_argument("--json", action="store_true",
                   help="print {\"action\", \"reason\", \"bot\", \"seat\"} as JSON")
    p.set_defaults(func=cmd_hint)

    for adder in EXTRA_COMMANDS.values():
        adder(sub)
    return parser


COMMAND_MODULES = (
    "canasta.interfaces.terminal",
    "canasta.interfaces.arena_cli",
    "canasta.interfaces.selfplay_cli",
    "canasta.interfaces.web.cli",
)
"""Modules that add subcommands: each defines ``add_command(subparsers)`` and imports its
optional dependencies (rich, fastapi, ...) only when the command runs."""

EXTRA_COMMANDS: dict[str, Callable[[Any], None]] = {}
"""``add_command`` functions found in :data:`COMMAND_MODULES`, by module."""


def _load_extra_commands() -> None:
    import importlib

    for module in COMMAND_MODULES:
        try:
            EXTRA_COMMANDS[module] = importlib.import_module(module).add_command
        except (ImportError, AttributeError):
            continue


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        _load_extra_commands()
        parser = build_parser()
        args = parser.parse_args(_join_negative_values(sys.argv[1:] if argv is None else argv))
        if not getattr(args, "func", None):
            parser.print_help()
            return 0
        return int(args.func(args))
    except IllegalActionError as e:
        sys.stderr.write(f"{e}\n")
        return EXIT_ILLEGAL
    except _Invalid as e:
        sys.stderr.write(f"{e}\n")
        return EXIT_INVALID
    except CanastaError as e:
        sys.stderr.write(f"invalid input: {e}\n")
        return EXIT_INVALID
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return 130
    except SystemExit as e:  # argparse --help / --version
        return int(e.code or 0)
    except BrokenPipeError:
        return 0
    except Exception as e:  # a bug: say so in one line, never a traceback
        sys.stderr.write(f"internal error: {type(e).__name__}: {e}\n")
        return 70


NEGATIVE_VALUES = re.compile(r"-\d+(,-?\d+)*")


def _join_negative_values(argv: Sequence[str]) -> list[str]:
    """``--scores -35,0`` as ``--scores=-35,0``: argparse would take ``-35,0`` for an option."""
    out: list[str] = []
    for arg in argv:
        if (out and NEGATIVE_VALUES.fullmatch(arg) and out[-1].startswith("--")
                and "=" not in out[-1]):
            out[-1] = f"{out[-1]}={arg}"
        else:
            out.append(arg)
    return out


def entry_point() -> None:
    """Console-script entry point."""
    sys.exit(main())


if __name__ == "__main__":
    entry_point()
