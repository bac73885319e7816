// The lobby: set up a table (preset, who sits where), hand out join links, join or watch.

import { api } from "./api.js";
import { add, clear, copyText, h, toast } from "./dom.js";
import { cardEl } from "./cards.js";
import { coachTable } from "./table.js";

const LEVEL_NAMES = ["easy", "medium", "hard", "expert"];
/** A bot seat by its level, in a player's words (the lobby never shows a bot's spec). */
const LEVEL_WORDS = { easy: "Easy bot", medium: "Medium bot", hard: "Hard bot", expert: "Expert bot", random: "Random bot (plays any legal move)" };
const RECENT_KEY = "canasta.recent-tables";

export function joinLink(tableId, token) {
  return `${location.origin}${location.pathname}#/table/${encodeURIComponent(tableId)}?token=${encodeURIComponent(token)}`;
}

export function watchLink(tableId) {
  return `${location.origin}${location.pathname}#/watch/${encodeURIComponent(tableId)}`;
}

export function recentTables() {
  try { return JSON.parse(localStorage.getItem(RECENT_KEY) || "[]"); } catch { return []; }
}

/** Keep a table among this browser's games (newest first), merged with what is known of it:
 * {table_id, rules (in words), seats: [{seat, token}], at, hand, result}. */
export function rememberTable(entry) {
  const old = recentTables().find((t) => t.table_id === entry.table_id) || {};
  const seats = [...(entry.seats || [])];
  for (const s of old.seats || []) if (!seats.some((x) => x.seat === s.seat)) seats.push(s);
  const list = recentTables().filter((t) => t.table_id !== entry.table_id);
  list.unshift({ ...old, ...entry, rules: entry.rules || old.rules, seats, result: entry.result ?? old.result ?? null });
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, 20))); } catch { /* private mode */ }
}

/** A game's result as this browser's seat saw it: "won 5120–3400", "lost …", or null. */
function resultWords(r) {
  if (!r || !Array.isArray(r.scores)) return null;
  const mine = r.scores[r.side] ?? 0;
  const others = r.scores.filter((_, i) => i !== r.side);
  const score = `${mine}–${others.join("–")}`;
  return r.winner === r.side ? `won ${score}` : r.winner === null || r.winner === undefined ? score : `lost ${score}`;
}

const GUIDE_SEED = 20260;
/** The deal of every guided first hand (the same for everyone: a fixed deal). */

/** Reads a table id and token out of anything pasted: a join link, "id", "id?token=..". */
export function parseTableRef(text) {
  const t = text.trim();
  if (!t) return null;
  let m = /#\/(?:table|watch|replay)\/([^?/#\s]+)(?:\?token=([^&\s]+))?/.exec(t);
  if (m) return { id: decodeURIComponent(m[1]), token: m[2] ? decodeURIComponent(m[2]) : null };
  try {
    const u = new URL(t);
    const id = u.searchParams.get("table") || /\/tables?\/([^/?#]+)/.exec(u.pathname)?.[1];
    if (id) return { id: decodeURIComponent(id), token: u.searchParams.get("token") };
  } catch { /* not a URL */ }
  m = /^([\w-]+)(?:\?token=(\S+))?$/.exec(t);
  return m ? { id: m[1], token: m[2] || null } : null;
}

export function mountLobby(root) {
  const page = new Lobby(root);
  page.render();
  return () => { page.gone = true; };
}

class Lobby {
  constructor(root) {
    this.root = root;
    this.presets = null;     // GET /api/presets: [{name, label, players, sides, target}]
    this.preset = null;
    this.defaultBot = "bot:medium";
    this.seats = [];
    this.names = [];
    this.edits = {};         // house rules changed from the preset's, by field
    this.houseRules = null;  // GET /api/house-rules
    this.rulesOpen = false;
    this.created = null;
    this.levels = LEVEL_NAMES;
    this.families = [];      // GET /api/meta: each family's bots and levels
    this.openTables = [];
    api.presets().then((r) => this.usePresets(r)).catch((e) => { this.presetsError = e.message; this.render(); });
    api.meta().then((m) => this.useMeta(m)).catch(() => {});
    api.houseRules().then((r) => { this.houseRules = r; this.render(); }).catch(() => {});
    api.listTables("playing").then((t) => { this.openTables = Array.isArray(t) ? t : []; this.render(); }).catch(() => {});
  }

  /** GET /api/presets: the server's presets; the first is the default. */
  usePresets(r) {
    const list = Array.isArray(r?.presets) ? r.presets : [];
    if (!list.length) return;
    this.presets = Object.fromEntries(list.map((p) => [p.name, p]));
    this.preset = list[0].name;
    this.seats = defaultSeats(list[0].players, this.defaultBot);
    this.render();
  }

  /** GET /api/meta: {presets, families: [{family, title, bots, levels, default, hint}]}. */
  useMeta(m) {
    this.families = Array.isArray(m?.families) ? m.families : [];
    this.render();
  }

  /** The levels the bots of the chosen preset's family play at. */
  familyLevels() {
    const fam = this.families.find((f) => f.family === this.presets?.[this.preset]?.family);
    return fam ? LEVEL_NAMES.filter((l) => l in (fam.levels || {})) : LEVEL_NAMES;
  }

  render() {
    if (this.gone) return;  // the page moved on (a late reply must not draw the lobby again)
    const root = clear(this.root);
    add(root, h("div.lobby",
      h("header.topbar", h("a.brand", { href: "#/" }, h("span.brand-suit", "♦"), "Canasta"), h("span.spacer"),
        h("span.muted", "a table for humans and bots"), h("a.btn.ghost.small#rules-link", { href: "#/rules" }, "How to play")),
      h("section.hero",
        h("div.hero-text", h("h1", "Canasta"), h("p", "Play the partnership card game with friends or bots: melds, canastas and all."),
          this.presets ? h("p.families", [...new Set(Object.values(this.presets).map((p) => p.title))].join(" · ")) : null),
        h("div.hero-fan", ["JK", "2h", "Ah", "Kd", "3h"].map((c) => cardEl(c)))),
      h("div.lobby-grid",
        this.newTableCard(),
        h("div.lobby-col", this.createdCard(), this.learnCard(), this.joinCard(), this.recentCard(), this.openCard()))));
  }

  newTableCard() {
    if (!this.presets) {
      return h("section.card-panel#new-table-loading", h("h2", "New table"),
        h("p.muted", this.presetsError ? `Cannot load the rules presets: ${this.presetsError}` : "Loading the rules presets…"));
    }
    const presetSel = h("select#preset", { onchange: (e) => {
      this.preset = e.target.value;
      this.edits = {};  // the new preset's own values
      const n = this.presets[this.preset].players;
      const old = this.seats;
      this.seats = defaultSeats(n, this.defaultBot).map((d, i) => old[i] ?? d);
      this.render();
    } }, this.presetGroups().map(([title, list]) => h("optgroup", { label: title },
      list.map((p) => h("option", { value: p.name, selected: p.name === this.preset }, p.label)))));
    const sidesN = this.presets[this.preset].sides;
    const rows = this.seats.map((spec, i) => this.seatRow(spec, i, sidesN));
    const quick = h("div.quick",
      h("button.btn.ghost.small", { type: "button", onclick: () => { this.seats = this.seats.map((_, i) => (i === 0 ? "human" : this.defaultBot)); this.render(); } }, "Me vs bots"),
      h("button.btn.ghost.small", { type: "button", onclick: () => { this.seats = this.seats.map(() => "human"); this.render(); } }, "All humans"),
      h("button.btn.ghost.small", { type: "button", onclick: () => { this.seats = this.seats.map((_, i) => (i % sidesN === 0 ? "human" : this.defaultBot)); this.render(); } }, "Humans as partners"));
    const err = h("div.message#create-error", { hidden: true, role: "alert" });
    const form = h("form.card-panel#new-table", { onsubmit: (e) => { e.preventDefault(); this.create(err); } },
      h("h2", "New table"),
      h("label.field", h("span", "Rules"), presetSel),
      h("div.field", h("span", "Seats"), quick),
      h("ol.seat-list", rows),
      this.optionsEl(),
      err,
      h("button.btn.primary.big#create-table", { type: "submit" }, "Create table"));
    return form;
  }

  /**
   * House rules: the preset's RULES §6 fields a person would set, filled with its values
   * (GET /api/house-rules). Only the fields changed here are sent; the rules engine judges the
   * combination when the table is created, and its message shows if it refuses.
   */
  optionsEl() {
    const form = this.houseRules;
    if (!form) return h("p.muted#house-rules-loading", "House rules: loading…");
    const values = form.presets?.[this.preset] || {};
    const changed = Object.keys(this.edits).length;
    const family = (form.families || []).find((f) => f.family === this.presets[this.preset]?.family);
    const groups = (family?.groups || []).map((g) => h("fieldset.rules-group",
      h("legend", g.title),
      g.fields.map((f) => this.ruleField(f, values[f.name]))));
    return h("details.options#house-rules", { open: this.rulesOpen || changed > 0, ontoggle: (e) => { this.rulesOpen = e.target.open; } },
      h("summary", "House rules", changed ? h("span.badge.opening", ` ${changed} changed`) : h("span.muted", " (the preset's)")),
      h("div.rules-form", groups),
      changed ? h("button.btn.small.ghost#reset-rules", { type: "button", onclick: () => { this.edits = {}; this.render(); } }, "Back to the preset") : null);
  }

  ruleField(f, presetValue) {
    const id = `rule-${f.name}`;
    const edited = Object.prototype.hasOwnProperty.call(this.edits, f.name);
    const value = edited ? this.edits[f.name] : presetValue;
    let wrap = null;
    const set = (v) => {
      if (JSON.stringify(v) === JSON.stringify(presetValue)) delete this.edits[f.name];
      else this.edits[f.name] = v;
      wrap?.classList.toggle("edited", Object.prototype.hasOwnProperty.call(this.edits, f.name));
      const sum = this.root.querySelector("#house-rules summary");
      if (sum) sum.lastChild.textContent = Object.keys(this.edits).length ? ` ${Object.keys(this.edits).length} changed` : " (the preset's)";
    };
    const label = h("span", f.label, f.hint ? h("small.muted", ` — ${f.hint}`) : null);
    let input;
    if (f.kind === "bool") {
      input = h("input", { id, type: "checkbox", checked: !!value, onchange: (e) => set(e.target.checked) });
      wrap = h("label.rule.rule-bool", { class: edited ? "edited" : "" }, input, label);
      return wrap;
    }
    if (f.kind === "choice") {
      const labels = f.choice_labels || f.choices;
      input = h("select", { id, onchange: (e) => set(e.target.value) },
        f.choices.map((c, k) => h("option", { value: c, selected: c === value }, labels[k])));
    } else if (f.kind === "thresholds") {
      const rows = (value || []).map((row) => [...row]);
      const update = () => set(rows.map((r) => [...r]));
      input = h("div.thresholds", { id }, rows.map((row, i) => h("span.threshold",
        i === 0 ? h("span.muted", "below that:") : h("span.muted", "from"),
        i === 0 ? null : h("input", { type: "number", step: 5, value: row[0], "aria-label": "from the score", oninput: (e) => { row[0] = parseInt(e.target.value, 10); update(); } }),
        h("span.muted", i === 0 ? "" : "→"),
        h("input", { type: "number", min: 0, step: 5, value: row[1], "aria-label": "opening minimum", oninput: (e) => { row[1] = parseInt(e.target.value, 10); update(); } }))));
    } else if (f.kind === "sizes") {
      input = h("input", { id, type: "text", value: (value || []).join(", "),
        oninput: (e) => set(e.target.value.split(/[\s,]+/).filter(Boolean).map((x) => parseInt(x, 10))) });
    } else {
      input = h("input", { id, type: "number", step: 1, value: value ?? "", placeholder: f.optional ? "no limit" : "",
        oninput: (e) => set(e.target.value === "" && f.optional ? null : parseInt(e.target.value, 10)) });
    }
    wrap = h(f.kind === "thresholds" ? "div.rule" : "label.rule", { class: edited ? "edited" : "" }, label, input);
    return wrap;
  }

  /** The presets by family, in the server's order: [[title, [preset...]]]. */
  presetGroups() {
    const groups = new Map();
    for (const p of Object.values(this.presets)) {
      if (!groups.has(p.title)) groups.set(p.title, []);
      groups.get(p.title).push(p);
    }
    return [...groups];
  }

  rulesValue() {
    const edits = Object.entries(this.edits);
    return edits.length ? { preset: this.preset, ...Object.fromEntries(edits) } : this.preset;
  }

  seatRow(spec, i, sidesN) {
    const levels = [...this.familyLevels(), "random"];
    const isCustom = spec.startsWith("bot:") && !levels.some((l) => spec === `bot:${l}`);
    const sel = h("select.seat-kind", { id: `seat-${i}`, "aria-label": `who plays seat ${i + 1}`, onchange: (e) => {
      this.seats[i] = e.target.value === "custom" ? "bot:" : e.target.value;
      this.render();
      if (e.target.value === "custom") this.root.querySelector(`#seat-${i}-name`)?.focus();
    } },
    h("option", { value: "human", selected: spec === "human" }, "A person (send them a link)"),
    h("optgroup", { label: "A bot" },
      levels.map((l) => h("option", { value: `bot:${l}`, selected: spec === `bot:${l}` }, LEVEL_WORDS[l] ?? `${l} bot`)),
      h("option", { value: "custom", selected: isCustom }, "Another bot (by its settings)…")));
    const custom = isCustom ? h("input.bot-name", { id: `seat-${i}-name`, placeholder: "bot spec, e.g. ismcts:iterations=500", value: spec.slice(4),
      oninput: (e) => { this.seats[i] = `bot:${e.target.value.trim()}`; } }) : null;
    const side = i % sidesN;
    const name = spec === "human" ? h("input.player-name", { id: `seat-${i}-player`, placeholder: `name (Player ${i + 1})`, maxlength: 40, value: this.names[i] || "",
      "aria-label": `name at seat ${i + 1}`, oninput: (e) => { this.names[i] = e.target.value; } }) : null;
    return h("li.seat-row", h("span.seat-badge", { class: ["side-a", "side-b", "side-c"][side % 3], title: `seat ${i + 1}, side ${side + 1}` }, `${i + 1}`), sel, name, custom);
  }

  async create(errEl) {
    errEl.hidden = true;
    const btn = this.root.querySelector("#create-table");
    btn.disabled = true;
    try {
      const seats = this.seats.map((s) => (s === "bot:" ? "bot" : s));
      const typed = seats.map((s, i) => (s === "human" ? (this.names[i] || "").trim() : ""));
      const extra = {};
      if (typed.some(Boolean)) {
        extra.names = seats.map((s, i) => typed[i] || (s === "human" ? `Player ${i + 1}` : s));
      }
      const r = await api.createTable(this.rulesValue(), seats, extra);
      const id = r.table_id ?? r.id;
      const humans = (r.seats || []).filter((s) => s.token);
      this.created = { table_id: id, rules: this.preset, seats: humans, kinds: seats };
      rememberTable({ table_id: id, rules: this.presets[this.preset]?.label ?? this.preset, seats: humans.map((s) => ({ seat: s.seat, token: s.token })), at: Date.now() });
      api.listTables("playing").then((t) => { this.openTables = Array.isArray(t) ? t : []; this.render(); }).catch(() => {});
      if (humans.length === 1) {  // one person against bots: straight to the table
        location.hash = `#/table/${encodeURIComponent(id)}?token=${encodeURIComponent(humans[0].token)}`;
        return;
      }
      this.render();
      this.root.querySelector("#created")?.scrollIntoView({ block: "start" });
    } catch (e) {
      errEl.hidden = false;
      errEl.textContent = `Could not create the table: ${e.message}`;
      btn.disabled = false;
    }
  }

  createdCard() {
    const c = this.created;
    if (!c) return null;
    const links = c.seats.map((s) => {
      const link = s.link ?? s.url ?? s.join_url ?? joinLink(c.table_id, s.token);
      const input = h("input.link", { readonly: true, value: link, onfocus: (e) => e.target.select(), "aria-label": `join link of seat ${s.seat + 1}` });
      return h("li.join-row", { dataset: { seat: s.seat } },
        h("span.seat-badge", `${s.seat + 1}`),
        input,
        h("button.btn.small", { type: "button", "aria-label": `copy the link of seat ${s.seat + 1}`, onclick: async () => { const ok = await copyText(link); toast(ok ? `Link of seat ${s.seat + 1} copied` : "Copy it by hand", ok ? "ok" : "info"); } }, "Copy"),
        h("a.btn.small.primary.join-seat", { href: `#/table/${encodeURIComponent(c.table_id)}?token=${encodeURIComponent(s.token)}`, id: `join-seat-${s.seat}` }, "Sit here"));
    });
    return h("section.card-panel#created",
      h("h2", "Table ", h("code#table-id", c.table_id), " is ready"),
      c.seats.length
        ? h("p.muted", "Each human seat has its own secret link: keep yours, send the others to your friends.")
        : h("p.muted", "Only bots at this table: watch them play."),
      h("ol.join-list", links),
      h("div.row.wrap",
        h("a.btn#watch-table", { href: `#/watch/${encodeURIComponent(c.table_id)}` }, "Watch as spectator"),
        h("button.btn.ghost", { type: "button", onclick: async () => { const ok = await copyText(watchLink(c.table_id)); toast(ok ? "Spectator link copied" : watchLink(c.table_id)); } }, "Copy spectator link")));
  }

  joinCard() {
    const input = h("input#table-ref", { placeholder: "table id or join link", "aria-label": "table id or join link" });
    const go = (mode) => {
      const ref = parseTableRef(input.value);
      if (!ref) { toast("Paste a table id or a join link", "err"); return; }
      if (mode === "join" && ref.token) location.hash = `#/table/${encodeURIComponent(ref.id)}?token=${encodeURIComponent(ref.token)}`;
      else if (mode === "replay") location.hash = `#/replay/${encodeURIComponent(ref.id)}`;
      else location.hash = `#/watch/${encodeURIComponent(ref.id)}`;
    };
    return h("section.card-panel",
      h("h2", "Join or watch"),
      h("div.row.wrap", input,
        h("button.btn.primary", { type: "button", onclick: () => go("join") }, "Join"),
        h("button.btn", { type: "button", onclick: () => go("watch") }, "Watch"),
        h("button.btn.ghost", { type: "button", onclick: () => go("replay") }, "Replay")),
      h("p.muted", "A join link carries the seat's secret token; without one you watch as a spectator."));
  }

  openCard() {
    const list = this.openTables.slice(0, 8);
    if (!list.length) return null;
    return h("section.card-panel",
      h("h2", "Tables in play"),
      h("ul.recent", list.map((t) => h("li",
        h("code", t.table_id), h("span.muted", ` ${this.rulesLabel(t.rules)} · hand ${t.hands ?? "?"}`),
        h("span.spacer"),
        h("a.btn.small.ghost", { href: watchHref(t) }, "watch")))));
  }

  /** A table's rules in a player's words: its preset's label, "with house rules" where changed. */
  rulesLabel(rules) {
    const name = typeof rules === "string" ? rules : rules?.preset || "";
    const label = this.presets?.[name]?.label ?? name;
    return typeof rules === "object" && rules && Object.keys(rules).length > 1 ? `${label}, house rules` : label;
  }

  /** This browser's games, newest first: the rules, when, the result once over, and the way
   * back to the seat or to the replay. */
  recentCard() {
    const list = recentTables();
    if (!list.length) return null;
    return h("section.card-panel#my-games",
      h("h2", "Your games"),
      h("ul.recent.games", list.map((t) => {
        const result = resultWords(t.result);
        const seat = (t.seats || [])[0];
        const when = t.at ? new Date(t.at).toLocaleDateString(undefined, { month: "short", day: "numeric" }) : "";
        return h("li", { dataset: { table: t.table_id } },
          h("span.game-what", h("b", t.rules || t.table_id), h("span.muted", ` · ${when}`)),
          h("span.game-result", { class: result?.startsWith("won") ? "won" : result?.startsWith("lost") ? "lost" : "" },
            result ?? (t.hand ? `in play, hand ${t.hand}` : "in play")),
          h("span.spacer"),
          !result && seat ? h("a.btn.small", { href: `#/table/${encodeURIComponent(t.table_id)}?token=${encodeURIComponent(seat.token)}` }, "Back to my seat") : null,
          h("a.btn.small.ghost", { href: `#/replay/${encodeURIComponent(t.table_id)}` }, "Replay"));
      })));
  }

  /** A first hand with a guide, for each family: a fixed deal against easy bots, and the page
   * says what to do at each step. */
  learnCard() {
    if (!this.presets) return null;
    const firsts = [];
    for (const p of Object.values(this.presets)) if (!firsts.some((x) => x.family === p.family)) firsts.push(p);
    return h("section.card-panel#learn",
      h("h2", "New to the game?"),
      h("p.muted", "Play a first hand with a guide that says what to do, step by step."),
      h("div.row.wrap", firsts.map((p) => h("button.btn.learn", { type: "button", dataset: { family: p.family }, onclick: () => this.learn(p) }, `Learn ${p.title}`))));
  }

  async learn(preset) {
    try {
      const seats = Array.from({ length: preset.players }, (_, i) => (i === 0 ? "human" : "bot:easy"));
      const r = await api.createTable(preset.name, seats, { seed: GUIDE_SEED, names: seats.map((s, i) => (i === 0 ? "You" : s)) });
      const token = r.seats[0].token;
      coachTable(r.table_id);
      rememberTable({ table_id: r.table_id, rules: `${preset.label} (guided)`, seats: [{ seat: 0, token }], at: Date.now() });
      location.hash = `#/table/${encodeURIComponent(r.table_id)}?token=${encodeURIComponent(token)}`;
    } catch (e) {
      toast(`Could not start the guided hand: ${e.message}`, "err");
    }
  }
}

const watchHref = (t) => `#/watch/${encodeURIComponent(t.table_id)}`;

function defaultSeats(n, bot) {
  return Array.from({ length: n }, (_, i) => (i === 0 ? "human" : bot));
}
