"""The table on the screen, drawn with rich: the player's hand, the melds, the pile, the scores.

Everything here draws from the player's seat's observation and its family's facts
(:meth:`~canasta.family.Family.facts`), so the screen can never show a card the player may not
see, and every family is drawn by the same code: what a family does differently (meld keys such
as ``W``, laid threes, the turn card and the talon, canastas to go out and the family's word for
a canasta, the pile's state) is read from the facts. Imported only by ``canasta play`` (rich is
an optional dependency).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from canasta.actions import Action
from canasta.cards import IS_WILD, RANK_OF, THREE, Card, format_card, parse_card
from canasta.family import Family
from canasta.interfaces.terminal.advice import (
    SECTIONS,
    Suggestion,
    card_label,
    group_key,
    hand_groups,
    join_names,
    pretty_cards,
    screen_facts,
    side_label,
)
from canasta.rules import Rules

RED_SUITS = ("d", "h")

PART_LABELS: dict[str, str] = {
    "melded": "Melded cards", "canastas": "Canastas", "hidden": "Hidden canastas",
    "red_threes": "Red threes", "going_out": "Going out", "in_hand": "Cards in hand",
    "bonuses": "Canasta and going-out bonuses", "threes": "Threes laid",
    "penalties": "Penalties", "special": "Special hand",
}
"""The words of the parts of a hand's score (the facts' ``score`` keys); a part not named here
is written from its key."""


def card_style(card: Card) -> str:
    """The rich style of a card: red suits red, wild cards magenta, threes dim."""
    if IS_WILD[card]:
        return "bold magenta"
    if RANK_OF[card] == THREE and format_card(card)[1] not in RED_SUITS:
        return "dim"
    if format_card(card)[1] in RED_SUITS:
        return "bold red"
    return "bold"


def cards_text(cards: Sequence[Card], sep: str = " ") -> Text:
    """Cards as styled text with their suit symbols (``K♥ 10♦ Joker``), in the order given."""
    text = Text()
    for i, c in enumerate(cards):
        if i:
            text.append(sep)
        text.append(card_label(format_card(c)), style=card_style(c))
    return text


def _cards(names: Sequence[str]) -> list[Card]:
    return [parse_card(n) for n in names]


def hand_text(cards: Sequence[Card]) -> Text:
    """The hand on one line, grouped by rank: ``A♠ A♥ · K♣ · ... · 2♠ Joker``."""
    text = Text()
    for i, group in enumerate(hand_groups(cards)):
        if i:
            text.append(" · ", style="dim")
        text.append_text(cards_text(group))
    return text


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """A name per side: its seats' names joined (``You & North``)."""
    return [side_label(rules, names, i) for i in range(rules.num_sides)]


def _owners(facts: dict[str, Any], seat: int, names: Sequence[str]
            ) -> list[tuple[int, str, list[int]]]:
    """(index into the facts' melds, label, seats) of every set of melds on the table, the
    player's first."""
    seen: dict[int, list[int]] = {}
    for s, owner in enumerate(facts["melds_of"]):
        seen.setdefault(owner, []).append(s)
    mine = facts["melds_of"][seat]
    order = sorted(seen, key=lambda o: (o != mine, o))
    return [(o, join_names([names[s] for s in seen[o]]), seen[o]) for o in order]


def pile_text(facts: dict[str, Any]) -> Text:
    """The pile: its size, top card, what blocks or froze it and whether the player may take
    it, as the family's facts say."""
    text = Text()
    pile = facts["pile"]
    if not pile["size"]:
        text.append("Pile empty")
        return text
    text.append(f"Pile {pile['size']}, top ")
    text.append_text(cards_text([parse_card(pile["top"])]))
    notes: list[tuple[str, str]] = []
    if pile.get("blocked"):
        notes.append((f"blocked: {pile['blocked']}", "yellow"))
    if pile.get("note"):
        notes.append((pretty_cards(pile["note"]), "cyan" if pile["frozen"] else "green"))
    for note, style in notes:
        text.append(" · ")
        text.append(note, style=style)
    return text


def _phase_words(obs: Any, names: Sequence[str], stock: int, own_verbs: Sequence[str]) -> str:
    who = names[obs.to_move]
    if obs.phase == "over":
        return "hand over"
    if obs.to_move != obs.seat:
        return f"{who} to play"
    if own_verbs:
        return f"your turn: {' or '.join(own_verbs)} first"
    if obs.phase == "draw":
        return "your turn: draw, or take the pile" + (" (or pass)" if stock == 0 else "")
    if obs.phase == "play":
        extra = ""
        answer = getattr(obs, "answer", None)
        if answer == "yes":
            extra = " — your partner said yes: you must go out"
        elif answer == "no":
            extra = " — your partner said no: you may not go out"
        return "your turn: meld, then discard" + extra
    if obs.phase == "answer":
        asker = (obs.to_move - obs.rules.num_sides) % obs.rules.num_players
        return f"{names[asker]} asks: may I go out? Answer yes or no"
    return str(obs.phase)


def game_length(game_end: dict[str, Any]) -> str:
    """How long a game lasts, after the word "game" (the facts' ``game_end``): ``to 5000``,
    ``of 4 hands``, ``of 4 hands or to 5000``."""
    parts = []
    if game_end.get("deals"):
        parts.append(f"of {game_end['deals']} hands")
    if game_end.get("target") is not None:
        parts.append(f"to {game_end['target']}")
    return " or ".join(parts) or "without end"


def key_label(key: str) -> str:
    """A meld's key as a player reads it: ``K``, ``10``, ``3`` (black threes), ``W``."""
    return "10" if key == "T" else key


def meld_token(meld: dict[str, Any]) -> Text:
    """One meld in a few characters: key, natural cards + wild cards; a canasta in brackets,
    natural red, the others bold: ``J 3``, ``5 2+1``, ``[K 6+1 mixed]``."""
    cards = _cards(meld["cards"])
    wilds = sum(1 for c in cards if IS_WILD[c])
    naturals = len(cards) - wilds
    body = f"{key_label(meld['key'])} {naturals}" + (f"+{wilds}" if wilds else "")
    if naturals == 0:  # a meld of wild cards alone
        body = f"{key_label(meld['key'])} {wilds}"
    kind = meld["canasta"]
    if kind is None:
        return Text(body)
    return Text(f"[{body} {kind}{' hidden' if meld.get('hidden') else ''}]",
                style="bold red" if kind == "natural" else "bold")


def melds_line(melds: Sequence[dict[str, Any]]) -> Text:
    """One side's melds on a line (it wraps when long), in the table's order."""
    line = Text("  ")
    for i, meld in enumerate(melds):
        if i:
            line.append("  ")
        line.append_text(meld_token(meld))
    return line


def side_line(facts: dict[str, Any], owner: int, label: str, mine: bool) -> Text:
    """A side's running points: what its melds, canastas and laid cards count so far, or what
    its opening still needs."""
    points = facts["table_points"][owner]
    text = Text()
    text.append(label, style="bold underline" if mine else "bold")
    if facts["melds"][owner]:
        text.append(f" {points['total']:+d}", style="bold green" if mine else "bold")
        canastas = facts["canastas"][owner]
        parts = [f"melds {points['melds']}"]
        if canastas:
            word = facts["canasta_name"][0 if canastas == 1 else 1]
            parts.append(f"{canastas} {word} {points['canastas']}")
        parts += [f"{part.replace('_', ' ')} {value}" for part, value in points.items()
                  if part not in ("total", "melds", "canastas", "laid") and value]
        text.append(" (" + " · ".join(parts) + ")", style="dim")
    elif facts["opening_minimum"][owner]:
        minimum = facts["opening_minimum"][owner]
        text.append(f" not opened: {minimum} to open", style="yellow" if mine else "dim")
    laid = facts["laid"][owner]
    if laid:
        text.append(f" · {facts['laid_name'][1]} {points['laid']:+d} ")
        text.append_text(cards_text(_cards(laid)))
    return text


def seats_line(facts: dict[str, Any], view: dict[str, Any], seat: int, to_move: int,
               names: Sequence[str], levels: Sequence[str]) -> Text:
    """The other seats: name, level, role, cards in hand; the dealer marked."""
    partners = next(side for side in facts["partners"] if seat in side)
    lone = facts.get("lone_hand")
    line = Text()
    for s, held in enumerate(view["hands"]):
        if s == seat:
            continue
        if line:
            line.append(" · ")
        if lone is not None:
            role = "lone hand" if s == lone else ("with you" if seat != lone else "")
        else:
            role = "partner" if s in partners else ""
        words = ", ".join(w for w in (levels[s] if s < len(levels) else "", role) if w)
        line.append(names[s], style="bold reverse" if s == to_move else "bold")
        if words:
            line.append(f" ({words})", style="dim")
        n = held if isinstance(held, int) else len(held)
        line.append(f" {n} card{'s' if n != 1 else ''}")
        note = facts["seat_notes"][s]
        if note:
            line.append(f" ({note})", style="cyan")
        if s == view.get("dealer"):
            line.append(" D", style="dim")
    return line


def board(family: Family, obs: Any, names: Sequence[str], hand_number: int,
          seed_note: str = "", levels: Sequence[str] = (),
          own_verbs: Sequence[str] = (), scores: Sequence[int] | None = None
          ) -> RenderableType:
    """The whole table as the player sees it, compact enough for 80×24 in mid-hand: the game
    score, stock and pile, the other seats, each side's running points and melds, the hand.
    ``own_verbs``: the family's own step the player takes first (``keep``), if any;
    ``scores``: the sides' scores before the hand (by default, as the observation says)."""
    rules = obs.rules
    facts = screen_facts(family, obs)
    view = obs.to_json()
    if scores is None:
        scores = [side.get("score", 0) for side in view.get("sides", ())] or \
            [0] * rules.num_sides
    sides = side_names(rules, names)
    my_side = rules.side_of(obs.seat)
    lines: list[RenderableType] = []

    title = Text(f"Hand {hand_number} · {rules.name} · ", style="bold")
    title.append(_phase_words(obs, names, facts["stock"], own_verbs),
                 style="bold yellow" if obs.to_move == obs.seat and obs.phase != "over"
                 else "bold")
    lines.append(title)

    to_go_out = facts["canastas_to_go_out"]
    game = Text(f"Game {game_length(facts['game_end'])}"
                + (f", {to_go_out} {facts['canasta_name'][1]} to go out" if to_go_out > 1
                   else "") + ": ",
                style="dim")
    for i, name in enumerate(sides):
        if i:
            game.append(" · ")
        game.append(f"{name} ")
        game.append(str(scores[i]), style="bold green" if i == my_side else "bold")
    if seed_note:
        game.append(f"   {seed_note}", style="dim")
    lines.append(game)

    table_line = Text()
    stock = facts["stock"]
    table_line.append(f"Stock {stock}", style="bold" if stock else "bold red")
    if facts.get("turn_card_drawn") is False:
        table_line.append(" (the turn card still in it)", style="dim")
    table_line.append(" · ")
    table_line.append_text(pile_text(facts))
    if facts.get("dead"):
        table_line.append(f" · dead: {' '.join(key_label(k) for k in facts['dead'])}",
                          style="dim")
    lines.append(table_line)
    lines.append(seats_line(facts, view, obs.seat, obs.to_move, names, levels))

    known = [(s, k) for s, k in enumerate(facts.get("known") or []) if k and s != obs.seat]
    if known:
        line = Text("Known from the pile: ", style="dim")
        for i, (s, k) in enumerate(known):
            if i:
                line.append(" · ")
            line.append(f"{names[s]} ")
            line.append_text(cards_text(_cards(k)))
        lines.append(line)

    for owner, label, seats_of in _owners(facts, obs.seat, names):
        mine = obs.seat in seats_of
        lines.append(side_line(facts, owner, label, mine))
        if facts["melds"][owner]:
            lines.append(melds_line(facts["melds"][owner]))

    own_note = facts["seat_notes"][obs.seat]
    hand = Text(f"Your hand ({len(obs.hand)}{', ' + own_note if own_note else ''}): ",
                style="bold")
    hand.append_text(hand_text(obs.hand))
    if facts.get("talon_due") and obs.to_move == obs.seat:
        hand.append(f"  (+{facts['talon_due']} cards after your discard)", style="cyan")
    lines.append(hand)
    return Group(*lines)


def _choice_text(family: Family, rules: Rules, s: Suggestion) -> Text:
    a = s.action
    if a.verb == "discard":
        return cards_text([a.card])
    if a.verb == "take" and not a.groups:
        return Text("top card onto your meld")
    if a.verb in ("meld", "take"):
        text = Text()
        for i, g in enumerate(a.groups):
            if i:
                text.append(", ")
            if g.cards and all(IS_WILD[c] for c in g.cards):
                text.append(f"{group_key(family, rules, g)}: ", style="cyan")
            text.append_text(cards_text(g.cards))
        return text
    words = family.format_action(rules, a)
    if s.section.lower() == a.verb and words.startswith(a.verb + " "):
        words = words[len(a.verb) + 1:]  # the heading says the verb
    return Text(pretty_cards(words))


def hands_left(hands: Sequence[Sequence[Card]], names: Sequence[str], viewer: int
               ) -> RenderableType:
    """The cards left in the other hands once a hand is over (they are counted openly)."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(no_wrap=True)
    table.add_column()
    for seat, cards in enumerate(hands):
        if seat == viewer:
            continue
        table.add_row(f"{names[seat]}:", hand_text(cards) if cards else Text("-", style="dim"))
    return table


def suggestions_view(family: Family, rules: Rules, items: Sequence[Suggestion]
                     ) -> RenderableType:
    """The numbered short list, one line per heading."""
    table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
    table.add_column(style="cyan", no_wrap=True)
    table.add_column()
    sections = [*SECTIONS, *(s.section for s in items if s.section not in SECTIONS)]
    for section in dict.fromkeys(s.section for s in items if s.section in sections):
        line = Text()
        for number, s in enumerate(items, 1):
            if s.section != section:
                continue
            if line:
                line.append("   ")
            line.append(f"{number}", style="bold yellow")
            line.append(" ")
            line.append_text(_choice_text(family, rules, s))
        if line:
            table.add_row(section, line)
    return table


def legal_view(texts: Sequence[str]) -> RenderableType:
    """Every legal action, canonical, in columns."""
    return Columns([pretty_cards(t) for t in texts], padding=(0, 3))


def breakdown(facts: dict[str, Any], rules: Rules, names: Sequence[str], hand_number: int,
              ending: str) -> Table:
    """Each side's score for the hand, part by part as the family counts it, and the total."""
    sides = side_names(rules, names)
    table = Table(title=f"Hand {hand_number}: {ending}", title_justify="left",
                  title_style="bold")
    table.add_column("")
    for name in sides:
        table.add_column(name, justify="right")
    score = facts["score"]
    for part in score[0]:
        if part == "total":
            continue
        label = PART_LABELS.get(part, part.replace("_", " ").capitalize())
        table.add_row(label, *[str(side[part]) for side in score])
    table.add_section()
    table.add_row(Text("Total", style="bold"),
                  *[Text(str(side["total"]), style="bold") for side in score])
    return table


def score_sheet(totals: Sequence[Sequence[int]], rules: Rules, names: Sequence[str],
                game_end: dict[str, Any] | None = None) -> Table:
    """The running score sheet: each hand's totals, and the cumulative scores; ``game_end``:
    how the game ends (the facts' entry; by default, at the rules' target score)."""
    sides = side_names(rules, names)
    end = game_end if game_end is not None else {"target": rules.target_score, "deals": None}
    table = Table(title=f"Score sheet (game {game_length(end)})", title_justify="left",
                  title_style="bold")
    table.add_column("Hand", justify="right")
    for name in sides:
        table.add_column(name, justify="right")
    running = [0] * rules.num_sides
    for number, row in enumerate(totals, 1):
        running = [r + t for r, t in zip(running, row)]
        table.add_row(str(number), *[f"{t:+d}  ({r})" for t, r in zip(row, running)])
    table.add_section()
    table.add_row(Text("Total", style="bold"), *[Text(str(r), style="bold") for r in running])
    return table


def legal_texts(family: Family, rules: Rules, legal: Sequence[Action]) -> list[str]:
    """The canonical text of every legal action."""
    return [family.format_action(rules, a) for a in legal]
