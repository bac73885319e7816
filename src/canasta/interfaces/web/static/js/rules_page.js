// How to play: the game in a few paragraphs, and the rules of a preset (or of a table, with its
// house rules) as the server states them. The numbers all come from the server
// (GET /api/house-rules: each preset's values; a table's view: its house rules in force).

import { api } from "./api.js";
import { add, clear, h } from "./dom.js";

export function mountRules(root, { preset = null, tableId = null } = {}) {
  const page = new RulesPage(root, preset, tableId);
  page.load();
  return () => {};
}

const BASICS = [
  ["The aim", "Two sides (partners sit opposite) lay down melds: three or more cards of one rank. A meld grown to a canasta's size (the table's rules say how many cards) is a canasta, the heart of the score. A side that reaches the target score wins."],
  ["A turn", "Draw from the stock, or take the whole discard pile by melding its top card with cards from your hand. Then lay melds if you like, and end the turn by discarding one card."],
  ["Wild cards", "Jokers and twos are wild: they join a meld of natural cards, never outnumbering them. A canasta without wild cards is natural and scores more than a mixed one."],
  ["Threes", "A red three is a bonus: it is laid at once and a card is drawn for it. A black three discarded blocks the next player from taking the pile."],
  ["The frozen pile", "A wild card in the pile freezes it: it may then be taken only with two natural cards of its top card's rank. Before a side has melded, the pile is frozen for it."],
  ["Opening", "A side's first meld must reach a minimum of points, which grows with the side's score."],
  ["Going out", "A player goes out by melding or discarding the last card, once the side has the canastas it needs. The hand ends and both sides count their melds, minus the cards left in hand."],
];

class RulesPage {
  constructor(root, preset, tableId) {
    this.root = root;
    this.preset = preset;
    this.tableId = tableId;
  }

  async load() {
    this.render(null, null);
    try {
      const form = await api.houseRules();
      let house = null;
      if (this.tableId) {
        try {
          const view = await api.view(this.tableId);
          const rules = view?.table_rules ?? view?.position?.table_rules ?? null;
          if (rules) { this.preset = rules.preset; house = rules; }
        } catch { /* the table is gone: the preset's rules still show */ }
      }
      this.render(form, house);
    } catch (e) {
      this.render(null, null, e.message);
    }
  }

  render(form, house, error = null) {
    const back = this.tableId ? h("a.btn.ghost", { href: "javascript:history.back()" }, "Back to the table") : h("a.btn.ghost", { href: "#/" }, "Lobby");
    const sections = BASICS.map(([title, text]) => h("section.rules-basic", h("h3", title), h("p", text)));
    const values = form?.presets?.[this.preset] ?? (form ? Object.values(form.presets || {})[0] : null);
    const rows = [];
    if (form && values) {
      const family = (form.families || []).find((f) => this.preset in (f.presets || {})) || form.families?.[0];
      for (const g of family?.groups || []) {
        rows.push(h("tr", h("th.group", { colspan: 2 }, g.title)));
        for (const f of g.fields) rows.push(h("tr", h("th", { scope: "row" }, f.label), h("td", valueWords(f, values[f.name]))));
      }
    }
    const houseList = house && (house.house_rules || []).length
      ? h("section.panel#rules-house", h("h2", "House rules at this table"),
        h("ul", house.house_rules.map((r) => h("li", r.text)))) : null;
    add(clear(this.root), h("div.rules-page",
      h("header.topbar", h("a.brand", { href: "#/", "aria-label": "Canasta: the lobby" }, h("span.brand-suit", "♦"), "Canasta"), h("span.spacer"), back),
      h("main.rules-main",
        h("h1", "How to play Canasta"),
        house ? h("p.muted", `The rules of this table: ${house.label}${house.custom ? ", with house rules" : ""}.`) : null,
        houseList,
        sections,
        error ? h("p.message", error) : null,
        rows.length ? h("section.panel#rules-values", h("h2", house ? "The numbers at this table" : "The numbers of the rules"),
          h("table.rules-table", h("tbody", rows))) : null)));
    document.title = "How to play — Canasta";
  }
}

function valueWords(field, value) {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (value === null || value === undefined) return "no limit";
  if (field.kind === "choice") {
    const i = (field.choices || []).indexOf(value);
    return i >= 0 ? (field.choice_labels || field.choices)[i] : String(value);
  }
  if (field.kind === "thresholds") {
    return value.map(([from, need]) => (from === null ? `${need} below ${value[1]?.[0] ?? 0}` : `${need} from ${from}`)).join(", ");
  }
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}
