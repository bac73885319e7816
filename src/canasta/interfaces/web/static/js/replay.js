// The replay viewer: steps through a finished game, face up.
//
// The server plays the record again with the engine and sends every position (the deal, then
// each action: GET /api/tables/ID/replay); the page only shows them.

import { api } from "./api.js";
import { actionWords, backEl, cardEl, groupByRank, isWild, meldRankOrder, prettyCard, rankLabel, sortCards } from "./cards.js";
import { add, clear, h, icon } from "./dom.js";
import { normalizeView, playerNames, prettyName, scoreSheet } from "./view.js";

const SIDE_COLORS = ["side-a", "side-b", "side-c"];

/** Every position of every hand: [{dealer, actions, states: [after the deal, after action 1, ...]}]. */
export function timeline(replay) {
  return (replay.hands || []).map((hand) => ({
    dealer: hand.dealer,
    actions: hand.actions || [],
    states: (hand.positions || []).map((p) => ({ ...p, went_out: p.result?.went_out ?? null })),
  }));
}

export function mountReplay(root, { tableId, hand = null }) {
  const r = new ReplayPage(root, tableId, hand);
  r.load();
  return () => r.stop();
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
    return h("header.topbar", h("a.brand", { href: "#/" }, h("span.brand-suit", "♦"), "Canasta"),
      h("span.table-title", `Replay of table ${this.tableId}`), h("span.spacer"),
      h("a.btn.ghost", { href: `#/watch/${encodeURIComponent(this.tableId)}` }, "Table"));
  }

  async load() {
    try {
      const data = await api.replay(this.tableId);
      this.rules = data.table_rules || {};
      this.hands = timeline(data);
      this.players = data.players || [];
      if (this.handIdx >= this.hands.length) this.handIdx = 0;
      try {  // the score sheet, for each hand's result (the spectators' view)
        this.public = normalizeView(await api.view(this.tableId));
        this.sheet = this.public ? scoreSheet(this.public) : [];
        // the names the table showed (bots' friendly names), where the view gives them
        if (Array.isArray(this.public?.names)) this.shown = playerNames(this.public);
      } catch {
        this.sheet = [];
      }
      this.render();
    } catch (e) {
      add(clear(this.root), h("div.replay-page", this.top(),
        h("div.panel.center-msg", h("h2", "No replay yet"),
          h("p", e.status === 409 || e.status === 404 ? "A hand's replay is ready once the hand is over." : e.message),
          h("a.btn", { href: `#/watch/${encodeURIComponent(this.tableId)}` }, "Watch the table"))));
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

  name(seat) {
    if (this.shown?.[seat]) return this.shown[seat];
    const p = this.players[seat];
    return p ? `${prettyName(p)} (${seat})` : `Seat ${seat}`;
  }

  /** The hand's score, at its last step: from the table's score sheet. */
  resultEl(handIdx) {
    const row = this.sheet?.[handIdx];
    if (!row) return null;
    const k = this.rules.sides;
    const label = (i) => this.players.map((_, s) => s).filter((s) => s % k === i).map((s) => this.name(s)).join(" & ");
    const d = row.detail;
    const lines = [["melded", "Cards melded"], ["canastas", "Canasta bonuses"], ["red_threes", "Red threes"], ["going_out", "Going out"], ["in_hand", "Cards left in hand"]];
    return h("section.panel.replay-result",
      h("div.panel-head", h("h3", `Hand ${handIdx + 1} score`)),
      h("table.breakdown",
        h("thead", h("tr", h("th", ""), [...Array(k).keys()].map((i) => h("th", { class: SIDE_COLORS[i % 3] }, label(i))))),
        h("tbody",
          d ? lines.map(([key, text]) => h("tr", h("th", text), d.sides.map((sd) => {
            const val = key === "in_hand" ? -(sd.in_hand ?? 0) : sd[key] ?? 0;
            return h("td", { class: val < 0 ? "neg" : "" }, `${val}`);
          }))) : null,
          h("tr.total", h("th", "Hand total"), row.totals.map((t) => h("td", `${t}`))),
          h("tr.running", h("th", "Game score"), row.running.map((t) => h("td", `${t}`))))));
  }

  render() {
    const hd = this.hands[this.handIdx];
    if (!hd) {
      add(clear(this.root), h("div.replay-page", this.top(), h("div.panel.center-msg", "The record holds no hands.")));
      return;
    }
    const s = hd.states[this.pos];
    const rules = this.rules;
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
    const current = this.pos > 0 ? hd.actions[this.pos - 1] : null;
    const ending = this.pos === hd.states.length - 1
      ? (s.went_out !== null ? ` — ${this.name(s.went_out)} went out.` : " — the hand is over.") : "";
    const caption = h("div.status-line#replay-caption", current
      ? [h("b", `${this.name(hd.states[this.pos - 1].to_move)} `), actionWords(current.replace(/^p\d+\s*:\s*/i, "")), ending]
      : `Hand ${this.handIdx + 1}: dealt by ${this.name(hd.dealer)}. ${this.name(s.to_move)} plays first.`);
    const seats = h("div.replay-hands", s.hands.map((hand, seat) =>
      h(`div.replay-seat.${SIDE_COLORS[(seat % rules.sides) % 3]}`, { class: s.to_move === seat && s.phase !== "over" ? "to-move" : "" },
        h("div.seat-name", h("span.seat-no", `${seat}`), this.shown?.[seat] ?? prettyName(this.players[seat] || `Seat ${seat}`), s.dealer === seat ? h("span.tag.dealer", "D") : null,
          h("span.count", ` · ${hand.length} card${hand.length === 1 ? "" : "s"}`), s.went_out === seat ? h("span.badge", "went out") : null),
        h("div.fan.flat.replay-cards", groupByRank(hand).flatMap((g) => g.cards.map((c) => cardEl(c, { cls: "small" })))))));
    const pileTop = s.pile[s.pile.length - 1];
    const center = h("section.center",
      h("div.stock", h("div.stack", s.stock ? backEl() : h("div.card.empty-slot", "empty")), h("div.pile-label", h("b", `${s.stock}`), " in stock")),
      h("div.pile", h("div.stack.pile-stack", pileTop ? cardEl(pileTop, { cls: "top" }) : h("div.card.empty-slot", "empty")),
        h("div.pile-label", h("b", `${s.pile.length}`), " in pile"),
        s.pile_freeze?.frozen ? h("div.pile-badges", h("span.badge.frozen#replay-frozen", { title: `frozen: ${s.pile_freeze.reason}` },
          icon("snow"), `frozen: ${s.pile_freeze.reason}`)) : null));
    const sides = h("div.sides-top", s.sides.map((side, i) => this.sideEl(side, i)));
    const list = h("ol.action-list", hd.actions.map((a, i) =>
      h("li", { class: i === this.pos - 1 ? "current" : "" },
        h("button.legal-action", { onclick: () => this.go(i + 1) }, h("span.who", this.name(hd.states[i].to_move)), " ", actionWords(a.replace(/^p\d+\s*:\s*/i, ""))))));
    const atEnd = this.pos === hd.states.length - 1;
    const page = h("div.replay-page", this.top(), tabs, controls, caption,
      h("div.layout", h("div.main-col", atEnd ? this.resultEl(this.handIdx) : null, h("main.board", sides, center), seats),
        h("aside.aside", h("section.panel", h("div.panel-head", h("h3", "Actions"), h("span.count", `${hd.actions.length}`)), list))));
    add(clear(this.root), page);
    const cur = list.querySelector("li.current");
    if (cur) list.scrollTop = Math.max(0, cur.offsetTop - list.offsetTop - list.clientHeight / 2);
  }

  sideEl(side, i) {
    const ranks = Object.keys(side.melds).sort((a, b) => meldRankOrder(a) - meldRankOrder(b));
    const seats = this.players.map((_, s) => s).filter((s) => s % this.rules.sides === i);
    return h(`section.side.${SIDE_COLORS[i % 3]}`,
      h("div.side-head", h("span.side-name", seats.map((s) => this.name(s)).join(" & ") || `Side ${i}`),
        this.sheet?.[this.handIdx] ? h("span.side-score", `${(this.sheet[this.handIdx].running[i] ?? 0) - (this.sheet[this.handIdx].totals[i] ?? 0)} pts before this hand`) : null),
      h("div.side-body",
        side.red_threes.length ? h("div.red-threes", side.red_threes.map((c) => cardEl(c, { cls: "small" }))) : null,
        h("div.meld-row", ranks.length ? ranks.map((r) => {
          const cards = side.melds[r];
          const ordered = [...sortCards(cards.filter((c) => !isWild(c))), ...sortCards(cards.filter(isWild))];
          const canasta = cards.length >= this.rules.canasta_size;
          const natural = !cards.some(isWild);
          return h("div.meld", { class: canasta ? `canasta-open ${natural ? "natural" : "mixed"}` : "", title: ordered.map(prettyCard).join(" ") },
            h("div.fan", ordered.map((c) => cardEl(c, { cls: "small" }))),
            h("div.meld-label", `${rankLabel(r)} · ${cards.length}`, canasta ? ` · ${natural ? "natural" : "mixed"} canasta` : ""));
        }) : h("div.empty-melds", "No melds."))));
  }
}
