"""What a seat, or a spectator, may see of a table, as JSON: one shape for every family.

A seat's view is its observation's JSON (the family's position with every card that seat may
not see left out: the other hands and the stock are counts), with the table's keys added (its
legal actions when it is to move, the seats and their names, this hand's moves, the score
sheet) and the family's ``facts`` (:meth:`canasta.family.Family.facts`: what a screen states,
from meld keys to the pile's state and why). A spectator's view is the same with no hand at
all. Nothing here reads another seat's cards or the order of the stock, and nothing tests a
family's name: what differs between families arrives as facts.
"""

from __future__ import annotations

import weakref
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final

from canasta.actions import Action
from canasta.bots import bot_table
from canasta.bots.names import BOT_PREFIX, friendly_names, level_of
from canasta.cards import NUM_CARD_TYPES, format_card, parse_cards
from canasta.family import Family, families, family_of
from canasta.rules import Rules

if TYPE_CHECKING:
    from canasta.interfaces.web.tables import Table


# -- observations -------------------------------------------------------------------------------

def watcher_seat(family: Family, state: Any) -> int:
    """The seat whose observation a spectator is shown, its hand left out: a seat not to move
    (which sees nothing of the mover's private choices) whose side has melded where one has (so
    the pile's state is everyone's)."""
    rules = state.rules
    n: int = rules.num_players
    mover: int = state.to_move
    others = [(mover + k) % n for k in range(1, n)] or [0]
    for seat in others:
        facts = family.facts(family.observe(state, seat))
        melds, owners = facts.get("melds"), facts.get("melds_of")
        if melds is None or owners is None:
            break  # a family that states no melds: any seat not to move will do
        if melds[owners[seat]]:
            return seat
    return others[0]


def observation(table: Table, seat: int | None) -> tuple[Any, dict[str, Any]]:
    """The observation of ``seat`` at ``table`` and its JSON (see :func:`seat_observation`)."""
    return seat_observation(table.family, table.game.state, seat)


def seat_observation(family: Family, state: Any, seat: int | None) -> tuple[Any, dict[str, Any]]:
    """The observation of ``seat`` in ``state`` and its JSON; for a spectator (``None``), a
    watcher's (:func:`watcher_seat`) with every hand a count."""
    if seat is not None:
        obs = family.observe(state, seat)
        return obs, obs.to_json()
    obs = family.observe(state, watcher_seat(family, state))
    data = obs.to_json()
    data["seat"] = None
    data["hands"] = [h if isinstance(h, int) else len(h) for h in data["hands"]]
    return obs, data


def build_view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (``None``: a spectator); see the module docstring and
    :class:`~canasta.interfaces.web.messages.TableView`."""
    game, family = table.game, table.family
    state, rules = game.state, game.rules
    obs, view = observation(table, seat)
    facts = family.facts(obs)
    mine = (seat is not None and not game.is_over and not state.is_over
            and state.to_move == seat and not table.seats[seat].is_bot)
    sheet, scores = score_sheet(table)
    log = log_entries(table, seat)
    legal = family.legal_actions(state) if mine else []
    view.update({
        "family": family.name,
        "table_id": table.id,
        "status": table.status,
        "hand_number": table.hand_number,
        "version": sum(len(h.actions) for h, _ in game.finished)
        + (0 if game.is_over else len(game.actions)) + table.hand_number - 1,
        "your_turn": mine,
        "legal": [family.format_action(rules, a) for a in legal],
        "legal_words": own_verb_words(family, rules, legal),
        "players": list(game.players),
        "seats": [s.to_json() for s in table.seats],
        "names": display_names(table),
        "log": log,
        "last_action": log[-1] if log else None,
        "scores": scores,
        "score_sheet": sheet,
        "target": rules.target_score,
        "winner": game.winner,
        "next_hand": "auto" if table.deals_by_itself() else "request",
        "waiting_for": table.waiting_for(),
        "facts": facts,
        "chat": chat_lines(table),
        "rematch": table.rematch,
        "table_rules": table_rules(rules),
        "card_points": card_points(rules),
    })
    if state.is_over:
        hands = family.position_to_json(state)["hands"]
        view["revealed"] = hands
        view["hand_points"] = [sum(rules.value_of[c] for c in parse_cards(hand))
                               for hand in hands]
    return view


def own_verb_words(family: Family, rules: Rules, actions: list[Action]) -> dict[str, str]:
    """The family's words for its own verbs among ``actions`` (``keep``, ``special``...), by
    action text: the page names such an action by them."""
    out = {}
    for action in actions:
        words = family.action_words(rules, action, seen=True)
        if words is not None:
            out[family.format_action(rules, action)] = words
    return out


# -- the hand's moves -----------------------------------------------------------------------------

_MOVES: weakref.WeakKeyDictionary[Table, tuple[tuple[int, int], list[dict[str, Any]], Any]]
_MOVES = weakref.WeakKeyDictionary()


def hand_moves(table: Table) -> list[dict[str, Any]]:
    """By action of the current hand, what every seat saw it do: ``seat``, ``action`` (its
    text), ``took`` and ``top`` for a take (the pile's size and top card), ``laid`` (the cards
    its side laid beside its melds with it), and for a verb of the family's own ``words`` and
    ``hidden_words`` (as its player and as the others read it). Replayed from the hand's deck,
    kept per table and extended action by action."""
    game = table.game
    family, rules = table.family, game.rules
    actions = game.actions
    key = (table.hand_number, id(game.deck))
    cached = _MOVES.get(table)
    if cached is not None and cached[0] == key and len(cached[1]) <= len(actions):
        moves, state = cached[1], cached[2]
    else:
        moves = []
        state = family.new_hand(rules, deck=game.deck, dealer=game.state.dealer,
                                scores=game.state.scores, number=table.hand_number)
    for text in actions[len(moves):]:
        action = family.parse_action(rules, text)
        seat = state.to_move
        before = family.facts(family.observe(state, seat))
        state = family.apply(state, action)
        after = family.facts(family.observe(state, seat))
        move: dict[str, Any] = {"seat": seat, "action": text}
        if action.verb == "take":
            move["took"] = before["pile"]["size"]
            move["top"] = before["pile"]["top"]
        side = rules.side_of(seat)
        if "laid" in after and "laid" in before:
            laid = after["laid"][side][len(before["laid"][side]):]
            if laid:
                move["laid"] = laid
        words = family.action_words(rules, action, seen=True)
        if words is not None:
            move["words"] = words
            hidden = family.action_words(rules, action, seen=False)
            if hidden != words:
                move["hidden_words"] = hidden
        moves.append(move)
    _MOVES[table] = (key, moves, state)
    return moves


def log_entries(table: Table, seat: int | None) -> list[dict[str, Any]]:
    """This hand's moves as ``seat`` may read them: another player's move whose cards only its
    player sees (a kept three) gives its verb and words, never its cards."""
    over = table.game.state.is_over
    out = []
    for move in hand_moves(table):
        entry = {k: v for k, v in move.items() if k != "hidden_words"}
        if "hidden_words" in move and move["seat"] != seat and not over:
            entry["action"] = move["action"].split()[0]
            entry["words"] = move["hidden_words"]
        out.append(entry)
    return out


# -- the score sheet --------------------------------------------------------------------------

_SHEETS: weakref.WeakKeyDictionary[Table, tuple[int, list[dict[str, Any]]]]
_SHEETS = weakref.WeakKeyDictionary()


def ended_hands(table: Table) -> list[tuple[int, Any]]:
    """``(dealer, last position)`` of every ended hand, an ended hand waiting for the next
    deal included."""
    game = table.game
    ended = [(record.dealer, state) for record, state in game.finished]
    if not game.is_over and game.state.is_over:
        ended.append((game.state.dealer, game.state))
    return ended


def hand_line(family: Family, number: int, dealer: int, state: Any,
              totals: list[int]) -> dict[str, Any]:
    """A score sheet's line: the hand's result, how it ended (``ending``), each side's
    ``score`` part by part as it counts, and the cumulative ``scores`` after it."""
    facts = family.facts(family.observe(state, 0))
    return {"hand": number, "dealer": dealer, "result": family.result_to_json(state),
            "totals": list(family.totals(state)), "scores": list(totals),
            "ending": facts.get("ending"), "score": facts.get("score")}


def score_sheet(table: Table) -> tuple[list[dict[str, Any]], list[int]]:
    """Every ended hand's line (see :func:`hand_line`), and the scores now (an ended hand
    waiting for the next deal counted)."""
    family = table.family
    ended = ended_hands(table)
    cached = _SHEETS.get(table)
    sheet = cached[1] if cached is not None and cached[0] <= len(ended) else []
    totals = list(sheet[-1]["scores"]) if sheet else [0] * table.rules.num_sides
    for number, (dealer, state) in enumerate(ended[len(sheet):], len(sheet) + 1):
        totals = [t + p for t, p in zip(totals, family.totals(state))]
        sheet = [*sheet, hand_line(family, number, dealer, state, totals)]
    _SHEETS[table] = (len(sheet), sheet)
    return sheet, totals


CHAT_SHOWN = 30
"""The chat lines a view carries (the latest)."""


def chat_lines(table: Table) -> list[dict[str, Any]]:
    """The latest lines of the table's chat: ``{"seat", "name", "text"}`` (the text as said:
    a page writes it as text, never as markup)."""
    names = display_names(table)
    return [{"seat": line.seat, "name": names[line.seat]["name"], "text": line.text}
            for line in list(table.chat)[-CHAT_SHOWN:]]


# -- names ------------------------------------------------------------------------------------

def display_names(table: Table) -> list[dict[str, Any]]:
    """By seat: ``{"name", "level", "bot"}``. A bot seat (named ``bot:SPEC`` when the table was
    made) gets a friendly name, distinct at the table and fixed by its id; a person keeps theirs
    (``Player N`` for one who gave none). ``level`` is the level of the bot playing the seat now
    (``easy`` ... ``expert``, or ``custom`` for a bot of no level; ``null`` for a person)."""
    names = [s.name for s in table.seats]
    bots = [i for i, n in enumerate(names) if n.startswith(BOT_PREFIX)]
    people = [n for i, n in enumerate(names) if i not in bots]
    given = iter(friendly_names(table.id, len(bots), taken=people))
    levels = bot_table(table.family).levels
    out = []
    for i, seat in enumerate(table.seats):
        name = next(given) if i in bots else person_name(seat.name, i)
        level = None
        if seat.is_bot and seat.bot:
            level = level_of(seat.bot, table.family)
            level = level if level in levels or level == "random" else "custom"
        out.append({"name": name, "level": level, "bot": seat.is_bot})
    return out


def person_name(name: str, seat: int) -> str:
    """A person's name as shown: the record's ``p0`` (no name given) reads ``Player 1``."""
    return f"Player {seat + 1}" if name == f"p{seat}" else name


# -- the rules as a screen states them -----------------------------------------------------------

@lru_cache(maxsize=256)
def rules_facts(rules: Rules) -> dict[str, Any]:
    """The facts of ``rules`` that do not change in play (its game's name, its house-rule
    values, its meld keys...): those of the first seat of a hand dealt from seed 0."""
    family = family_of(rules)
    return dict(family.facts(family.observe(family.new_hand(rules, 0), 0)))


def seating_words(rules: Rules) -> str:
    """``4 players, partners``, ``3 players``, ``6 players, 3 teams of 2``."""
    n, k = rules.num_players, rules.num_sides
    if n == k:
        return f"{n} players"
    if k * 2 == n and k == 2:
        return f"{n} players, partners"
    return f"{n} players, {k} teams of {n // k}"


def preset_label(rules: Rules) -> str:
    """The preset's label in a player's words: ``Classic — 6 players, 3 teams of 2``."""
    title = rules_facts(rules).get("preset_title") or family_of(rules).title or rules.name
    return f"{title} — {seating_words(rules)}"


def value_words(field: dict[str, Any] | None, value: Any) -> str:
    """A house rule's value in a player's words."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field is not None and field.get("choices") and value in field["choices"]:
        return str(field["choice_labels"][field["choices"].index(value)])
    if value is None:
        return "no limit"
    if field is not None and field["kind"] == "thresholds" and isinstance(value, list):
        if len(value) == 1:
            return f"{value[0][1]}"
        return ", ".join(f"{m} below {value[1][0]}" if low is None else f"{m} from {low}"
                         for low, m in value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value)
    return str(value)


def house_rule_fields(family: Family) -> dict[str, dict[str, Any]]:
    """The family's house-rule descriptions as JSON, by field."""
    return {f.field: f.to_json() for f in family.house_rules()}


def house_rules_in_force(rules: Rules) -> list[dict[str, Any]]:
    """The fields that differ from the preset's (as the rules' own JSON gives them), with the
    form's label and the value in a player's words: ``{"field", "label", "value", "text"}``."""
    changed = rules.to_json()
    if isinstance(changed, str):
        return []
    fields = house_rule_fields(family_of(rules))
    out = []
    for name, value in changed.items():
        if name == "preset":
            continue
        field = fields.get(name)
        label = field["label"] if field is not None else name.replace("_", " ").capitalize()
        out.append({"field": name, "label": label, "value": value,
                    "text": f"{label}: {value_words(field, value)}"})
    return out


CANASTA_NAME: Final = ("canasta", "canastas")
"""A completed meld's name where a family's facts state none (``canasta_name``)."""


@lru_cache(maxsize=256)
def _table_rules(rules: Rules) -> tuple[tuple[str, Any], ...]:
    facts = rules_facts(rules)
    family = family_of(rules)
    house = house_rules_in_force(rules)
    return (("family", family.name), ("title", family.title), ("preset", rules.name),
            ("label", preset_label(rules)), ("custom", bool(house)),
            ("players", rules.num_players), ("sides", rules.num_sides),
            ("canasta_size", facts["canasta_size"]),
            ("canastas_to_go_out", facts["canastas_to_go_out"]),
            ("canasta_name", tuple(facts.get("canasta_name", CANASTA_NAME))),
            ("draw_count", rules.draw_count), ("target_score", rules.target_score),
            ("ask_partner", rules.permission_question_enabled), ("house_rules", house))


def table_rules(rules: Rules) -> dict[str, Any]:
    """The rule facts a screen states (see API.md, *Views*)."""
    out = dict(_table_rules(rules))
    out["canasta_name"] = list(out["canasta_name"])
    return out


def card_points(rules: Rules) -> dict[str, int]:
    """What each card counts in a meld under ``rules``, by card (``Kh``: 10)."""
    return {format_card(c): rules.value_of[c] for c in range(NUM_CARD_TYPES)}


def preset_lines() -> list[dict[str, Any]]:
    """Every preset of every family, family by family, for the lobby: ``{"name", "label",
    "family", "title", "players", "sides", "target"}``."""
    return [{"name": name, "label": preset_label(r), "family": family.name,
             "title": family.title, "players": r.num_players, "sides": r.num_sides,
             "target": r.target_score}
            for family in families() for name, r in family.presets().items()]


# -- records and replays ----------------------------------------------------------------------

def public_record(table: Table) -> dict[str, Any]:
    """The game record: the whole of it once the game is over; while it is on, NOTATION §4
    without the decks (which would show the hands and the stock), with ``"complete": false``,
    and a move whose cards only its player sees written as its verb alone."""
    game, family = table.game, table.family
    record: dict[str, Any] = game.record.to_json()
    if game.is_over:
        return record
    for hand in record["hands"]:
        del hand["deck"]
        hand["actions"] = [_public_text(family, game.rules, text) for text in hand["actions"]]
    record["complete"] = False
    return record


def _public_text(family: Family, rules: Rules, text: str) -> str:
    action = family.parse_action(rules, text)
    seen = family.action_words(rules, action, seen=True)
    if seen is not None and family.action_words(rules, action, seen=False) != seen:
        return text.split()[0]
    return text


def replay_position(family: Family, state: Any) -> dict[str, Any]:
    """A position of a replay, face up (the stock a count), with the facts a spectator reads
    (the melds with their kinds, the laid cards, the pile's state)."""
    out = family.position_to_json(state)
    out["stock"] = len(out["stock"]) if isinstance(out.get("stock"), list) else out.get("stock")
    facts = family.facts(family.observe(state, watcher_seat(family, state)))
    out["facts"] = {k: facts[k] for k in ("melds", "melds_of", "laid", "pile", "table_points")
                    if k in facts}
    return out


def replay_of(table: Table) -> dict[str, Any]:
    """Every position of the hands that are over, face up, as the engine plays the record
    again (the deal, then each action): the whole game once it is over; while it is on, the
    hands already played (the hand in play has none: it would show the hands and the stock).
    :class:`~canasta.interfaces.web.errors.Conflict` while no hand is over."""
    from canasta.interfaces.web.errors import Conflict

    game, family = table.game, table.family
    records = [record for record, _ in game.finished]
    if not game.is_over and game.state.is_over:
        records.append(game.record.hands[-1])
    if not records:
        raise Conflict("the replay of a hand is available once the hand is over",
                       "game_not_over")
    rules = game.rules
    hands = []
    scores = [0] * rules.num_sides
    for number, hand in enumerate(records, 1):
        state = family.new_hand(rules, deck=hand.deck, dealer=hand.dealer, scores=scores,
                                number=number)
        positions = [replay_position(family, state)]
        moves = []
        for text in hand.actions:
            action = family.parse_action(rules, text)
            move: dict[str, Any] = {"seat": state.to_move, "action": text}
            words = family.action_words(rules, action, seen=True)
            if words is not None:
                move["words"] = words
            state = family.apply(state, action)
            positions.append(replay_position(family, state))
            moves.append(move)
        scores = [s + t for s, t in zip(scores, family.totals(state))]
        hands.append({"dealer": hand.dealer, "actions": list(hand.actions), "moves": moves,
                      "positions": positions})
    sheet, _ = score_sheet(table)
    return {"table_rules": table_rules(rules), "facts": rules_facts(rules),
            "players": list(game.players), "names": display_names(table), "hands": hands,
            "score_sheet": sheet[:len(hands)]}
