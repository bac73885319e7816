// The replay viewer: steps through the hands that are over, face up, at a table of any family.
//
// The server plays the record again with the engine and sends every position (the deal, then
// each action), with the facts a spectator reads of each (the melds and their kinds, the cards
// laid beside them, the pile), the players' names and the score sheet (GET
// /api/tables/ID/replay); the page only shows them.

import { api } from "./api.js";
import {
  backEl, canastaWord, cardEl, groupByRank, isWild, presentWords, prettyCard, scoreWords, sortCards,
} from "./cards.js";
import { add, clear, h, icon } from "./dom.js";
import { recentTables } from "./lobby.js";

const SIDE_COLORS = ["side-a", "side-b", "side-c"];

/** Every position of every hand: [{dealer, moves, states: [after the deal, after action 1, ...]}]. */
export function timeline(replay) {
  return (replay.hands || []).map((hand) => ({
    dealer: hand.dealer,
    moves: hand.moves || (hand.actions || []).map((action) => ({ seat: null, action })),
    states: hand.positions || [],
  }));
}

export function mountReplay(root, { tableId, hand = null }) {
  const r = new ReplayPage(root, tableId, hand);
  r.load();
  return () => r.stop();
}

/** Where "Table" goes from a replay: the seat this browser holds at the table, else watching. */
export function tableHref(tableId) {
  const mine = recentTables().find((t) => t.table_id === tableId && (t.seats || []).length);
  return mine
    ? `#/table/${encodeURIComponent(tableId)}?token=${encodeURIComponent(mine.seats[0].token)}`
    : `#/watch/${encodeURIComponent(tableId)}`;
}

class ReplayPage {
  constructor(root, tableId, hand = null) {
    this.root = root;
    this.tableId = tableId;
    this.handIdx = Math.max(0, (Number(hand) || 1) - 1);
    this.pos = 0;
    this.timer = null;
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    add(clear(root), h("div.replay-page", this.top(), h("div.loading", "Loading the record…")));
  }

  stop() {
    clearInterval(this.timer);
    document.removeEventListener("keydown", this.onKey);
  }

  top() {
    const mine = tableHref(this.tableId).startsWith("#/table/");
    return h("header.topbar", h("a.brand", { href: "#/" }, h("span.brand-suit", "♦"), "Canasta"),
      h("span.table-title", `Replay of table ${this.tableId}`), h("span.spacer"),
      h("a.btn.ghost#replay-table", { href: tableHref(this.tableId) }, mine ? "Back to my seat" : "Watch the table"));
  }

  async load() {
    try {
      const data = await api.replay(this.tableId);
      this.rules = data.table_rules || {};
      this.facts = data.facts || {};
      this.hands = timeline(data);
      this.names = (data.names || []).map((n) => n.name);
      this.players = data.players || [];
      this.sheet = data.score_sheet || [];
      if (this.handIdx >= this.hands.length) this.handIdx = 0;
      this.render();
    } catch (e) {
      add(clear(this.root), h("div.replay-page", this.top(),
        h("div.panel.center-msg", h("h2", "No replay yet"),
          h("p", e.status === 409 || e.status === 404 ? "A hand's replay is ready once the hand is over." : e.message),
          h("a.btn", { href: tableHref(this.tableId) }, "Back to the table"))));
    }
  }

  key(e) {
    if (!this.hands || e.target.closest?.("input, select, textarea")) return;
    if (e.key === "ArrowRight") { this.go(this.pos + 1); e.preventDefault(); }
    if (e.key === "ArrowLeft") { this.go(this.pos - 1); e.preventDefault(); }
    if (e.key === "Home") { this.go(0); e.preventDefault(); }
    if (e.key === "End") { this.go(Infinity); e.preventDefault(); }
  }

  go(pos, handIdx = this.handIdx) {
    const hd = this.hands[handIdx];
    if (!hd) return;
    this.handIdx = handIdx;
    this.pos = Math.max(0, Math.min(hd.states.length - 1, pos));
    this.render();
  }

  toggleAuto() {
    if (this.timer) { clearInterval(this.timer); this.timer = null; this.render(); return; }
    this.timer = setInterval(() => {
      const hd = this.hands[this.handIdx];
      if (this.pos >= hd.states.length - 1) {
        if (this.handIdx + 1 < this.hands.length) this.go(0, this.handIdx + 1);
        else { clearInterval(this.timer); this.timer = null; this.render(); }
      } else this.go(this.pos + 1);
    }, 700);
    this.render();
  }

  /** A seat's name as the table showed it (bots' friendly names, "Player N" for a person who
   * gave none). */
  name(seat) {
    return this.names?.[seat] ?? `Player ${seat + 1}`;
  }

  sideNames(i) {
    const k = this.rules.sides;
    return this.players.map((_, s) => s).filter((s) => s % k === i).map((s) => this.name(s)).join(" & ");
  }

  /** The hand's score, at its last step: each side's parts as they count, from the score sheet. */
  resultEl(handIdx) {
    const row = this.sheet[handIdx];
    if (!row) return null;
    const k = this.rules.sides;
    const parts = row.score || [];
    const keys = parts.length ? Object.keys(parts[0]).filter((x) => x !== "total") : [];
    return h("section.panel.replay-result",
      h("div.panel-head", h("h3", `Hand ${handIdx + 1} score`)),
      h("table.breakdown",
        h("thead", h("tr", h("th", h("span.sr-only", "score")), [...Array(k).keys()].map((i) => h("th", { class: SIDE_COLORS[i % 3] }, this.sideNames(i))))),
        h("tbody",
          keys.map((key) => h("tr", h("th", scoreWords(key)), parts.map((sd) => {
            const val = sd[key] ?? 0;
            return h("td", { class: val < 0 ? "neg" : "" }, `${val}`);
          }))),
          h("tr.total", h("th", "Hand total"), row.totals.map((t) => h("td", `${t}`))),
          h("tr.running", h("th", "Game score"), row.scores.map((t) => h("td", `${t}`))))));
  }

  render() {
    const hd = this.hands[this.handIdx];
    if (!hd) {
      add(clear(this.root), h("div.replay-page", this.top(), h("div.panel.center-msg", "The record holds no hands.")));
      return;
    }
    const s = hd.states[this.pos];
    const tabs = h("div.hand-tabs", this.hands.map((x, i) =>
      h("button.tab", { class: i === this.handIdx ? "active" : "", onclick: () => this.go(0, i) }, `Hand ${i + 1}`)));
    const controls = h("div.replay-controls#replay-controls",
      h("button.btn", { onclick: () => this.go(0), title: "start (Home)", "aria-label": "start" }, icon("first")),
      h("button.btn#replay-prev", { onclick: () => this.go(this.pos - 1), title: "back (←)", "aria-label": "back" }, icon("prev")),
      h("button.btn.primary#replay-play", { onclick: () => this.toggleAuto() }, this.timer ? [icon("pause"), "Pause"] : [icon("play"), "Play"]),
      h("button.btn#replay-next", { onclick: () => this.go(this.pos + 1), title: "forward (→)", "aria-label": "forward" }, icon("next")),
      h("button.btn", { onclick: () => this.go(Infinity), title: "end (End)", "aria-label": "end" }, icon("last")),
      h("input.slider", { type: "range", min: 0, max: hd.states.length - 1, value: this.pos, "aria-label": "position in the hand",
        oninput: (e) => this.go(Number(e.target.value)) }),
      h("span.step-no#replay-step", `${this.pos} / ${hd.states.length - 1}`));
    const current = this.pos > 0 ? hd.moves[this.pos - 1] : null;
    const atEnd = this.pos === hd.states.length - 1;
    const ending = atEnd ? this.sheet[this.handIdx]?.ending : null;
    const endWords = ending ? ` — ${ending.seat !== null && ending.seat !== undefined ? `${this.name(ending.seat)} ${ending.words}` : ending.words}.` : "";
    const caption = h("div.status-line#replay-caption", current
      ? [h("b", `${this.name(current.seat ?? hd.states[this.pos - 1].to_move)} `), presentWords(current), endWords]
      : `Hand ${this.handIdx + 1}: dealt by ${this.name(hd.dealer)}. ${this.name(s.to_move)} plays first.`);
    const seats = h("div.replay-hands", s.hands.map((hand, seat) =>
      h(`div.replay-seat.${SIDE_COLORS[(seat % this.rules.sides) % 3]}`, { class: s.to_move === seat && s.phase !== "over" ? "to-move" : "" },
        h("div.seat-name", h("span.seat-no", `${seat + 1}`), this.name(seat), s.dealer === seat ? h("span.tag.dealer", "D") : null,
          h("span.count", ` · ${hand.length} card${hand.length === 1 ? "" : "s"}`), ending?.seat === seat ? h("span.badge", ending.words) : null),
        h("div.fan.flat.replay-cards", groupByRank(hand).flatMap((g) => g.cards.map((c) => cardEl(c, { cls: "small" })))))));
    const pile = s.facts?.pile ?? {};
    const pileTop = s.pile[s.pile.length - 1];
    const center = h("section.center",
      h("div.stock", h("div.stack", s.stock ? backEl() : h("div.card.empty-slot", "empty")), h("div.pile-label", h("b", `${s.stock}`), " in stock")),
      h("div.pile", h("div.stack.pile-stack", pileTop ? cardEl(pileTop, { cls: "top" }) : h("div.card.empty-slot", "empty")),
        h("div.pile-label", h("b", `${s.pile.length}`), " in pile"),
        pile.frozen && pileTop ? h("div.pile-badges", h("span.badge.frozen#replay-frozen", { title: `frozen: ${pile.why}` },
          icon("snow"), pile.frozen_by ? `frozen: ${pile.why}` : (pile.note || `frozen: ${pile.why}`))) : null));
    const sides = h("div.sides-top", [...Array(this.rules.sides).keys()].map((i) => this.sideEl(s, i)));
    const list = h("ol.action-list", hd.moves.map((m, i) =>
      h("li", { class: i === this.pos - 1 ? "current" : "" },
        h("button.legal-action", { onclick: () => this.go(i + 1) }, h("span.who", this.name(m.seat ?? hd.states[i].to_move)), " ", presentWords(m)))));
    const page = h("div.replay-page", this.top(), tabs, controls, caption,
      h("div.layout", h("div.main-col", atEnd ? this.resultEl(this.handIdx) : null, h("main.board", sides, center), seats),
        h("aside.aside", h("section.panel", h("div.panel-head", h("h3", "Actions"), h("span.count", `${hd.moves.length}`)), list))));
    add(clear(this.root), page);
    const cur = list.querySelector("li.current");
    if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.offsetTop - list.clientHeight / 2);
  }

  sideEl(s, i) {
    const seats = this.players.map((_, x) => x).filter((x) => x % this.rules.sides === i);
    const owner = s.facts?.melds_of?.[seats[0]] ?? i;
    const melds = s.facts?.melds?.[owner] ?? [];
    const laid = s.facts?.laid?.[i] ?? [];
    const names = this.facts.meld_names || {};
    const row = this.sheet[this.handIdx];
    return h(`section.side.${SIDE_COLORS[i % 3]}`,
      h("div.side-head", h("span.side-name", this.sideNames(i) || `Side ${i + 1}`),
        row ? h("span.side-score", `${(row.scores[i] ?? 0) - (row.totals[i] ?? 0)} before this hand`) : null),
      h("div.side-body",
        laid.length ? h("div.red-threes.laid", laid.map((c) => cardEl(c, { cls: "small" }))) : null,
        h("div.meld-row", melds.length ? melds.map((m) => {
          const ordered = [...sortCards(m.cards.filter((c) => !isWild(c))), ...sortCards(m.cards.filter(isWild))];
          return h("div.meld", { class: m.canasta ? `canasta-open ${m.canasta}` : "", title: ordered.map(prettyCard).join(" ") },
            h("div.fan", ordered.map((c) => cardEl(c, { cls: "small" }))),
            h("div.meld-label", `${names[m.key] ?? m.key} · ${m.cards.length}`, m.canasta ? ` · ${m.canasta} ${canastaWord(this.facts.canasta_name, 1)}` : ""));
        }) : h("div.empty-melds", "No melds."))));
  }
}
