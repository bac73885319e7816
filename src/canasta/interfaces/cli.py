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
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from canasta import COMPILED, __version__
from canasta.actions import format_action
from canasta.deal import new_hand
from canasta.errors import CanastaError, IllegalActionError, NotationError
from canasta.family import apply_line
from canasta.game import GameRecord, as_played, replay
from canasta.interfaces import modern_cli
from canasta.legal import legal_actions
from canasta.modern_american.knobs import NAME
from canasta.position import dumps, parse_position, result_to_json, state_to_json
from canasta.rules import PRESETS, Rules, get_rules, rules_from_json

BUILD = "rules core compiled with mypyc" if COMPILED else "pure-Python rules core"
"""Which build of the rules core runs (``canasta --version`` says it)."""

EXIT_ILLEGAL = 1
EXIT_INVALID = 2

DESCRIPTION = """\
Canasta: play against bots (play), at a web table (serve), compare bots (arena), and drive
the rules engine (deal, legal, apply, replay).

Positions and game records are JSON (see docs/notation.md); actions are one line each, e.g.
'draw', 'take 7h 7d', 'meld Kh Kd Ks, 8c 8d 2s', 'meld 7: 2c', 'discard 9s', 'ask', 'yes'.
Read a file path, or '-' for standard input.

presets: """ + ", ".join([*PRESETS, NAME]) + """

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
    """A preset name, or a rules object in JSON (NOTATION §3)."""
    if not text.lstrip().startswith("{"):
        return get_rules(text)
    try:
        return rules_from_json(json.loads(text))
    except json.JSONDecodeError as e:
        raise _Invalid(f"invalid --rules: not a preset name nor a JSON object ({e})") from None


def cmd_deal(args: argparse.Namespace) -> int:
    family = modern_cli.names_family(args.rules)
    rules = None if family else _rules_arg(args.rules)
    scores = None
    if args.scores is not None:
        try:
            scores = [int(s) for s in args.scores.split(",")]
        except ValueError:
            raise _Invalid(f"invalid --scores {args.scores!r}: integers separated by commas") \
                from None
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "big")
    if rules is None:
        _print_json(modern_cli.deal(args.rules, seed, args.dealer, scores))
        return 0
    state = new_hand(rules, seed, dealer=args.dealer, scores=scores)
    _print_json(state_to_json(state))
    return 0


def cmd_legal(args: argparse.Namespace) -> int:
    text = _read(args.position)
    family = modern_cli.read_family(text)
    if family is not None:
        lines = modern_cli.legal(family)
    else:
        lines = [format_action(a) for a in legal_actions(parse_position(text))]
    if lines:
        sys.stdout.write("\n".join(lines) + "\n")
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    text = _read(args.position)
    family = modern_cli.read_family(text)
    if family is not None:
        try:
            _print_json(modern_cli.apply_all(family, args.actions))
        except NotationError as e:
            raise _Invalid(f"invalid action: {e}") from None
        return 0
    state = parse_position(text)
    for line in args.actions:
        try:
            state = apply_line(state, line)
        except NotationError as e:
            raise _Invalid(f"invalid action {line!r}: {e}") from None
    _print_json(state_to_json(state))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    text = _read(args.record)
    family = modern_cli.read_family(text)
    if family is not None:
        if args.text:
            sys.stdout.write("\n".join(modern_cli.replay_lines(family)) + "\n")
        else:
            _print_json(modern_cli.replay_json(family))
        return 0
    record = GameRecord.loads(text)
    try:
        return _replay(record, args.text)
    except IllegalActionError as e:
        if as_played(record) is None:
            raise
        raise IllegalActionError(e.action, f"{e.reason} (a game saved before RULES §1.12.6 "
                                 "changed: it replays with \"one_card_pile_take_ban\": "
                                 "\"stock_out\" in its rules, and 'canasta play --resume' goes "
                                 "on under that rule)") from None


def _replay(record: GameRecord, text: bool) -> int:
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
        if hand.state.result is not None:
            entry["result"] = result_to_json(hand.state.result)
        else:
            entry["in_progress"] = state_to_json(hand.state)
        entry["scores"] = list(hand.scores)
        hands.append(entry)
    from canasta.game import game_over

    scores = list(last.scores) if last else [0] * record.rules.num_sides
    winner = game_over(record.rules, scores) if last and last.state.is_over else None
    _print_json({"rules": record.rules.to_json(), "players": list(record.players),
                 "hands": hands, "scores": scores, "over": winner is not None,
                 "winner": winner})
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``canasta`` command (its subcommands are added here)."""
    parser = _Parser(prog="canasta", description=DESCRIPTION,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"canasta {__version__} ({BUILD})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("deal", help="print the starting position of a new hand",
                       description="Print the starting position of a hand (JSON). The same "
                       "--seed gives the same deal.")
    p.add_argument("--rules", required=True, metavar="R",
                   help="a preset (" + ", ".join([*PRESETS, NAME]) + ") or a rules object in "
                   "JSON, "
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
