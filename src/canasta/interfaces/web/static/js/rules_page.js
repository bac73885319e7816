// How to play: the game in a few paragraphs, and the rules of a preset (or of a table, with its
// house rules) as the server states them, for any family. The numbers all come from the server
// (GET /api/rules/PRESET: the facts that do not change in play and what each card counts;
// GET /api/house-rules: each preset's values of its family's house rules; a table's view: its
// house rules in force).

import { api } from "./api.js";
import { canastaWord, prettyCard, prettyText } from "./cards.js";
import { add, clear, h } from "./dom.js";

export function mountRules(root, { preset = null, tableId = null } = {}) {
  const page = new RulesPage(root, preset, tableId);
  page.load();
  return () => {};
}

/** The game in a few paragraphs, its numbers from the rules' facts. */
function basics(f, rules) {
  const n = f.canastas_to_go_out;
  const minimum = (f.opening_minimum || [])[0];
  const laid = f.laid_name?.[1];
  const one = canastaWord(f.canasta_name, 1);
  return [
    ["The aim", `Two sides (partners sit opposite) lay down melds: three or more cards of one rank. A meld of ${f.canasta_size} cards is a ${one}, the heart of the score. ${f.game_end?.deals ? `After ${f.game_end.deals} hands the side with the most points wins.` : `The first side to reach ${f.game_end?.target ?? rules.target_score} points wins.`}`],
    ["A turn", "Draw from the stock, or take the discard pile with cards from your hand that meld with its top card. Then lay melds if you like, and end the turn by discarding one card."],
    ["Wild cards", `Jokers and twos are wild: they join melds of natural cards, within the limits of the numbers below. A ${one} without wild cards is natural and scores more than a mixed one.`],
    ["The pile", "The pile may be frozen: then only a natural pair of its top card's rank takes it. The table says when it is, and why."],
    ["Opening", `A side's first meld must count at least ${minimum ?? "a minimum of"} points (what each card counts is below); the minimum grows with the side's score.`],
    laid ? [`${laid.charAt(0).toUpperCase()}${laid.slice(1)}`, `${laid.charAt(0).toUpperCase()}${laid.slice(1)} are laid beside the melds and count for or against the side at the end of the hand.`] : null,
    ["Going out", `A player goes out by melding or discarding the last card, once the side has ${n} ${canastaWord(f.canasta_name, n)}. The hand ends, and each side counts its melds, minus the cards left in hand.`],
  ].filter(Boolean);
}

/** What each card counts, grouped by value: [[value, [rank or card...]]], the highest first; a
 * rank whose suits count alike is named once ("K"), else each card ("3♥"). */
function countsOfCards(points) {
  const ranks = ["JK", "2", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"];
  const groups = new Map();
  const put = (v, label) => {
    if (!groups.has(v)) groups.set(v, []);
    groups.get(v).push(label);
  };
  for (const r of ranks) {
    if (r === "JK") { if (points.JK !== undefined) put(points.JK, "Joker"); continue; }
    const cards = ["s", "h", "d", "c"].map((x) => `${r}${x}`).filter((c) => points[c] !== undefined);
    const values = new Set(cards.map((c) => points[c]));
    if (values.size === 1) put(points[cards[0]], r === "T" ? "10" : r);
    else for (const c of cards) put(points[c], prettyCard(c));
  }
  return [...groups].sort((a, b) => b[0] - a[0]);
}

class RulesPage {
  constructor(root, preset, tableId) {
    this.root = root;
    this.preset = preset;
    this.tableId = tableId;
  }

  async load() {
    this.render(null);
    try {
      let house = null;
      if (this.tableId) {
        try {
          const view = await api.view(this.tableId);
          if (view?.table_rules) { this.preset = view.table_rules.preset; house = view.table_rules; }
        } catch { /* the table is gone: the preset's rules still show */ }
      }
      if (!this.preset) this.preset = (await api.presets()).presets?.[0]?.name;
      const [about, form] = await Promise.all([api.rules(this.preset), api.houseRules()]);
      this.render({ about, form, house });
    } catch (e) {
      this.render(null, e.message);
    }
  }

  render(data, error = null) {
    const back = this.tableId ? h("a.btn.ghost", { href: "javascript:history.back()" }, "Back to the table") : h("a.btn.ghost", { href: "#/" }, "Lobby");
    const main = h("main.rules-main", h("h1", "How to play Canasta"));
    if (data) {
      const { about, form, house } = data;
      const f = about.facts || {};
      const rules = about.table_rules || {};
      const family = (form.families || []).find((x) => x.family === f.family);
      const values = family?.presets?.[this.preset] ?? {};
      add(main,
        h("p.rules-intro", house ? `The rules of this table: ${house.label}${house.custom ? ", with house rules" : ""}.` : `${f.title}: ${rules.label}.`),
        house && (house.house_rules || []).length ? h("section.panel#rules-house", h("h2", "House rules at this table"),
          h("ul", house.house_rules.map((r) => h("li", r.text)))) : null,
        basics(f, rules).map(([title, text]) => h("section.rules-basic", h("h3", title), h("p", text))),
        (f.notes || []).length ? h("section.rules-basic#rules-notes", h("h3", `In ${f.title}`), h("ul", f.notes.map((n) => h("li", prettyText(n))))) : null,
        h("section.panel#rules-card-values", h("h2", "What the cards count"),
          h("table.rules-table", h("tbody", countsOfCards(about.card_points || {}).map(([v, cards]) =>
            h("tr", h("th", { scope: "row" }, cards.join(" ")), h("td", `${v} point${v === 1 ? "" : "s"}`)))))),
        family ? h("section.panel#rules-values", h("h2", house ? "The numbers at this table" : "The numbers of the rules"),
          h("table.rules-table", h("tbody", family.groups.flatMap((g) => [
            h("tr", h("th.group", { colspan: 2, scope: "colgroup" }, g.title)),
            ...g.fields.map((fd) => h("tr", h("th", { scope: "row" }, fd.label), h("td", valueWords(fd, values[fd.name])))),
          ])))) : null);
    }
    if (error) add(main, h("p.message", error));
    if (!data && !error) add(main, h("p", "Loading the rules…"));
    add(clear(this.root), h("div.rules-page",
      h("header.topbar", h("a.brand", { href: "#/", "aria-label": "Canasta: the lobby" }, h("span.brand-suit", "♦"), "Canasta"), h("span.spacer"), back),
      main));
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
    if (value.length === 1) return `${value[0][1]}`;
    return value.map(([from, need]) => (from === null ? `${need} below ${value[1]?.[0] ?? 0}` : `${need} from ${from}`)).join(", ");
  }
  if (Array.isArray(value)) return value.join(", ");
  return String(value);
}
