"""The interactive loop of ``canasta play`` for every family: bots move, the player types, the
record is saved.

:class:`TerminalApp` reads lines through a function (``input`` with readline completion at a real
terminal, a list of lines in tests) and writes through a rich console, so a whole session can be
driven from a test without a terminal.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from canasta.actions import TAKE, Action
from canasta.bots import BotSpecError, bot_table, explain, make_bot
from canasta.bots.base import Bot
from canasta.cards import parse_cards
from canasta.errors import IllegalActionError, NotationError
from canasta.interfaces.terminal import render
from canasta.interfaces.terminal.advice import (
    COMMON_VERBS,
    Suggestion,
    describe,
    ending,
    game_line,
    pretty_cards,
    screen_facts,
    suggestions,
)
from canasta.interfaces.terminal.commands import HELP_TEXT, complete, parse_command
from canasta.interfaces.terminal.session import HUMAN_SEAT, Table, how_to_run

Reader = Callable[[str], str]

PROMPTS = {"draw": "draw/take> ", "play": "meld/discard> ", "answer": "yes/no> "}
NEXT_HAND_PROMPT = "press Enter for the next hand (or quit)> "
THINKING_AFTER = 0.7
"""Seconds a bot may think before the table says so."""


class Quit(Exception):
    """The player leaves the table (``quit``, Ctrl-D or Ctrl-C)."""


class TerminalApp:
    """One game at the terminal: the table, the screen and the keyboard."""

    def __init__(self, table: Table, console: Console, read: Reader, delay: float = 0.0,
                 hint_spec: str = "", seed_note: str = "") -> None:
        self.table = table
        self.console = console
        self.read = read
        self.delay = delay
        self.family = table.family
        self.hint_spec = hint_spec or bot_table(self.family).hint_level
        self.seed_note = seed_note
        self.shown: Any = None
        self.log: list[str] = []
        self.items: list[Suggestion] = []
        self._hint_bot: Bot | None = None

    # -- the loop ----------------------------------------------------------------------------
    def run(self) -> int:
        """Play until the game ends or the player leaves; returns the exit status."""
        try:
            self.table.save()
            while True:
                state = self.table.state
                if state.is_over:
                    if not self.end_of_hand():
                        return 0
                elif state.to_move == HUMAN_SEAT:
                    self.human_turn()
                else:
                    self.bot_turn()
        except Quit:
            self.leave()
            return 0
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            self.leave()
            return 0

    def leave(self) -> None:
        """Save and say where the game is, and how to go on with it."""
        self.table.save()
        path = self.table.save_path
        self.console.print(f"Game saved to {path}", soft_wrap=True)
        self.console.print(f"Continue it with: {how_to_run(f'canasta play --resume {path}')}",
                           style="dim",
                           soft_wrap=True)

    def say(self, lines: Sequence[str], style: str = "") -> None:
        """Print move lines and keep them in the hand's log."""
        for line in lines:
            self.log.append(line)
            self.console.print(Text(pretty_cards(line), style=style))

    # -- bots --------------------------------------------------------------------------------
    def bot_turn(self) -> None:
        """Let the bot to move play one action and show what it did (a slow bot is announced
        as thinking)."""
        before = self.table.state
        name = self.table.names[before.to_move]
        timer = threading.Timer(THINKING_AFTER, lambda: self.console.print(
            f"{name} is thinking...", style="dim"))
        timer.daemon = True
        timer.start()
        try:
            action, note = self.table.bot_move()
        finally:
            timer.cancel()
        if note:
            self.console.print(note, style="red")
        after = self.table.play(action)
        lines = describe(self.family, before, action, after, self.table.names, HUMAN_SEAT)
        if action.verb in ("yes", "no") and after.to_move == HUMAN_SEAT:
            lines[-1] += (": you must go out this turn" if action.verb == "yes"
                          else ": you may not go out this turn")
        self.say(lines)
        if self.delay > 0:
            time.sleep(self.delay)

    # -- the player --------------------------------------------------------------------------
    def show(self) -> None:
        """Draw the table and the numbered suggestions."""
        state = self.table.state
        obs = self.table.observation()
        legal = self.table.legal()
        self.console.print(render.board(self.family, obs, self.table.names,
                                        self.table.game.hand_number, self.seed_note,
                                        self.table.levels, own_verbs(legal),
                                        self.table.game.scores))
        self.items = suggestions(self.family, obs, legal)
        self.console.print(render.suggestions_view(self.family, self.table.rules, self.items))
        self.shown = state

    def human_turn(self) -> None:
        """Show the table if it changed, read one line and act on it."""
        state = self.table.state
        if self.shown is not state:
            self.show()
        line = self.read(self.prompt(state))
        try:
            command = parse_command(line, self.table.observation().hand,
                                    lambda text: self.family.parse_action(self.table.rules,
                                                                          text))
        except NotationError as e:
            self.console.print(f"Cannot read that: {e}", style="yellow")
            return
        kind = command.kind
        if kind == "empty":
            return
        if kind == "action":
            assert command.action is not None
            self.play(command.action)
        elif kind == "pick":
            if not 1 <= command.number <= len(self.items):
                self.console.print(f"There is no suggestion {command.number} "
                                   f"(1 to {len(self.items)}).", style="yellow")
                return
            self.play(self.items[command.number - 1].action)
        elif kind == "quit":
            raise Quit
        else:
            getattr(self, f"cmd_{kind}")()

    def prompt(self, state: Any) -> str:
        """The prompt of the phase (``draw/take> ``), or the verbs of a family's own step
        that comes first (``keep> ``)."""
        own = own_verbs(self.table.legal())
        return f"{'/'.join(own)}> " if own else PROMPTS.get(state.phase, "> ")

    def play(self, action: Action) -> None:
        """Apply the player's action, or explain the rule it breaks (nothing changes then)."""
        before = self.table.state
        legal = self.table.legal()
        if action == TAKE and action not in legal:
            takes = [a for a in legal if a.verb == "take"]
            if len(takes) == 1:
                action = takes[0]
            elif takes:
                numbers = [str(i) for i, s in enumerate(self.items, 1) if s.action in takes]
                self.console.print(
                    "There are several ways to take the pile: say which cards go with the top "
                    f"card, e.g. '{self.table.text(takes[0])}'"
                    + (f", or pick {', '.join(numbers)}." if numbers else "."), style="yellow")
                return
        try:
            after = self.table.play(action)
        except IllegalActionError as e:
            self.console.print(f"Not allowed: {pretty_cards(e.reason)}.", style="yellow")
            return
        self.say(describe(self.family, before, action, after, self.table.names, HUMAN_SEAT),
                 style="bold")

    def cmd_help(self) -> None:
        """``help``: actions, short forms and commands."""
        self.console.print(Text(HELP_TEXT))

    def cmd_show(self) -> None:
        """``show``: draw the table again."""
        self.show()

    def cmd_legal(self) -> None:
        """``legal``: every legal action."""
        legal = self.table.legal()
        self.console.print(f"{len(legal)} legal action{'s' if len(legal) != 1 else ''}:")
        self.console.print(render.legal_view([self.table.text(a) for a in legal]))

    def cmd_log(self) -> None:
        """``log``: the moves of this hand so far."""
        for line in self.log or ["No moves yet in this hand."]:
            self.console.print(line)

    def cmd_save(self) -> None:
        """``save``: the game is saved after every move; say where."""
        self.table.save()
        self.console.print(f"The game is saved after every move, to {self.table.save_path}",
                           soft_wrap=True)

    def cmd_score(self) -> None:
        """``score``: the score sheet."""
        facts = screen_facts(self.family, self.table.observation())
        self.console.print(render.score_sheet(self.hand_totals(), self.table.rules,
                                              self.table.names, facts["game_end"]))

    def hint_bot(self) -> Bot | None:
        """The bot that gives hints (made on first use), or None if it is not available."""
        if self._hint_bot is None:
            try:
                self._hint_bot = make_bot(self.hint_spec, self.family)
            except BotSpecError:
                known = ", ".join(bot_table(self.family).names())
                self.console.print(f"Hints come from the {self.hint_spec!r} bot, which is not "
                                   f"available here yet (bots: {known}). Try 'legal' and the "
                                   "numbered suggestions.", style="yellow")
                return None
        return self._hint_bot

    def cmd_hint(self) -> None:
        """``hint``: what the hint bot would play, and why when it can say."""
        bot = self.hint_bot()
        if bot is None:
            return
        obs = self.table.observation()
        legal = self.table.legal()
        rng = self.table.rng_for_move("hint")
        try:
            action, why = explain(bot, obs, legal, rng)
        except Exception as e:  # a bot bug must not end the game
            self.console.print(f"The hint bot failed ({type(e).__name__}: {e}).", style="red")
            return
        text = Text("Hint: ", style="bold")
        text.append(pretty_cards(self.table.text(action)), style="bold green")
        numbers = [i for i, s in enumerate(self.items, 1) if s.action == action]
        if numbers:
            text.append(f"  (suggestion {numbers[0]})", style="dim")
        else:
            text.append(f"  (type '{self.table.text(action)}')", style="dim")
        if why:
            text.append(f" — {pretty_cards(why)}")
        self.console.print(text)

    # -- the end of a hand -------------------------------------------------------------------
    def hand_totals(self) -> list[list[int]]:
        """Each scored hand's totals by side (the ended current hand included)."""
        game = self.table.game
        rows = [list(self.family.totals(st)) for _, st in game.finished]
        state = game.state
        if state.is_over and (not game.finished or game.finished[-1][1] is not state):
            rows.append(list(self.family.totals(state)))
        return rows

    def end_of_hand(self) -> bool:
        """Show the hand's breakdown and the score sheet; deal the next hand when the player is
        ready. Returns False when the game is over or the player leaves."""
        table = self.table
        family = self.family
        game = table.game
        state = game.state
        names = table.names
        obs = table.observation()
        facts = screen_facts(family, obs)
        facts.setdefault("score", [{"total": t} for t in family.totals(state)])
        if self.shown is not state:
            self.console.print(render.board(family, obs, names, game.hand_number,
                                            self.seed_note, table.levels,
                                            scores=game.scores))
            self.shown = state
            self.console.print(Text("Cards left in the other hands", style="bold"))
            hands = [parse_cards(cards) for cards in family.position_to_json(state)["hands"]]
            self.console.print(render.hands_left(hands, names, HUMAN_SEAT))
        self.console.print(render.breakdown(facts, table.rules, names, game.hand_number,
                                            ending(facts, names)))
        self.console.print(render.score_sheet(self.hand_totals(), table.rules, names,
                                              facts["game_end"]))
        scores = [s + t for s, t in zip(game.scores, family.totals(state))]
        winner = family.winner(table.rules, scores, state)
        if winner is not None:
            table.next_hand()
            mine = table.rules.side_of(HUMAN_SEAT)
            self.console.print(Text(game_line(table.rules, names, scores, winner),
                                    style="bold green" if winner == mine else "bold red"))
            self.console.print(f"The record is in {table.save_path}", style="dim",
                               soft_wrap=True)
            return False
        answer = self.read(NEXT_HAND_PROMPT).strip().lower()
        if answer in ("q", "quit", "exit"):
            raise Quit
        table.next_hand()
        self.log = []
        dealer = names[table.state.dealer]
        self.console.print(Text(f"Hand {game.hand_number}: {dealer} deal"
                                f"{'' if dealer == 'You' else 's'}.", style="bold"))
        return True


def own_verbs(legal: Sequence[Action]) -> list[str]:
    """The verbs of a family's own step when nothing but that step may be played now (a
    ``keep`` before the draw), else none."""
    verbs = list(dict.fromkeys(a.verb for a in legal))
    return verbs if verbs and not COMMON_VERBS & set(verbs) else []


def readline_reader(table: Table) -> Reader:
    """``input`` with tab completion of verbs and of the cards in the player's hand."""
    try:
        import readline
    except ImportError:  # no readline on this platform: plain input
        return input

    def completer(text: str, index: int) -> str | None:
        try:
            matches = complete(readline.get_line_buffer(), text, table.observation().hand)
        except Exception:  # completion must never break the prompt
            return None
        return matches[index] if index < len(matches) else None

    readline.set_completer(completer)
    readline.set_completer_delims(" ,\t\n")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return input


def run_session(table: Table, console: Console, delay: float, seed_note: str,
                read: Reader | None = None) -> int:
    """Play the game at ``table``; returns the exit status."""
    for note in table.notes:
        console.print(note, style="yellow")
    app = TerminalApp(table, console, read or readline_reader(table), delay=delay,
                      seed_note=seed_note)
    try:
        return app.run()
    except Exception as e:  # a bug somewhere: keep the game, say what happened, no traceback
        try:
            table.save()
        except Exception:
            console.print("internal error: the game could not be saved", style="red")
        console.print(f"internal error: {type(e).__name__}: {e}; the game is saved in "
                      f"{table.save_path}", style="red")
        return 70
