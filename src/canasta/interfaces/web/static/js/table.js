// The table: one seat's live view (or a spectator's), with every action of the turn.

import { api, ApiError, LiveView, viewOf } from "./api.js";
import {
  actionWords, backEl, canastaWord, canonical, cardEl, cardName, cardsInAction, imperative, isRed,
  scoreWords, isWild, moveWords, prettyCard, prettyText, rankLabel, rankOf, rankPlural, sortBySuit,
  sortCards,
} from "./cards.js";
import { add, clear, copyText, h, icon, toast } from "./dom.js";
import { rememberTable } from "./lobby.js";
import {
  actionLog, factsOf, gameOver, gameScores, handNumber, handOf, handSize, isBotSeat, lastAction,
  legalList, levelOf, livePoints, meldsOf, mySeat, pileFreeze, playerNames, scoreSheet, seatCount,
  seatInfo, sideCount, sideOf, stockSize, tableRules, versionOf, winner, yourTurn,
} from "./view.js";

const SIDE_COLORS = ["side-a", "side-b", "side-c"];
/** How long each move of another seat stays on screen before the next, by bot speed (ms). */
const SPEEDS = { slow: 1600, normal: 800, fast: 300, instant: 0 };
const SETTINGS_KEY = "canasta.settings";

/** The player's settings, kept in the browser: hand sort, bot speed, sounds. */
export function settings() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {}; } catch { saved = {}; }
  return { sort: "rank", speed: "normal", sound: true, ...saved };
}

function saveSettings(s) {
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(s)); } catch { /* private mode */ }
}

let audio = null;
/** A short tone (Web Audio): the turn, a refusal, a card played. */
function tone(freq, ms, gain = 0.05) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = freq;
    g.gain.value = gain;
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + ms / 1000);
  } catch { /* no audio here */ }
}
/** Where the seats sit from the viewer's (the bottom), in the order of play (to the left). */
const SPOTS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
  6: ["bottom", "left", "top-left", "top", "top-right", "right"],
};

export function mountTable(root, { tableId, token }) {
  const t = new TablePage(root, tableId, token);
  t.start();
  return () => t.stop();
}

class TablePage {
  constructor(root, tableId, token) {
    this.root = root;
    this.tableId = tableId;
    this.token = token || null;
    this.view = null;
    this.selected = [];      // selected hand cards (a multiset of card strings)
    this.staged = [];        // groups set aside for one meld/take action: [{cards, rank}]
    this.busy = false;
    this.error = null;       // the server's reason for the last refused move
    this.hint = null;
    this.resultDismissed = null;
    this.conn = "connecting";
    this.legalFilter = "";
    this.prefs = settings();
    this.queue = [];         // views of others' moves waiting their turn on screen
    this.paceTimer = null;
    this.undo = [];          // earlier selections, for Undo
    this.freshCards = [];    // cards that came into the hand since the player last acted
    this.seenHands = null;   // hands whose end-of-hand screen was shown (or was there on load)
    this.endShown = null;    // {hand, row} of an ended hand to show from the score sheet
    this.build();
  }

  start() {
    this._onResize = () => this.fitHand();
    window.addEventListener("resize", this._onResize);
    this._onKey = (e) => this.onKey(e);
    document.addEventListener("keydown", this._onKey);
    this.live = new LiveView(this.tableId, this.token, {
      onView: (v) => this.setView(v),
      onStatus: (s) => { this.conn = s; this.renderConn(); if (s === "live") this.reached(); },
      onMessage: (m) => this.onMessage(m),
    });
    this.live.start();
  }

  stop() {
    window.removeEventListener("resize", this._onResize);
    document.removeEventListener("keydown", this._onKey);
    clearTimeout(this.paceTimer);
    this.live?.stop();
  }

  // -- skeleton ----------------------------------------------------------------------------------

  build() {
    clear(this.root);
    this.el = {};
    const e = this.el;
    const tool = (id, name, label, onclick, extra = {}) => h(`button.btn.ghost.tool#${id}`, { type: "button", onclick, "aria-label": extra.aria || label, title: extra.title || null, ...extra.attrs }, icon(name), h("span.label", label));
    e.conn = h("span.conn", { title: "connection", role: "note" });
    e.title = h("span.table-title");
    e.hintBtn = tool("hint-btn", "bulb", "Hint", () => this.askHint(), { title: "What would the hint bot play, and why?" });
    e.replayLink = h("a.btn.ghost.tool#replay-link", { href: `#/replay/${encodeURIComponent(this.tableId)}`, hidden: true }, icon("play"), h("span.label", "Replay"));
    e.shareBtn = tool("share-btn", "share", "Share", () => this.share(), { title: "Copy the link of this table for spectators", aria: "copy the spectator link" });
    e.botBtn = tool("bot-for-me", "bot", "Bot", () => this.confirmBot(), { title: "a bot plays your seat until you take it back", aria: "let a bot play my seat", attrs: { hidden: true } });
    e.panelBtn = h("button.btn.ghost.tool#panel-btn", { type: "button", onclick: () => this.togglePanel(), title: "moves, score sheet, rules and settings", "aria-expanded": "false", "aria-controls": "aside", "aria-label": "moves and score", dataset: { role: "panel-toggle" } }, h("span.icon-text", { "aria-hidden": "true" }, "☰"), h("span.label", "Moves"));
    e.skip = h("a.skip-link#skip-to-hand", { href: "#", onclick: (ev) => { ev.preventDefault(); this.keyHand(); } }, "Go to your cards (C) · keys: ?");
    e.top = h("header.topbar", e.skip,
      h("a.brand", { href: "#/", "aria-label": "Canasta: back to the lobby" }, h("span.brand-suit", { "aria-hidden": "true" }, "♦"), h("span.brand-word", "Canasta")),
      e.title, h("span.spacer"), e.conn, e.shareBtn, e.replayLink, e.botBtn, e.hintBtn, e.panelBtn);
    // where the page says what to do, and why a move was refused: one place, above the hand
    e.statusText = h("div.status-text#status-text");
    e.message = h("div.message#move-error", { role: "alert", hidden: true });
    e.hintBox = h("div.hint#hint", { hidden: true });
    e.selInfo = h("div.sel-info#sel-info");
    e.status = h("div.status-line#status", { role: "status", "aria-live": "polite", dataset: { role: "status" } }, e.statusText, e.message, e.hintBox, e.selInfo);
    // the felt: seats around the table from this seat, each side's melds by that side, the
    // stock and the pile in the middle
    e.seats = h("div.seats#players");
    e.others = h("div.side-area.others", { tabindex: "0", role: "region", "aria-label": "the other sides' melds" });
    e.center = h("section.center#center", { "aria-label": "stock and discard pile" });
    e.mine = h("div.side-area.ours", { tabindex: "0", role: "region", "aria-label": "your side's melds" });
    e.felt = h("main.felt", e.seats, e.others, e.center, e.mine);
    this.coached = coachedTables().includes(this.tableId);
    e.prompt = h("div.prompt#prompt", { hidden: true });
    e.staging = h("div.staging#staging");
    e.hand = h("div.hand#hand", { "data-role": "hand", role: "group", "aria-label": "your hand" });
    e.actions = h("div.actions#actions", { "data-role": "actions" });
    e.coach = h("div.coach#coach", { hidden: true, role: "note", "aria-live": "polite" });
    e.handZone = h("section.hand-zone#hand-zone", e.coach, e.status, e.prompt, e.staging,
      h("div.hand-wrap", e.hand), e.actions);
    e.round = h("section.panel.round#round");
    e.legal = h("section.panel.legal#legal");
    e.sheet = h("section.panel.sheet#score-sheet");
    e.logBox = h("section.panel.log#log");
    e.rulesBox = h("section.panel.table-rules#table-rules");
    e.settingsBox = h("section.panel.settings#settings");
    e.panelClose = h("button.btn.close-panel#panel-close", { type: "button", onclick: () => this.togglePanel(false), "aria-label": "close the panel" }, "×", h("span.label", "Close"));
    e.aside = h("aside.aside#aside", { dataset: { role: "panel" }, "aria-label": "moves, score sheet, rules and settings" },
      h("div.panel-top", h("h2", "Table"), e.panelClose), e.round,
      e.chatBox = h("section.panel.chat#chat", { "aria-label": "table talk" }),
      e.sheet, e.rulesBox, e.settingsBox, e.logBox, e.legal);
    e.backdrop = h("div.backdrop#backdrop", { onclick: () => this.togglePanel(false), hidden: true });
    e.result = h("div.overlay#result", { hidden: true });
    e.confirm = h("div.overlay#confirm", { hidden: true });
    add(this.root, h("div.table-page", e.top,
      h("div.layout", h("div.main-col", e.felt, e.handZone), e.backdrop, e.aside), e.result, e.confirm));
    this.setupDrop(e.staging, (cards) => this.stageCards(cards));
    this.renderConn();
    this.renderSettings();
  }

  togglePanel(open) {
    const on = open ?? !this.el.aside.classList.contains("open");
    this.el.aside.classList.toggle("open", on);
    this.el.backdrop.hidden = !on;
    this.el.panelBtn.setAttribute("aria-expanded", on ? "true" : "false");
    this.el.panelBtn.classList.toggle("on", on);
    if (on) this.el.panelClose.focus({ preventScroll: true });
  }

  onKey(e) {
    if (e.key === "Escape") {
      if (!this.el.confirm.hidden) { this.closeConfirm(); e.preventDefault(); return; }
      if (this.el.aside.classList.contains("open")) { this.togglePanel(false); this.el.panelBtn.focus(); e.preventDefault(); return; }
      if (this.selected.length || this.staged.length) { this.pushUndo(); this.selected = []; this.staged = []; this.render(); }
      return;
    }
    if (e.target.closest?.("input, select, textarea") || e.ctrlKey || e.metaKey || e.altKey) return;
    if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && e.target.closest?.("[data-role=hand]")) {
      const cards = [...this.el.hand.querySelectorAll(".card")];
      const i = cards.indexOf(e.target.closest(".card"));
      cards[Math.max(0, Math.min(cards.length - 1, i + (e.key === "ArrowRight" ? 1 : -1)))]?.focus();
      e.preventDefault();
      return;
    }
    const act = KEYS[e.key.toLowerCase()];
    if (!act || !this.view) return;
    e.preventDefault();
    this[act.run]();
  }

  /** The keys' moves (see KEYS): each does what its button does, with its reason if it cannot. */
  keyDraw() { if (this.can("draw")) this.play("draw"); else this.refuse(this.myTurn ? "You cannot draw now." : this.waitWords()); }
  keyTake() { this.takePile(); }
  keyMeld() { const why = this.myTurn ? this.meldProblem() : this.waitWords(); if (why) this.refuse(why); else this.play(this.meldText()); }
  keyDiscard() {
    const why = this.selected.length === 1 ? this.discardProblem(this.selected[0]) : "Select the one card to discard, then press X.";
    if (why) this.refuse(why); else this.play(`discard ${this.selected[0]}`);
  }
  keyHint() { this.askHint(); }
  keyUndo() { if (this.undo.length) this.undoSelection(); else this.refuse("Nothing to undo."); }
  keyHelp() { this.showKeys(); }
  keyHand() { this.el.hand.querySelector(".card")?.focus(); }

  waitWords() {
    const v = this.view;
    return v.phase === "over" ? "The hand is over." : `Wait for your turn: ${this.name(v.to_move)} ${v.to_move === this.seat ? "are" : "is"} playing.`;
  }

  /** The keys, listed (the "?" key, and the Keys button of the panel). */
  showKeys() {
    const el = clear(this.el.confirm);
    el.hidden = false;
    const close = h("button.btn.primary#keys-close", { type: "button", onclick: () => this.closeConfirm() }, "Close");
    add(el, h("div.result-card.confirm-card#keys-help", { role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-title" },
      h("h2#keys-title", "Keys"),
      h("table.keys-table", h("tbody", KEY_LIST.map(([k, what]) => h("tr", h("th", { scope: "row" }, h("kbd", k)), h("td", what))))),
      h("div.result-actions", close)));
    close.focus();
  }

  /** Asks before a bot takes the seat: the player keeps it unless they say so. */
  confirmBot() {
    const el = clear(this.el.confirm);
    el.hidden = false;
    const yes = h("button.btn.primary#confirm-bot-yes", { type: "button", onclick: () => { this.closeConfirm(); this.setBot(true); } }, "Let a bot play for me");
    add(el, h("div.result-card.confirm-card", { role: "dialog", "aria-modal": "true", "aria-labelledby": "confirm-title" },
      h("h2#confirm-title", "Let a bot play your seat?"),
      h("p", "A bot plays your cards until you take the seat back. You still see the end of each hand."),
      h("div.result-actions", yes, h("button.btn#confirm-bot-no", { type: "button", onclick: () => this.closeConfirm() }, "Keep playing"))));
    yes.focus();
  }

  closeConfirm() {
    this.el.confirm.hidden = true;
    clear(this.el.confirm);
  }

  renderSettings() {
    const el = clear(this.el.settingsBox);
    const p = this.prefs;
    const set = (k, v) => { this.prefs[k] = v; saveSettings(this.prefs); this.render(); };
    const choice = (id, label, key, options) => h("label.setting", { for: id }, h("span", label),
      h("select", { id, onchange: (ev) => set(key, ev.target.value) },
        options.map(([v, text]) => h("option", { value: v, selected: p[key] === v }, text))));
    add(el, h("div.panel-head", h("h3", "Settings")),
      choice("sort-mode", "Sort my hand", "sort", [["rank", "by rank"], ["suit", "by suit"]]),
      choice("bot-speed", "Bot speed", "speed", [["slow", "slow"], ["normal", "normal"], ["fast", "fast"], ["instant", "instant"]]),
      h("label.setting.check", { for: "sound-on" }, h("input#sound-on", { type: "checkbox", checked: !!p.sound, onchange: (ev) => set("sound", ev.target.checked) }), h("span", "Sounds")));
  }

  sound(kind) {
    if (!this.prefs.sound) return;
    if (kind === "turn") { tone(660, 90); setTimeout(() => tone(880, 110), 110); }
    else if (kind === "refused") tone(220, 160, 0.06);
    else tone(520, 40, 0.025);
  }

  /** The link does not open a table: a wrong token or no such table. */
  renderRefused(status, text) {
    if (this.refusedShown) return;
    this.refusedShown = true;
    this.live?.stop();
    const what = status === 404 ? "There is no such table." : status === 403 ? "This link's seat token is not valid for this table." : text;
    add(clear(this.el.status), h("strong", "Cannot open the table. "), what || "");
    this.el.status.className = "status-line error";
    add(clear(this.el.handZone), h("div.refused#refused", h("p", text || what),
      h("div.row", h("a.btn.primary", { href: "#/" }, "Back to the lobby"),
        status === 403 ? h("a.btn", { href: `#/watch/${encodeURIComponent(this.tableId)}` }, "Watch instead") : null)));
  }

  renderConn() {
    const labels = { live: "live", connecting: "connecting…", reconnecting: "reconnecting…", polling: "offline — polling" };
    this.el.conn.textContent = labels[this.conn] || this.conn;
    this.el.conn.className = `conn ${this.conn}`;
  }

  onMessage(m) {
    if (!this.view && m && (m.status === 403 || m.status === 404 || m.status === 422)) {
      this.renderRefused(m.status, m.error);
      return;
    }
    if (m && (m.error || m.message) && m.type !== "info") {
      // a server out of reach is said once; the next view (or the socket live again) clears it
      const connection = m.status === 0 || m.status === 502 || m.status === 503;
      this.showError(connection ? "Cannot reach the server: trying again…" : m.error || m.message);
      this.errorKind = connection ? "connection" : null;
    }
  }

  /** The server is reachable again: a refusal that said it was not goes. */
  reached() {
    if (this.errorKind !== "connection") return;
    this.error = null;
    this.errorKind = null;
    this.renderMessage();
  }

  // -- state -------------------------------------------------------------------------------------

  /**
   * A view from the server. Views that another seat's move brought wait their turn, so each
   * move stays on screen for the bot speed chosen; the reply to the player's own move, and
   * the player's turn, show at once.
   */
  setView(v, own = false) {
    if (!v || typeof v !== "object" || !("phase" in v)) return;
    const step = SPEEDS[this.prefs.speed] ?? SPEEDS.normal;
    if (own || !this.view || step === 0) {
      this.queue = [];
      clearTimeout(this.paceTimer);
      this.paceTimer = null;
      this.applyView(v);
      return;
    }
    this.queue.push(v);
    if (this.queue.length > 24) this.queue.splice(0, this.queue.length - 24);
    if (!this.paceTimer) this.pump();
  }

  pump() {
    const v = this.queue.shift();
    this.paceTimer = null;
    if (!v) return;
    const moved = this.applyView(v);
    if (this.queue.length) {
      const step = SPEEDS[this.prefs.speed] ?? SPEEDS.normal;
      this.paceTimer = setTimeout(() => this.pump(), moved ? step : 0);
    }
  }

  /** Shows a view; returns whether another seat's move came with it. */
  applyView(v) {
    this.reached();
    const old = this.view;
    const ov = old ? versionOf(old) : null;
    const nv = versionOf(v);
    if (ov !== null && nv !== null && nv < ov) return false;  // an older view arriving late
    if (old && JSON.stringify(old) === JSON.stringify(v)) return false;
    this.view = v;
    // what just arrived, for the short animations (they never hold up the page)
    this.justDrew = !!old && stockSize(v) < stockSize(old);
    const before = old ? [...(handOf(old, mySeat(old)) || [])] : null;
    const fresh = before ? (handOf(v, mySeat(v)) || []).filter((c) => {
      const i = before.indexOf(c);
      if (i < 0) return true;
      before.splice(i, 1);
      return false;
    }) : [];
    if (fresh.length) this.freshCards = handNumber(v) === handNumber(old) ? [...this.freshCards, ...fresh] : [];
    if (old && handNumber(old) !== handNumber(v)) this.freshCards = [];
    const la = lastAction(v);
    const moved = !!old && !!la && la.seat !== this.seat && JSON.stringify(la) !== JSON.stringify(lastAction(old));
    this.mover = moved ? la.seat : null;
    this.keepSelectionValid();
    if (old && (old.to_move !== v.to_move || old.phase !== v.phase)) this.hint = null;
    const wasMine = this.myTurnOf(old);
    this.noteEndedHands(v);
    this.render();
    if (!wasMine && this.myTurn) this.sound("turn");
    else if (moved) this.sound("move");
    return moved;
  }

  myTurnOf(v) {
    return !!v && mySeat(v) !== null && v.phase !== "over" && yourTurn(v);
  }

  /** The score sheet's hands whose end-of-hand screen the player has not seen: the next one to
   * show, even when the next hand was dealt at once (a bot plays the seat, or nobody waits). */
  noteEndedHands(v) {
    const rows = scoreSheet(v);
    if (this.seenHands === null) {  // on load: the hands ended before are not news
      this.seenHands = new Set(rows.map((r) => r.hand));
      if (v.phase === "over") this.seenHands.delete(rows[rows.length - 1]?.hand);
      return;
    }
    for (const r of rows) {
      if (this.seenHands.has(r.hand)) continue;
      if (v.phase === "over" && r === rows[rows.length - 1] && handNumber(v) === r.hand) continue;  // shown from the view
      if (!this.endShown) this.endShown = { hand: r.hand, row: r };
    }
  }

  get seat() { return this.view ? mySeat(this.view) : null; }
  get myTurn() { return !!this.view && this.seat !== null && this.view.phase !== "over" && yourTurn(this.view); }
  get mySide() { return this.seat === null ? null : sideOf(this.view, this.seat); }
  get myHand() { return this.view && this.seat !== null ? handOf(this.view, this.seat) || [] : []; }

  /** The hand without the staged cards. */
  freeHand() {
    const rest = [...this.myHand];
    for (const g of this.staged) for (const c of g.cards) {
      const i = rest.indexOf(c);
      if (i >= 0) rest.splice(i, 1);
    }
    return rest;
  }

  keepSelectionValid() {
    const hand = [...this.myHand];
    const keptStaged = [];
    for (const g of this.staged) {
      const ok = g.cards.every((c) => { const i = hand.indexOf(c); if (i < 0) return false; hand.splice(i, 1); return true; });
      if (ok) keptStaged.push(g);
    }
    this.staged = this.myTurn ? keptStaged : [];
    const sel = [];
    for (const c of this.selected) {
      const i = hand.indexOf(c);
      if (i >= 0) { hand.splice(i, 1); sel.push(c); }
    }
    this.selected = sel;
  }

  // -- narration ---------------------------------------------------------------------------------

  name(seat) {
    if (seat === null || seat === undefined) return "?";
    if (seat === this.seat) return "You";
    return playerNames(this.view)[seat];
  }

  // -- rendering ---------------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    const rules = tableRules(v);
    this.rules = rules;
    this.el.title.textContent = `Table ${this.tableId} · ${rules.label ?? ""}${rules.custom ? " · house rules" : ""} · hand ${handNumber(v)}` +
      (this.seat === null ? " · watching" : "");
    this.el.replayLink.hidden = !gameOver(v);
    this.el.hintBtn.hidden = this.seat === null;
    this.el.hintBtn.setAttribute("aria-disabled", this.myTurn ? "false" : "true");
    this.el.hintBtn.classList.toggle("off", !this.myTurn);
    const meInfo = this.seat !== null ? seatInfo(v, this.seat) : null;
    this.el.botBtn.hidden = !meInfo || meInfo.controller !== "human" || gameOver(v);
    this.renderStatus();
    this.renderSeats();
    this.renderSides();
    this.renderCenter();
    this.renderPrompt();
    this.renderMessage();
    this.renderHint();
    this.renderHand();
    this.renderActions();
    this.renderRound();
    this.renderLegal();
    this.renderSheet();
    this.renderRulesBox();
    this.renderLog();
    this.renderChat();
    this.renderCoach();
    this.renderResult();
    this.rememberGame();
    document.title = this.myTurn ? "● Your turn — Canasta" : "Canasta";
  }

  renderStatus() {
    const v = this.view;
    const el = clear(this.el.statusText);
    const box = this.el.status;
    box.className = "status-line";
    const me = this.seat !== null ? seatInfo(v, this.seat) : null;
    if (me && me.controller === "bot" && !gameOver(v)) {
      add(el, h("span.badge.botseat", "A bot is playing your seat"), " ",
        h("button.btn.small#claim-seat", { type: "button", onclick: () => this.setBot(false) }, "Take my seat back"));
    }
    if (v.phase === "over") {
      const win = winner(v);
      add(el, gameOver(v) ? `Game over${win !== null ? ` — ${this.winWords(win)}` : ""}.` : "The hand is over.");
      if (gameOver(v)) {
        add(el, " ", h("button.btn.small#rematch-status", { type: "button", onclick: () => this.rematch() },
          v.rematch ? (this.seat !== null ? "Join the rematch" : "Watch the rematch") : "Play again"));
      }
      if (!gameOver(v) && v.next_hand === "auto") add(el, " The next hand is dealt by itself.");
      box.classList.add("over");
      return;
    }
    const mover = v.to_move;
    if (this.myTurn) {
      box.classList.add("mine");
      const own = this.ownMoves();
      const what = own.length && own.length === (this.legal() || []).length
        ? `choose: ${own.map((a) => this.ownWords(a)).join(", or ")}`
        : {
          draw: this.can("take") ? "tap the stock to draw, or take the pile" : "tap the stock to draw",
          play: "meld if you can, then discard one card (tap it twice)",
          answer: "your partner asks whether they may go out",
        }[v.phase] || "choose a move";
      add(el, h("strong", "Your turn"), ` — ${what}.`);
      if (v.phase === "play" && v.answer) {
        add(el, " ", h("span.badge", v.answer === "yes" ? "Partner said yes: go out this turn" : "Partner said no: you may not go out"));
      }
    } else if ((v.waiting_for || []).length && seatInfo(v, mover)?.controller === "bot") {
      const names = v.waiting_for.map((s) => this.name(s));
      add(el, h("span.spinner", { "aria-hidden": "true" }),
        ` Waiting for ${names.join(" and ")} to sit down: the bots start then.`);
    } else {
      add(el, h("span.spinner", { "aria-hidden": "true" }),
        ` ${this.name(mover)} ${mover === this.seat ? "are" : "is"} to ${v.phase === "answer" ? "answer" : "play"}`,
        v.phase === "answer" ? " (asked: may I go out?)" : "", "…");
    }
  }

  /** The legal moves of the family's own verbs (keeping a three, laying a special hand): the
   * view names them (legal_words), the page shows them as buttons. */
  ownMoves() {
    const words = this.view?.legal_words || {};
    return (this.legal() || []).filter((a) => a in words);
  }

  /** A move of the family's own, as a button says it: "Keep 3♦ in hand". */
  ownWords(action) {
    const words = prettyText(this.view?.legal_words?.[action] ?? action);
    return imperative(words);
  }

  /** How long the game lasts, after the word "game" (the facts' game_end): "to 5000",
   * "of 4 hands". */
  gameLength() {
    const v = this.view;
    const end = factsOf(v).game_end ?? { target: v.target ?? this.rules.target_score, deals: null };
    const parts = [];
    if (end.deals) parts.push(`of ${end.deals} hands`);
    if (end.target !== null && end.target !== undefined) parts.push(`to ${end.target}`);
    return parts.join(" or ") || "without end";
  }

  /** ``n`` completed melds in the family's word ("canastas", "books"): the table rules', else
   * the facts'. */
  canastaName(n) {
    return canastaWord(this.rules?.canasta_name ?? factsOf(this.view ?? {}).canasta_name, n);
  }

  /** The cards a side lays beside its melds, in words ("red three", "threes"). */
  laidName(n) {
    const names = this.view?.facts?.laid_name || ["card laid", "cards laid"];
    return n === 1 ? names[0] : names[1];
  }

  /** How a hand ended (the facts' ending): "Noor goes out.", "You go out.", or its sentence. */
  endingWords(ending) {
    const words = prettyText(ending.words || "");
    if (ending.seat === null || ending.seat === undefined) return words.endsWith(".") ? words : `${words}.`;
    const you = ending.seat === this.seat;
    const said = you ? imperative(words).replace(/^./, (c) => c.toLowerCase()) : words;
    return `${this.name(ending.seat)} ${said}.`;
  }

  /** "Your side wins", "Noor and Hugo win", "Noor wins". */
  winWords(side) {
    if (this.mySide === side) return "your side wins";
    const v = this.view;
    const seats = [...Array(seatCount(v)).keys()].filter((s) => sideOf(v, s) === side);
    const names = playerNames(v);
    return seats.length > 1 ? `${seats.slice(0, -1).map((s) => names[s]).join(", ")} and ${names[seats[seats.length - 1]]} win` : `${names[seats[0]]} wins`;
  }

  sideName(side) {
    const v = this.view;
    const n = seatCount(v);
    const seats = [];
    for (let s = 0; s < n; s++) if (sideOf(v, s) === side) seats.push(s);
    if (this.mySide === side) return "Your side";
    const names = playerNames(v);
    return seats.length > 1 ? `${seats.slice(0, -1).map((s) => names[s]).join(", ")} and ${names[seats[seats.length - 1]]}` : names[seats[0]];
  }

  sideShort(side) {
    const v = this.view;
    if (this.mySide === side) return "Us";
    if (this.mySide !== null && sideCount(v) === 2) return "Them";
    if (seatCount(v) === sideCount(v)) return playerNames(v)[side];
    const seats = [...Array(seatCount(v)).keys()].filter((s) => sideOf(v, s) === side);
    return `Seats ${seats.map((x) => x + 1).join(" and ")}`;
  }

  /** Where each seat sits on the screen, from this seat (the bottom): play goes to the left. */
  spots() {
    const v = this.view;
    const n = seatCount(v);
    const me = this.seat ?? 0;
    const layout = SPOTS[n] || ["bottom", ...Array.from({ length: n - 1 }, () => "top")];
    return [...Array(n).keys()].map((k) => ({ seat: (me + k) % n, spot: layout[k] }));
  }

  renderSeats() {
    const v = this.view;
    const el = clear(this.el.seats);
    el.dataset.players = `${seatCount(v)}`;
    const last = lastAction(v);
    for (const { seat, spot } of this.spots()) {
      if (spot === "bottom") continue;  // this seat's plate sits with its side's melds
      add(el, this.plateEl(seat, spot, last));
    }
  }

  plateEl(s, spot, last) {
    const v = this.view;
    const names = playerNames(v);
    const side = sideOf(v, s);
    const count = handSize(v, s);
    // the name on the first line, whole; the partner's mark beside it; the level, the dealer
    // and the cards known to be held on the second line, by the count of cards. On a phone the words give way to marks (a meter
    // for the level), the words kept for screen readers and in the plate's name.
    const partner = s !== this.seat && this.seat !== null && side === this.mySide;
    const level = levelOf(v, s);
    const bot = level || (isBotSeat(v, s) ? "bot" : null);
    const dealer = v.dealer === s;
    const info = seatInfo(v, s);
    const online = info && info.controller === "human" && s !== this.seat
      ? h("span.online", { class: info.connected ? "on" : "", title: info.connected ? "connected" : "not connected" }) : null;
    const heldKnown = factsOf(v).known?.[s] ?? v.known?.[s];
    // the family's few words by the seat's cards (a foot that waits, "in the foot")
    const note = factsOf(v).seat_notes?.[s] || "";
    const known = Array.isArray(heldKnown) && heldKnown.length && s !== this.seat
      ? h("span.known", { title: `known to hold (taken with the pile): ${heldKnown.map(prettyCard).join(" ")}` }, "holds ",
        heldKnown.slice(0, 6).map(prettyCard).join(" "), heldKnown.length > 6 ? ` +${heldKnown.length - 6}` : "")
      : null;
    const said = last && last.seat === s && v.phase !== "over"
      ? h("div.said", { title: "the last move" }, saidWords(last, s === this.seat)) : null;
    const toMove = v.to_move === s && v.phase !== "over";
    const who = s === this.seat ? "you" : names[s];
    const label = [who, partner ? "your partner" : null, bot ? (level ? `a ${level} bot` : "a bot") : null,
      dealer ? "the dealer" : null, `${count} card${count === 1 ? "" : "s"}`, note || null, toMove ? "to play" : null].filter(Boolean).join(", ");
    return h(`div.seat.${SIDE_COLORS[side % 3]}`, {
      class: `spot-${spot}` + (toMove ? " to-move" : "") + (s === this.seat ? " me" : ""),
      dataset: { seat: s, role: "seat", spot },
      "aria-label": label,
    },
    h("div.seat-name", h("span.seat-who", s === this.seat ? "You" : names[s]),
      partner ? h("span.tag.partner", { title: "your partner" }, icon("partner", "tag-mark"), h("span.tag-word", "partner")) : null, online),
    h("div.seat-count", h("span.mini-back"), h("b", `${count}`),
      bot ? h("span.tag.bot", { title: level ? `a bot at level ${level} plays the seat` : "a bot plays the seat", dataset: { level: bot } },
        level in LEVEL_BARS ? levelMeter(LEVEL_BARS[level]) : icon("bot", "tag-mark"), h("span.tag-word", bot)) : null,
      dealer ? h("span.tag.dealer", { title: "dealer" }, "D") : null,
      note ? h("span.tag.seat-note", { title: note }, note) : null,
      toMove ? h("span.turn-chip", "to play") : null, known),
    said);
  }

  renderSides() {
    const v = this.view;
    const others = clear(this.el.others);
    const mine = clear(this.el.mine);
    const k = sideCount(v);
    const me = this.mySide ?? 0;
    const order = this.spots().map((x) => sideOf(v, x.seat)).filter((x, i, a) => a.indexOf(x) === i);
    others.dataset.sides = `${k - 1}`;
    this.el.felt.dataset.sides = `${k}`;
    for (const i of order) if (i !== me) add(others, this.sideEl(i));
    add(mine, this.sideEl(me));  // a spectator sees seat 0's side here
  }

  /** The melds ``side`` plays on (the facts' melds, in table order): [{key, cards, canasta, hidden}]. */
  sideMelds(i) {
    const v = this.view;
    const seat = [...Array(seatCount(v)).keys()].find((s) => sideOf(v, s) === i) ?? i;
    const stated = factsOf(v).melds?.[meldsOf(v, seat)];
    if (stated) return this.inLaidOrder(i, stated);
    // a family that states no melds: the position's own, by key, in the facts' key order
    const keys = factsOf(v).meld_keys || [];
    const own = v.sides?.[i]?.melds || {};
    return this.inLaidOrder(i, Object.keys(own).sort((a, b) => keys.indexOf(a) - keys.indexOf(b)).map((key) => ({
      key, cards: own[key], canasta: own[key].length >= (factsOf(v).canasta_size ?? Infinity) ? "complete" : null, hidden: false,
    })));
  }

  /** ``melds`` in the order this page first saw them this hand: a new meld goes at the end,
   * so the melds a player is tapping stay where they are (the table's own order at a reload). */
  inLaidOrder(side, melds) {
    const hand = `${this.tableId}:${this.view.hand_number}`;
    if (this.meldOrderHand !== hand) { this.meldOrder = {}; this.meldOrderHand = hand; }
    if (!melds.length) this.meldOrder[side] = [];  // a new hand (or a rematch's) starts bare
    const seen = (this.meldOrder[side] ??= []);
    for (const m of melds) if (!seen.includes(m.key)) seen.push(m.key);
    return [...melds].sort((a, b) => seen.indexOf(a.key) - seen.indexOf(b.key));
  }

  /** A meld's cards in words: "kings", "wild cards" (the facts' meld_names). */
  meldName(key) {
    return factsOf(this.view).meld_names?.[key] ?? rankPlural(key);
  }

  sideEl(i) {
    const v = this.view;
    const f = factsOf(v);
    const melds = this.sideMelds(i);
    const mine = this.mySide === i;
    const live = livePoints(v, i);
    const score = gameScores(v)[i] ?? v.sides?.[i]?.score ?? 0;
    const points = [];
    const parts = [];  // the total's make-up (the total's title says it where a phone hides it)
    // closed canastas on a shelf say their count and bonus under it (see shelfEl)
    const closed = melds.filter((m) => m.canasta && !m.hidden);
    const shelved = closed.length >= SHELF_AT;
    const canastas = live?.canastaCount ?? 0;
    const canastaWords = canastas ? `${canastas} ${this.canastaName(canastas)} +${live.canastas}` : null;
    if (live && live.opened) {
      parts.push(h("span.live-part", `melds ${live.melds}`));
      if (canastas && !shelved) parts.push(h("span.live-part.canasta-count", canastaWords));
    } else if (live && live.minimum) {
      points.push(h("span.badge.opening", { title: "the points this side's first meld needs" }, `opening needs ${live.minimum}`));
    }
    // the laid cards' points are written under them; a family's further parts (penalties...)
    // are in the total's title: the line stays one line
    const laidWords = live && live.laid ? `${this.laidName(2)} ${fmtSigned(live.laid)}` : null;
    const more = [shelved ? canastaWords : null, laidWords,
      live && live.penalties ? `penalties ${fmtSigned(live.penalties)}` : null].filter(Boolean);
    if (live && live.opened) {
      points.unshift(h("span.live-total", { title: `on the table this hand: ${[...parts.map((x) => x.textContent), ...more].join(", ")}` }, fmtSigned(live.total)));
    }
    points.push(...parts);
    // the seat at the bottom of the screen (a spectator's: seat 0) has its plate with its side
    const bottom = this.seat ?? 0;
    const plate = i === sideOf(v, bottom) ? this.plateEl(bottom, "bottom", lastAction(v)) : null;
    const hidden = melds.filter((m) => m.hidden);
    const header = h("div.side-head", plate,
      h("span.side-name", this.sideName(i)),
      h("span.side-score", { title: "the game score, ended hands counted" }, `score ${score}`),
      h("span.live", { dataset: { side: i } }, points),
      hidden.length ? h("span.badge", `hidden: ${hidden.map((m) => this.meldName(m.key)).join(", ")}`) : null);
    const laid = f.laid?.[i] ?? [];
    const reds = laid.length
      ? h("div.laid-group", h("div.red-threes.laid", { title: this.laidName(laid.length), "aria-label": `${this.laidName(laid.length)} laid: ${laid.map(cardName).join(", ")}` },
        laid.map((c) => cardEl(c, { cls: "small" }))), laidWords ? h("div.meld-label.laid-points", fmtSigned(live.laid)) : null) : null;
    const row = h("div.meld-row", { class: melds.length ? "" : "empty" });
    if (!melds.length) add(row, h("div.empty-melds", mine ? "No melds yet: select cards, then Meld." : "No melds yet."));
    // several closed canastas stand on one shelf, each a card's strip wide (a family with
    // many books of seven, several of one rank, keeps its table on the screen)
    if (shelved) add(row, this.shelfEl(closed, mine, live && live.canastas ? live.canastas : 0));
    for (const m of melds) if (!shelved || !closed.includes(m)) add(row, this.meldEl(m, mine));
    return h(`section.side.${SIDE_COLORS[i % 3]}`, { class: mine ? "mine" : "", dataset: { side: i } },
      header, h("div.side-body", reds, row));
  }

  /** A side's closed canastas on one shelf: each its top card (ringed by its kind), a strip
   * of the next, and under them how many of each kind and their bonus ("3 natural · 2 mixed ·
   * +2100"). */
  shelfEl(closed, mine, bonus) {
    const kinds = {};
    for (const m of closed) kinds[m.canasta] = (kinds[m.canasta] ?? 0) + 1;
    const counts = Object.entries(kinds).map(([kind, n]) => `${n} ${kind}`).join(" · ") + (bonus ? ` · +${bonus}` : "");
    const names = closed.map((m) => `${m.canasta} ${this.meldName(m.key)}`).join(", ");
    const said = `${closed.length} ${this.canastaName(closed.length)}: ${names}`;
    return h("div.canasta-shelf", { title: said, "aria-label": said },
      h("div.shelf-fan", closed.map((m) => this.meldEl(m, mine, true))),
      h("div.canasta-badge.shelf-count", counts));
  }

  meldEl(meld, mine, shelved = false) {
    const { key, cards, canasta } = meld;
    const naturals = cards.filter((c) => !isWild(c));
    const wilds = cards.filter((c) => isWild(c));
    const ordered = [...sortCards(naturals), ...sortCards(wilds)];
    const name = this.meldName(key);
    let el;
    if (canasta) {
      // A closed canasta is squared up: a red card on top when natural, a black one when mixed.
      const topCard = naturals.length
        ? (canasta === "natural" ? (naturals.find(isRed) || naturals[0]) : (naturals.find((c) => !isRed(c)) || naturals[0]))
        : (wilds.find((c) => c !== "JK") || ordered[0]);
      const title = `${canasta} ${this.canastaName(1)} of ${name}: ${ordered.map(prettyCard).join(" ")}`;
      el = shelved ? h("div.meld.canasta.shelved", { class: canasta, title }, cardEl(topCard, { cls: "small" }))
        : h("div.meld.canasta", { class: canasta, title },
          h("div.stack", h("div.stack-shadow"), h("div.stack-shadow"), cardEl(topCard, { cls: "small" })),
          h("div.canasta-badge", canasta, h("b", ` ${cards.length}`)));
    } else {
      el = h("div.meld", { title: `${name}: ${ordered.map(prettyCard).join(" ")}` },
        h("div.fan", { style: { gridTemplateColumns: fanColumns(ordered.length) } }, ordered.map((c) => cardEl(c, { cls: "small" }))),
        h("div.meld-label", h("span.label-rank", `${keyLabel(key, name)} · `), `${cards.length}${wilds.length && naturals.length ? ` (${wilds.length}★)` : ""}`));
    }
    el.dataset.rank = key;
    if (mine && this.myTurn) {
      el.classList.add("target");
      keyButton(el, () => this.meldOnto(key), `your ${name}: ${cards.length} cards; add the selected cards`);
      this.setupDrop(el, (c) => { this.selected = c; this.meldOnto(key); });
    }
    return el;
  }

  renderCenter() {
    const v = this.view;
    const el = clear(this.el.center);
    const stockN = stockSize(v);
    const stock = h("div.stock#stock", { title: `stock: ${stockN} cards`, class: this.can("draw") ? "clickable" : "", dataset: { role: "stock" } },
      h("div.stack", stockN > 2 ? h("div.stack-shadow") : null, stockN > 1 ? h("div.stack-shadow") : null,
        stockN ? backEl(this.justDrew ? "arrive" : "") : h("div.card.empty-slot", "empty")),
      h("div.pile-label", h("b", `${stockN}`), " in stock"));
    const drawNow = () => {
      if (this.can("draw")) this.play("draw");
      else if (this.seat !== null) this.refuse(this.myTurn ? (this.view.phase === "play" ? "You have already drawn this turn." : "You cannot draw now.") : `Wait for your turn: ${this.name(v.to_move)} is playing.`);
    };
    keyButton(stock, drawNow, `stock: ${stockN} cards${this.can("draw") ? ", draw" : ""}`);
    const pile = v.pile || [];
    const top = pile[pile.length - 1];
    // the server says whether, why and by which card the pile is frozen for this seat
    const freeze = pileFreeze(v);
    // frozen by a card in it (for everyone), or for this seat's side only (soft)
    const frozenAll = freeze.frozen && !!freeze.card;
    // the card that froze it lies under the pile: show it beside the pile
    const freezer = frozenAll ? freeze.card : null;
    const badges = [];
    const why = freeze.reason ? `frozen: ${freeze.reason}${freezer ? ` (${prettyCard(freezer)})` : ""}` : "frozen";
    if (freeze.frozen && top) {
      // the badge's words: why a card froze it, else the family's few words for the pile's state
      const short = !frozenAll && freeze.note ? prettyText(freeze.note) : freeze.reason ? `frozen: ${freeze.reason}` : "frozen";
      badges.push(h(`span.badge.frozen#pile-frozen${frozenAll ? "" : ".soft"}`, { title: why, "aria-label": why }, icon("snow"), short));
    }
    if (freeze.blocked) badges.push(h("span.badge.blocked", { title: `blocked: ${freeze.blocked}` }, icon("block"), `blocked: ${freeze.blocked}`));
    const last = lastAction(v);
    const lastDiscard = this.lastDiscard();
    const pileStack = h("div.stack.pile-stack");
    if (pile.length > 2) add(pileStack, h("div.stack-shadow"));
    if (pile.length > 1) add(pileStack, h("div.stack-shadow"));
    const topChanged = top && this.prevTop !== undefined && this.prevTop !== `${pile.length}:${top}`;
    const topEl = top ? cardEl(top, { cls: "top" + (topChanged ? " arrive" : "") + (lastDiscard && lastDiscard.card === top ? " last-discard" : "") }) : h("div.card.empty-slot", "empty");
    if (topChanged && this.mover !== null && this.mover !== undefined) {
      // the card comes from the seat that discarded it
      const spot = this.spots().find((x) => x.seat === this.mover)?.spot || "top";
      const [dx, dy] = spot.includes("left") ? [-90, -20] : spot.includes("right") ? [90, -20] : spot === "bottom" ? [0, 90] : [0, -90];
      topEl.style.setProperty("--from-x", `${dx}px`);
      topEl.style.setProperty("--from-y", `${dy}px`);
    }
    add(pileStack, topEl);
    this.prevTop = top ? `${pile.length}:${top}` : null;
    const pileEl = h("div.pile#pile", { class: (this.can("take") ? "clickable " : "") + (frozenAll ? "is-frozen" : ""), title: "discard pile", dataset: { role: "pile" } },
      h("div.pile-cards", pileStack,
        freezer && freezer !== top ? h("div.freezer", { title: `${prettyCard(freezer)} froze the pile: ${freeze.reason}` }, cardEl(freezer, { cls: "small" }), h("span", "froze it")) : null),
      h("div.pile-label", h("b", `${factsOf(v).pile?.size ?? pile.length}`), ` in pile`,
        lastDiscard && top === lastDiscard.card ? h("span.by", ` · ${this.name(lastDiscard.seat)} discarded it`) : null),
      h("div.pile-badges", badges));
    keyButton(pileEl, () => {
      if (this.myTurn && v.phase === "play") {
        if (this.selected.length === 1 && !this.discardProblem(this.selected[0])) this.play(`discard ${this.selected[0]}`);
        else this.refuse(this.selected.length === 1 ? this.discardProblem(this.selected[0]) : "Select one card, then tap the pile to discard it.");
      } else if (this.seat !== null) this.takePile();
    }, `discard pile: ${pile.length} cards${top ? `, ${cardName(top)} on top` : ""}`);
    this.setupDrop(pileEl, (cards) => {
      if (this.myTurn && v.phase === "play" && cards.length === 1) this.play(`discard ${cards[0]}`);
      else if (this.myTurn && v.phase === "draw") { this.selected = cards; this.takePile(); }
    });
    const infoBits = [];
    if (last && v.phase !== "over") {
      infoBits.push(h("button.info-line.last-move#last-move", { type: "button", onclick: () => this.togglePanel(true), "aria-label": `last move: ${this.name(last.seat)} ${moveWords(last)}; show every move` },
        h("b", `${this.name(last.seat)} `), moveWords(last), h("span.more", h("span.more-word", " · moves"), " ›")));
    }
    if (v.phase !== "over") {
      const r = this.rules;
      const house = r.house_rules || [];
      const notes = factsOf(v).notes || [];
      infoBits.push(h("div.info-line.rules-line#rules-line",
        `${r.canastas_to_go_out} ${this.canastaName(r.canastas_to_go_out)} to go out`,
        r.draw_count > 1 ? ` · draw ${r.draw_count}` : "", ` · game ${this.gameLength()}`,
        house.length ? h("span.house-rules", { title: house.map((x) => x.text).join("\n") }, ` · ${house.length} house rule${house.length === 1 ? "" : "s"} (☰)`) : null));
      // the family's own notes (a talon due, the turn card drawn, a rank that takes no more melds)
      if (notes.length) infoBits.push(h("div.info-line.notes#table-notes", notes.map((n, i) => h("span.note", i ? " · " : "", prettyText(n)))));
    }
    add(el, stock, pileEl, h("div.table-info", infoBits));
  }

  /** The last discard of this hand and who made it, from the hand's log. */
  lastDiscard() {
    const log = actionLog(this.view) || [];
    for (let i = log.length - 1; i >= 0; i--) {
      const a = log[i]?.action ?? "";
      if (a.startsWith("discard ")) return { seat: log[i].seat, card: canonical(a.slice(8)) };
      if (a.startsWith("take")) return null;
    }
    return null;
  }

  renderPrompt() {
    const v = this.view;
    const el = clear(this.el.prompt);
    el.hidden = true;
    if (this.myTurn && v.phase === "answer") {
      const asker = (v.to_move - sideCount(v) + seatCount(v)) % seatCount(v);
      el.hidden = false;
      add(el, h("div.prompt-q", `${this.name(asker)} asks: `, h("strong", "“Partner, may I go out?”")),
        h("div.prompt-a",
          h("button.btn.primary#answer-yes", { onclick: () => this.play("yes"), disabled: this.busy }, "Yes, go out"),
          h("button.btn#answer-no", { onclick: () => this.play("no"), disabled: this.busy }, "No, not yet")),
        h("div.prompt-note", "The answer is binding: after “yes” your partner must go out this turn."));
    } else if (this.myTurn && v.phase === "play" && v.answer) {
      el.hidden = false;
      el.classList.toggle("yes", v.answer === "yes");
      add(el, h("div.prompt-q", v.answer === "yes"
        ? "Your partner said yes: you must go out this turn."
        : "Your partner said no: you may not go out this turn."));
    }
  }

  renderMessage() {
    const el = this.el.message;
    el.hidden = !this.error;
    clear(el);
    if (this.error) {
      add(el, icon("hand", "msg-icon"), h("span.msg-text", prettyText(this.error)),
        h("button.close", { type: "button", onclick: () => { this.error = null; this.renderMessage(); }, "aria-label": "dismiss the message" }, "×"));
    }
    this.el.statusText.hidden = !!this.error || !!this.hint;
    this.el.status.classList.toggle("refused", !!this.error);
  }

  showError(text) {
    this.error = text;
    this.renderMessage();
    this.el.message.classList.remove("shake");
    void this.el.message.offsetWidth;
    this.el.message.classList.add("shake");
  }

  renderHint() {
    const el = clear(this.el.hintBox);
    el.hidden = !this.hint || !!this.error;
    this.el.statusText.hidden = !!this.error || !!this.hint;
    el.classList.toggle("open", !!this.hint?.open);
    if (!this.hint) return;
    const { action, reason, details, open } = this.hint;
    // the move first, whole, and why in a player's words; what a search found on request
    const move = action ? moveSentence(action) : "?";
    const toggle = () => { this.hint.open = !this.hint.open; this.renderHint(); };
    add(el, icon("bulb", "msg-icon"),
      h("div.hint-body", {
        role: "button", tabindex: "0", "aria-expanded": open ? "true" : "false",
        "aria-label": `hint: ${move}. ${reason ? prettyText(reason) : ""} ${open ? "Show less" : "Show more"}`,
        onclick: toggle,
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } },
      },
        h("div.hint-head", h("span.hint-word", "Hint: "), h("b.hint-action#hint-action", move)),
        reason ? h("div.hint-reason#hint-reason", prettyText(reason)) : null,
        open && details ? h("div.hint-details#hint-details", prettyText(details)) : null,
        !open && details ? h("div.hint-more", "details ›") : null),
      h("div.hint-buttons",
        action && this.isLegal(action) ? h("button.btn.small#hint-play", { type: "button", onclick: () => this.play(action) }, "Play it") : null,
        h("button.close", { type: "button", onclick: () => { this.hint = null; this.renderHint(); }, "aria-label": "dismiss the hint" }, "×")));
  }

  renderHand() {
    // the card that has the focus keeps it when the hand is drawn again (Space, a new view)
    const focused = document.activeElement?.closest?.("[data-role=hand] .card");
    const keep = focused ? { card: focused.dataset.card, nth: [...this.el.hand.querySelectorAll(`.card[data-card='${focused.dataset.card}']`)].indexOf(focused) } : null;
    const el = clear(this.el.hand);
    const staging = clear(this.el.staging);
    staging.classList.remove("empty");
    staging.hidden = false;
    this.el.handZone.classList.toggle("spectating", this.seat === null);
    if (this.seat === null) {
      staging.hidden = true;
      el.style.removeProperty("height");
      add(el, h("div.spectator-note", "You are watching: hands are hidden. ",
        h("a", { href: "#/" }, "Back to the lobby")));
      return;
    }
    const free = this.freeHand();
    const chosen = [...this.selected];
    const fresh = [...this.freshCards];
    const ordered = this.prefs.sort === "suit" ? sortBySuit(free) : sortCards(free);
    let prevKey = null;
    for (const c of ordered) {
      const i = chosen.indexOf(c);
      const sel = i >= 0;
      if (sel) chosen.splice(i, 1);
      const f = fresh.indexOf(c);
      if (f >= 0) fresh.splice(f, 1);
      const key = this.prefs.sort === "suit" ? (isWild(c) ? "w" : c[1]) : rankOf(c);
      const cEl = cardEl(c, { cls: (sel ? "selected" : "") + (f >= 0 ? " fresh" : "") + (prevKey !== null && key !== prevKey ? " group-start" : ""), tag: "button" });
      prevKey = key;
      cEl.type = "button";
      cEl.setAttribute("aria-pressed", sel ? "true" : "false");
      cEl.setAttribute("aria-label", `${cardName(c)}${f >= 0 ? ", new" : ""}`);
      cEl.addEventListener("click", (ev) => this.toggle(c, sel, ev.timeStamp));
      cEl.draggable = true;
      cEl.addEventListener("dragstart", (ev) => {
        const cards = sel ? [...this.selected] : [c];
        if (!sel) { this.selected = [c]; }
        ev.dataTransfer.setData("text/plain", cards.join(" "));
        ev.dataTransfer.effectAllowed = "move";
        document.body.classList.add("dragging");
      });
      cEl.addEventListener("dragend", () => { document.body.classList.remove("dragging"); this.render(); });
      add(el, cEl);
    }
    if (!free.length && !this.staged.length) add(el, h("div.spectator-note", "No cards in hand."));
    if (keep) {
      const same = el.querySelectorAll(`.card[data-card='${keep.card}']`);
      (same[Math.min(keep.nth, same.length - 1)] || el.querySelector(".card"))?.focus({ preventScroll: true });
    }
    this.fitHand();
    requestAnimationFrame(() => this.fitHand());
    // staged groups (several groups for one meld or take)
    if (this.staged.length) {
      const pts = this.staged.reduce((sum, g) => sum + g.cards.reduce((x, c) => x + this.points(c), 0), 0);
      add(staging, h("span.staging-title", "Groups to lay together:"));
      this.staged.forEach((g, idx) => {
        const allWild = g.cards.every(isWild);
        const rankSel = allWild ? this.rankSelect(g) : null;
        add(staging, h("div.staged-group",
          h("div.fan.flat", g.cards.map((c) => cardEl(c, { cls: "small" }))),
          rankSel,
          h("button.close", { type: "button", "aria-label": "put this group back", onclick: () => { this.pushUndo(); this.staged.splice(idx, 1); this.render(); } }, "×")));
      });
      add(staging, h("span.staging-pts", `${pts} pts`));
    } else {
      staging.hidden = true;
    }
    this.renderSelInfo();
  }

  /**
   * Lays the hand out: every card shows a strip at least MIN_STRIP wide and the whole card's
   * height in its row; as many rows as that needs (two for twenty cards on a phone). The
   * layout depends on the number of cards only, so selecting a card moves nothing.
   */
  fitHand() {
    const el = this.el.hand;
    const cards = [...el.querySelectorAll(".card")];
    if (!cards.length) { el.style.removeProperty("height"); return; }
    const cs = getComputedStyle(el);
    const w = cards[0].offsetWidth || parseFloat(cs.getPropertyValue("--card-w")) || 50;
    const hgt = cards[0].offsetHeight || w * 1.4;
    const width = el.clientWidth - parseFloat(cs.paddingLeft || 0) - parseFloat(cs.paddingRight || 0);
    if (width <= 0) return;
    const minStrip = parseFloat(cs.getPropertyValue("--min-strip")) || 28;
    const maxStep = w * (parseFloat(cs.getPropertyValue("--max-step")) || 0.62);
    const groupGap = parseFloat(cs.getPropertyValue("--group-gap")) || 8;
    const rowStep = parseFloat(cs.getPropertyValue("--row-step")) || hgt * 0.62;
    const lift = parseFloat(cs.getPropertyValue("--lift")) || 12;
    const n = cards.length;
    let rows = 1;
    while (rows < 4 && Math.ceil(n / rows) > 1 && (Math.ceil(n / rows) - 1) * minStrip + w > width) rows++;
    const per = Math.ceil(n / rows);
    const left0 = parseFloat(cs.paddingLeft || 0);
    for (let r = 0; r < rows; r++) {
      const row = cards.slice(r * per, (r + 1) * per);
      const gaps = row.filter((c, i) => i > 0 && c.classList.contains("group-start")).length;
      let gap = groupGap;
      let step = row.length > 1 ? Math.min(maxStep, (width - w - gaps * gap) / (row.length - 1)) : 0;
      if (row.length > 1 && step < minStrip) { gap = 0; step = Math.min(maxStep, (width - w) / (row.length - 1)); }
      let x = left0;
      row.forEach((c, i) => {
        if (i > 0) x += step + (c.classList.contains("group-start") ? gap : 0);
        c.style.left = `${Math.round(x)}px`;
        c.style.top = `${Math.round(lift + r * rowStep)}px`;
        c.style.zIndex = `${r * 100 + i + 1}`;
      });
    }
    el.dataset.rows = `${rows}`;
    const kept = Math.max(rows, parseFloat(cs.getPropertyValue("--min-rows")) || 1);
    el.style.height = `${Math.ceil(lift + (kept - 1) * rowStep + hgt + 4)}px`;
  }

  rankSelect(g) {
    const keys = new Set(this.sideMelds(this.mySide).map((m) => m.key));
    for (const o of this.staged) {
      const nat = o.cards.find((c) => !isWild(c));
      if (nat) keys.add(rankOf(nat));
    }
    const wildKey = factsOf(this.view).wild_meld_key;
    if (wildKey) keys.add(wildKey);
    const order = factsOf(this.view).meld_keys || [];
    const sel = h("select.rank-select", { title: "the meld these wild cards join", "aria-label": "the meld these wild cards join", onchange: (e) => { g.rank = e.target.value || null; } },
      h("option", { value: "" }, "joins…"),
      [...keys].filter((k) => order.includes(k)).sort((a, b) => order.indexOf(a) - order.indexOf(b))
        .map((k) => h("option", { value: k, selected: g.rank === k }, this.meldName(k))));
    return sel;
  }

  /** What a card counts in a meld under the table's rules. */
  points(c) {
    return this.view.card_points?.[c] ?? 0;
  }

  renderSelInfo() {
    const el = clear(this.el.selInfo);
    if (!this.selected.length && !this.staged.length) { el.hidden = true; return; }
    el.hidden = false;
    const pts = this.selected.reduce((sum, c) => sum + this.points(c), 0);
    const staged = this.staged.reduce((sum, g) => sum + g.cards.reduce((x, c) => x + this.points(c), 0), 0);
    const need = this.openingNeed();
    add(el, h("b#sel-points", `${pts + staged} pts`),
      need ? h("span", { class: pts + staged >= need ? "ok" : "short" }, ` of ${need} to open`) : null);
  }

  /** The points the side's first meld needs, while it has not melded (the server's). */
  openingNeed() {
    const live = this.mySide !== null ? livePoints(this.view, this.mySide) : null;
    return live && !live.opened && live.minimum ? live.minimum : null;
  }

  pushUndo() {
    this.undo.push({ selected: [...this.selected], staged: this.staged.map((g) => ({ cards: [...g.cards], rank: g.rank })) });
    if (this.undo.length > 30) this.undo.shift();
  }

  undoSelection() {
    const last = this.undo.pop();
    if (!last) return;
    this.selected = last.selected;
    this.staged = last.staged;
    this.keepSelectionValid();
    this.error = null;
    this.render();
  }

  toggle(card, wasSelected, at = performance.now()) {
    // a second tap on the same card soon after the first discards it (phones: double-tap);
    // the taps' own times count, not when a busy page got round to them
    const now = at;
    const again = this.lastTap && this.lastTap.card === card && now - this.lastTap.at < 400;
    this.lastTap = { card, at: now };
    if (again) {
      this.lastTap = null;
      const why = this.discardProblem(card);
      if (!why) {
        this.selected = [];
        this.play(`discard ${card}`);
        return;
      }
      this.refuse(why);
      return;
    }
    this.pushUndo();
    if (wasSelected) {
      const i = this.selected.indexOf(card);
      if (i >= 0) this.selected.splice(i, 1);
    } else {
      this.selected.push(card);
    }
    this.error = null;
    this.render();
  }

  /** Why the card may not be discarded now, in a player's words (null: it may). */
  discardProblem(card) {
    const v = this.view;
    if (this.seat === null) return "You are watching this table.";
    if (!this.myTurn) return v.phase === "over" ? "The hand is over." : `Wait for your turn: ${this.name(v.to_move)} ${v.to_move === this.seat ? "are" : "is"} playing.`;
    if (v.phase === "draw") return "Draw first: tap the stock, or take the pile. Then discard.";
    if (v.phase === "answer") return "Answer your partner first.";
    if (this.staged.length) return "Lay or put back the groups set aside first.";
    if (this.can("discard") && !this.isLegal(`discard ${card}`)) return `${prettyCard(card)} may not be discarded now: the rules ask for another move first.`;
    if (!this.can("discard")) return "No discard is possible now.";
    return null;
  }

  selectGroup(g) {
    this.pushUndo();
    const all = g.cards.every((c) => this.selected.filter((x) => x === c).length >= g.cards.filter((x) => x === c).length);
    this.selected = this.selected.filter((c) => rankOf(c) !== g.rank);
    if (!all) this.selected.push(...g.cards);
    this.render();
  }

  stageCards(cards) {
    if (!this.myTurn) return;
    const cs = cards && cards.length ? cards : this.selected;
    if (!cs.length) return;
    this.pushUndo();
    this.staged.push({ cards: [...cs], rank: null });
    this.selected = [];
    this.render();
  }

  // -- actions -----------------------------------------------------------------------------------

  legal() { return this.view ? legalList(this.view) : null; }

  isLegal(action) {
    const l = this.legal();
    return l ? l.includes(action) : true;
  }

  /** Whether some legal action starts with the verb (by phase when the view lists none). */
  can(verb) {
    if (!this.myTurn || this.busy) return false;
    const l = this.legal();
    if (l) return l.some((a) => a === verb || a.startsWith(verb + " "));
    const phase = this.view.phase;
    return ({ draw: "draw", take: "draw", pass: "draw", meld: "play", discard: "play", ask: "play", yes: "answer", no: "answer" })[verb] === phase;
  }

  groupText(g) {
    const cards = sortCards(g.cards);
    const allWild = cards.every(isWild);
    return (allWild && g.rank ? `${g.rank}: ` : "") + cards.join(" ");
  }

  meldText() {
    const groups = [...this.staged];
    if (this.selected.length) {
      // wild cards alone make a meld of their own where the family has one (its key)
      const wildKey = this.selected.every(isWild) ? factsOf(this.view).wild_meld_key : null;
      groups.push({ cards: [...this.selected], rank: wildKey || null });
    }
    if (!groups.length) return null;
    return "meld " + groups.map((g) => this.groupText(g)).join(", ");
  }

  takeText() {
    const pile = this.view.pile || [];
    const top = pile[pile.length - 1];
    const groups = [...this.staged];
    if (this.selected.length) groups.push({ cards: [...this.selected], rank: null });
    if (!groups.length) return "take";
    // the group shown with the top card goes first: its rank, or wild cards alone
    const topRank = top ? rankOf(top) : null;
    let first = groups.findIndex((g) => g.cards.some((c) => !isWild(c) && rankOf(c) === topRank));
    if (first < 0) first = groups.findIndex((g) => g.cards.every(isWild));
    if (first > 0) groups.unshift(groups.splice(first, 1)[0]);
    return "take " + groups.map((g, i) => (i === 0 ? sortCards(g.cards).join(" ") : this.groupText(g))).join(", ");
  }

  meldOnto(rank) {
    if (!this.myTurn) return;
    if (!this.selected.length) { this.refuse(`Select cards first, then tap the ${this.meldName(rank)} to add them.`); return; }
    if (this.view.phase === "draw") { this.takePile(); return; }
    const cards = sortCards(this.selected);
    // a meld is of one rank, so a natural card of another rank cannot join it: say so now,
    // in the player's words, rather than send a meld the server would refuse
    const strangers = cards.filter((c) => !isWild(c) && rankOf(c) !== rank);
    if (strangers.length) {
      const names = strangers.map(prettyCard);
      const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
      this.showError(`${who} cannot join the ${this.meldName(rank)}: a meld holds cards of one rank, with wild cards`);
      return;
    }
    const allWild = cards.every(isWild);
    this.play(`meld ${allWild ? `${rank}: ` : ""}${cards.join(" ")}`);
  }

  takePile() {
    const why = this.takeProblem();
    if (why) { this.refuse(why); return; }
    this.play(this.takeText());
  }

  /**
   * The buttons: the same row for the whole phase, so nothing moves as cards are selected. A
   * button that cannot act now stays in place, greyed, and a tap on it says why.
   */
  renderActions() {
    const v = this.view;
    const el = clear(this.el.actions);
    if (this.seat === null) return;
    const btn = (id, label, why, onclick, cls = "", aria = null) => {
      const off = why !== null && why !== undefined && why !== false;
      return h(`button.btn${cls}#${id}`, {
        type: "button", class: off ? "off" : "", "aria-disabled": off ? "true" : "false", "aria-label": aria,
        title: off ? why : null, onclick: () => (off ? this.refuse(why) : onclick()),
      }, label);
    };
    const sel = this.selected.length;
    const phase = v.phase;
    const mine = this.myTurn;
    const wait = mine ? null : (phase === "over" ? "The hand is over." : `Wait for your turn: ${this.name(v.to_move)} ${v.to_move === this.seat ? "are" : "is"} playing.`);
    // the family's own moves (keep a three, lay a special hand), named in its words
    const own = mine ? this.ownMoves() : [];
    own.forEach((a, k) => add(el, h(`button.btn.own-move#own-${k}`, {
      type: "button", class: own.length === (this.legal() || []).length ? "primary" : "",
      dataset: { action: a }, onclick: () => this.play(a),
    }, this.ownWords(a))));
    const onlyOwn = own.length > 0 && own.length === (this.legal() || []).length;
    if (onlyOwn) {
      // nothing else may be played now: the family's choice comes first
    } else if (mine && phase === "play") {
      const meld = this.meldText();
      add(el, btn("btn-meld", this.staged.length ? "Meld all" : "Meld", this.meldProblem(), () => this.play(meld), ".primary", "meld the selected cards"));
      add(el, btn("btn-discard", "Discard", sel === 1 ? this.discardProblem(this.selected[0]) : (sel ? "Select only the one card to discard." : "Select the card to discard (or tap it twice)."),
        () => this.play(`discard ${this.selected[0]}`), "", "discard the selected card"));
      if (this.rules.ask_partner) add(el, btn("btn-ask", "Ask", this.can("ask") ? null : "You may not ask your partner now.", () => this.play("ask"), "", "ask your partner: may I go out?"));
      if (this.can("pass")) add(el, btn("btn-pass", "Stop", null, () => this.play("pass"), "", "the stock's last card was a red three: stop melding and end the hand"));
    } else if (!(mine && phase === "answer")) {
      add(el, btn("btn-draw", "Draw", wait ?? (this.can("draw") ? null : "There is no stock to draw from now."), () => this.play("draw"), ".primary", "draw from the stock"));
      add(el, btn("btn-take", "Take pile", wait ?? this.takeProblem(), () => this.takePile(), "", "take the discard pile with the selected cards"));
      if (mine && this.can("pass")) add(el, btn("btn-pass", "Pass", null, () => this.play("pass")));
      if (mine && this.rules.ask_partner && this.can("ask")) add(el, btn("btn-ask", "Ask", null, () => this.play("ask"), "", "ask your partner before drawing: may I go out?"));
    }
    add(el, btn("btn-group", "Group", mine ? (sel ? null : "Select cards first, then Group sets them aside for a meld of several groups.") : wait,
      () => this.stageCards(), ".ghost", "set the selected cards aside as one group"));
    add(el, btn("btn-undo", "Undo", this.undo.length ? null : "Nothing to undo.", () => this.undoSelection(), ".ghost", "undo the last selection"));
    add(el, btn("btn-sort", this.prefs.sort === "suit" ? "By rank" : "By suit", null, () => {
      this.prefs.sort = this.prefs.sort === "suit" ? "rank" : "suit";
      saveSettings(this.prefs);
      this.renderSettings();
      this.render();
    }, ".ghost", this.prefs.sort === "suit" ? "sort the hand by rank" : "sort the hand by suit"));
  }

  /** Why the selection cannot be melded now (null: send it; the server judges the rest). */
  meldProblem() {
    if (this.busy) return "Wait: the last move is being sent.";
    if (!this.selected.length && !this.staged.length) return "Select the cards to meld first.";
    if (!this.can("meld")) return "No meld is possible now.";
    const need = this.openingNeed();
    const pts = [...this.selected, ...this.staged.flatMap((g) => g.cards)].reduce((sum, c) => sum + this.points(c), 0);
    if (need && pts < need) return `Your side's first meld needs ${need} points: these cards count ${pts}.`;
    return null;
  }

  /** Why the pile cannot be taken now (null: it may be tried). */
  takeProblem() {
    if (!this.can("take")) {
      const freeze = pileFreeze(this.view);
      const top = (this.view.pile || [])[this.view.pile?.length - 1];
      if (!top) return "The pile is empty.";
      if (freeze.blocked) return `The pile is blocked (${freeze.blocked}): draw from the stock.`;
      if (freeze.frozen) return `The pile is frozen (${freeze.reason}): you need two natural ${rankPlural(rankOf(top))} in your hand to take it.`;
      return `You cannot take the pile now: you need cards in your hand that meld with the ${prettyCard(top)}.`;
    }
    const legal = this.legal() || [];
    if (!this.selected.length && !this.staged.length && !legal.includes("take")) {
      // the pile is taken with cards of the hand: say which, and how
      const takes = legal.filter((a) => a.startsWith("take ")).map(cardsInAction).sort((a, b) => a.length - b.length);
      const top = (this.view.pile || [])[this.view.pile?.length - 1];
      if (takes.length) {
        return `Choose the cards that go with the ${prettyCard(top)} (${takes[0].map(prettyCard).join(" ")}), then tap Take pile.`;
      }
    }
    return null;
  }

  /** A refused move: the reason where the player looks (the status line above the hand). */
  refuse(text) {
    this.showError(text);
    this.sound("refused");
  }

  renderLegal() {
    const el = clear(this.el.legal);
    const l = this.legal();
    if (this.seat === null) { el.hidden = true; return; }
    el.hidden = false;
    const mine = this.myTurn && l && l.length;
    const head = h("div.panel-head", h("h3", "Legal moves"), mine ? h("span.count", `${l.length}`) : null);
    add(el, head);
    if (!mine) { add(el, h("div.muted", this.myTurn ? "…" : "Shown when it is your turn.")); return; }
    const hadFocus = document.activeElement?.id === "legal-filter";
    const caret = hadFocus ? document.activeElement.selectionStart : null;
    const filter = h("input.filter#legal-filter", { type: "search", placeholder: "filter, e.g. meld K", value: this.legalFilter, "aria-label": "filter legal moves" });
    const list = h("ol.legal-list#legal-list", { tabindex: "0", "aria-label": "legal moves" });
    const fill = () => {
      clear(list);
      const f = this.legalFilter.trim().toLowerCase();
      const want = this.selected;
      let shown = 0;
      let matching = 0;
      for (const a of l) {
        if (f && !a.toLowerCase().includes(f)) continue;
        if (want.length) {
          const cs = cardsInAction(a);
          if (!want.every((c) => { const i = cs.indexOf(c); if (i < 0) return false; cs.splice(i, 1); return true; })) continue;
        }
        matching += 1;
        if (shown >= 150) continue;
        shown += 1;
        add(list, h("li", h("button.legal-action", { type: "button", dataset: { action: a }, onclick: () => this.play(a), disabled: this.busy }, prettyText(a))));
      }
      if (matching > shown) add(list, h("li.more", `… ${matching - shown} more: narrow the filter or select cards`));
      if (!matching) add(list, h("li.more", "No legal move matches."));
    };
    filter.addEventListener("input", () => { this.legalFilter = filter.value; fill(); });
    fill();
    add(el, filter, this.selected.length ? h("div.muted", "Showing moves with the selected cards.") : null, list);
    if (hadFocus) { filter.focus(); try { filter.setSelectionRange(caret, caret); } catch { /* search inputs */ } }
  }

  renderSheet() {
    const v = this.view;
    const el = clear(this.el.sheet);
    const k = sideCount(v);
    const rows = scoreSheet(v);
    const totals = gameScores(v);
    add(el, h("div.panel-head", h("h3", "Score sheet"), h("span.muted", this.gameLength())));
    const head = h("tr", h("th", "Hand"), [...Array(k).keys()].map((i) => h("th", { class: SIDE_COLORS[i % 3], title: this.sideName(i) }, this.sideShort(i))));
    const body = h("tbody");
    for (const r of rows) {
      add(body, h("tr", h("td", `${r.hand}`), [...Array(k).keys()].map((i) =>
        h("td", h("span.delta", { class: (r.totals[i] ?? 0) < 0 ? "neg" : "" }, fmtSigned(r.totals[i] ?? 0)), h("span.run", `${r.running[i] ?? ""}`)))));
    }
    const foot = h("tr.total", h("td", "Total"), [...Array(k).keys()].map((i) => h("td", `${totals[i] ?? 0}`)));
    add(el, h("table.sheet-table", h("thead", head), body, h("tfoot", foot)));
  }

  /** The hand's log as {seat, text} lines, from the server's log (with what each seat saw). */
  logLines() {
    const serverLog = actionLog(this.view) || [];
    return serverLog.map((line) => {
      const m = typeof line === "string" ? /^p(\d+):\s*(.*)$/.exec(line) : null;
      const entry = m ? { seat: Number(m[1]), action: m[2] } : line;
      return { seat: entry?.seat ?? null, text: moveWords(entry) };
    });
  }

  /** The moves since the player's last turn (a spectator: the last round), one line a turn. */
  roundTurns() {
    const lines = this.logLines();
    let from = 0;
    if (this.seat !== null) {
      let i = lines.length - 1;
      while (i >= 0 && lines[i].seat === this.seat) i--;  // this turn so far
      while (i >= 0 && lines[i].seat !== this.seat) i--;  // the others' turns since the last
      from = i + 1;
    } else {
      from = Math.max(0, lines.length - 3 * seatCount(this.view));
    }
    const turns = [];
    for (const l of lines.slice(from)) {
      const last = turns[turns.length - 1];
      if (last && last.seat === l.seat) last.moves.push(l.text);
      else turns.push({ seat: l.seat, moves: [l.text] });
    }
    return turns;
  }

  renderRound() {
    const el = clear(this.el.round);
    const turns = this.roundTurns();
    add(el, h("div.panel-head", h("h3", this.seat !== null ? "Since your last turn" : "The last round")));
    const list = h("ol.round-list#round-list", { "aria-label": "the last round's moves" });
    for (const t of turns) {
      const side = t.seat !== null && t.seat !== undefined ? sideOf(this.view, t.seat) : null;
      add(list, h("li", side !== null ? h(`b.${SIDE_COLORS[side % 3]}`, `${this.name(t.seat)}: `) : null, t.moves.join("; "), "."));
    }
    if (!turns.length) add(list, h("li.muted", "No moves yet this hand."));
    add(el, list);
  }

  renderRulesBox() {
    const el = clear(this.el.rulesBox);
    const r = this.rules || {};
    const v = this.view;
    const house = r.house_rules || [];
    add(el, h("div.panel-head", h("h3", "This table's rules")),
      h("p.rules-label", r.label || ""),
      h("ul.rules-facts",
        h("li", `${r.canastas_to_go_out} ${this.canastaName(r.canastas_to_go_out)} to go out, of ${r.canasta_size} cards`),
        h("li", `A game ${this.gameLength().replace(/^of /, "lasts ").replace(/^to /, "goes to ")}`),
        r.draw_count > 1 ? h("li", `Each draw takes ${r.draw_count} cards`) : null,
        (factsOf(v).notes || []).map((n) => h("li", prettyText(n)))),
      house.length ? h("div", h("b", "House rules in force:"), h("ul.house-list#house-list", house.map((x) => h("li", x.text))))
        : h("p.muted", "No house rules: the preset's rules."),
      h("a.btn.small#rules-page-link", { href: `#/rules/${encodeURIComponent(r.preset || "")}?table=${encodeURIComponent(this.tableId)}` }, "How to play"));
  }

  renderLog() {
    const el = clear(this.el.logBox);
    add(el, h("div.panel-head", h("h3", "Every move of this hand")));
    const list = h("ol.log-list#talk", { tabindex: "0", "aria-label": "every move of this hand" });
    const items = this.logLines().slice(-60);
    for (const it of items) {
      const side = it.seat !== null && it.seat !== undefined ? sideOf(this.view, it.seat) : null;
      add(list, h("li", side !== null ? h(`b.${SIDE_COLORS[side % 3]}`, `${this.name(it.seat)} `) : null, prettyText(it.text)));
    }
    if (!items.length) add(list, h("li.muted", "Moves appear here as they are played."));
    add(el, list);
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  }

  renderResult() {
    const v = this.view;
    const el = this.el.result;
    const key = `${handNumber(v)}:${v.dealer}`;
    // an ended hand the player has not seen (the next hand was dealt at once): its score
    // sheet row; else the hand that is over in the view
    const pending = this.endShown;
    const fromView = v.phase === "over" && v.result && this.resultDismissed !== key;
    if (!pending && !fromView) {
      el.hidden = true;
      clear(el);
      if (v.phase === "over" && this.resultDismissed === key) {
        add(this.el.statusText, " ", h("button.link#show-score", { type: "button", onclick: () => { this.resultDismissed = null; this.render(); } }, "show the score"));
      }
      return;
    }
    const handNo = pending ? pending.hand : handNumber(v);
    // each side's score part by part, and how the hand ended: the family's facts
    const parts = pending ? pending.row.score : factsOf(v).score;
    const ending = pending ? pending.row.ending : factsOf(v).ending;
    if (!Array.isArray(parts) || !parts.length) { this.endShown = null; el.hidden = true; return; }
    clear(el);
    el.hidden = false;
    const k = sideCount(v);
    const head = h("tr", h("th", { scope: "col" }, h("span.sr-only", "score")), [...Array(k).keys()].map((i) => h("th", { scope: "col", class: SIDE_COLORS[i % 3], title: this.sideName(i) }, this.sideShort(i))));
    const body = h("tbody");
    for (const key2 of Object.keys(parts[0]).filter((x) => x !== "total")) {
      add(body, h("tr", h("th", { scope: "row" }, scoreWords(key2)), parts.map((x) => {
        const val = x[key2] ?? 0;
        return h("td", { class: val < 0 ? "neg" : "" }, fmtSigned(val));
      })));
    }
    add(body, h("tr.total", h("th", { scope: "row" }, "Hand total"), parts.map((x) => h("td", { class: x.total < 0 ? "neg" : "" }, fmtSigned(x.total)))));
    let after;
    if (pending) after = pending.row.running;
    else {
      const scores = gameScores(v);
      const before = (v.sides || []).map((x) => x.score ?? 0);
      after = before.map((b0, i) => (scores[i] !== undefined && scores[i] !== b0 ? scores[i] : b0 + (parts[i]?.total ?? 0)));
    }
    add(body, h("tr.running", h("th", { scope: "row" }, "Game score"), after.map((x) => h("td", `${x}`))));
    const headline = ending ? this.endingWords(ending) : "The hand is over.";
    const over = gameOver(v) && (!pending || pending.hand === scoreSheet(v).length);
    const win = winner(v);
    const close = () => {
      this.seenHands?.add(handNo);
      if (pending) this.endShown = null;
      else this.resultDismissed = key;
      this.noteEndedHands(this.view);
      this.render();
    };
    const buttons = [];
    if (pending) buttons.push(h("button.btn.primary#result-continue", { type: "button", onclick: close }, "Continue"));
    else if (!over && this.seat !== null && v.next_hand !== "auto") {
      buttons.push(h("button.btn.primary#next-hand", { type: "button", onclick: () => this.nextHand() }, "Next hand"));
    } else if (!over) {
      buttons.push(h("span.muted", "The next hand is dealt by itself."));
    }
    if (over && !pending) {
      buttons.push(h("button.btn.primary#rematch", { type: "button", onclick: () => this.rematch() },
        v.rematch ? (this.seat !== null ? "Join the rematch" : "Watch the rematch") : "Play again"));
    }
    buttons.push(h("a.btn#hand-replay", { href: `#/replay/${encodeURIComponent(this.tableId)}?hand=${handNo}` }, over ? "Watch the replay" : "Replay this hand"));
    if (!pending) buttons.push(h("button.btn.ghost#look-at-table", { type: "button", onclick: close }, "Look at the table"));
    buttons.push(h("a.btn.ghost", { href: "#/" }, "Lobby"));
    add(el, h("div.result-card#score-breakdown", { role: "dialog", "aria-modal": "true", "aria-label": `hand ${handNo} score` },
      h("h2", over ? `Game over${win !== null ? ` — ${this.winWords(win)}!` : ""}` : `Hand ${handNo} is over`),
      h("p.headline", headline),
      h("table.breakdown", h("thead", head), body),
      pending ? null : this.handsRevealed(),
      h("div.result-actions", buttons)));
  }

  /** Every seat's cards left in hand at the end of the hand, with what they count (a row of
   * cards overlaps more as it grows, so the points always show beside it: see fanColumns). */
  handsRevealed() {
    const v = this.view;
    const names = playerNames(v);
    const hands = Array.isArray(v.revealed) ? v.revealed : (v.hands || []).map((hd) => (Array.isArray(hd) ? hd : null));
    const rows = [];
    hands.forEach((hd, s) => {
      if (!Array.isArray(hd)) return;
      const pts = v.hand_points?.[s] ?? hd.reduce((a, c) => a + this.points(c), 0);
      rows.push(h(`div.revealed.${SIDE_COLORS[sideOf(v, s) % 3]}`, { dataset: { seat: s } },
        h("span.who", s === this.seat ? "You" : names[s]),
        hd.length ? h("div.fan.spread", { style: { gridTemplateColumns: fanColumns(hd.length, "calc(var(--card-sm) * .55)", "6px") } },
          sortCards(hd).map((c) => cardEl(c, { cls: "small" }))) : h("span.muted", "went out"),
        h("span.pts", hd.length ? `−${pts}` : "")));
    });
    return rows.length ? h("div.revealed-hands#revealed", h("h3", "Cards left in hand"), rows) : null;
  }

  async nextHand() {
    if (this.busy) return;
    this.seenHands?.add(handNumber(this.view));
    this.busy = true;
    try {
      const v = viewOf(await api.next(this.tableId, this.token));
      this.busy = false;
      if (v) this.setView(v, true);
      this.live.refresh();
    } catch (e) {
      this.busy = false;
      this.refuse(e.body?.words || e.message);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async setBot(on) {
    try {
      const r = on ? await api.toBot(this.tableId, this.seat, this.token) : await api.claim(this.tableId, this.seat, this.token);
      const v = viewOf(r);
      if (v) this.setView(v, true);
      toast(on ? "A bot plays your seat now" : "Your seat is yours again", "ok");
    } catch (e) {
      this.refuse(e.body?.words || e.message);
    }
  }

  async askHint() {
    if (!this.myTurn) { this.refuse("A hint is for your turn."); return; }
    this.error = null;  // the hint takes the refusal's place: it shows, not hides behind it
    this.errorKind = null;
    try {
      const r = await api.hint(this.tableId, this.token);
      let action = null;
      let reason = null;
      if (typeof r === "string") action = r;
      else if (r) {
        action = r.action ?? r.hint ?? r.move ?? null;
        reason = r.words ?? r.reason ?? r.why ?? r.explanation ?? r.because ?? null;
        if (Array.isArray(reason)) reason = reason.join("; ");
      }
      this.hint = { action, reason, details: r?.details ?? null, open: false };
      if (action) {
        const cs = cardsInAction(action);
        const hand = this.freeHand();
        this.selected = cs.filter((c) => { const i = hand.indexOf(c); if (i < 0) return false; hand.splice(i, 1); return true; });
        if (/^take/.test(action) || /^draw|^ask|^yes|^no|^pass/.test(action)) this.selected = cs.length ? this.selected : [];
      }
      this.render();
    } catch (e) {
      this.refuse(e.body?.words || e.message);
    }
  }

  async play(action) {
    if (!action || this.busy) return;
    this.busy = true;
    this.error = null;
    this.el.handZone.classList.add("busy");
    try {
      const r = await api.act(this.tableId, this.token, action);
      this.selected = [];
      this.staged = [];
      this.undo = [];
      this.freshCards = [];
      this.hint = null;
      const v = viewOf(r);
      this.busy = false;
      if (v) this.setView(v, true);
      else this.render();
      this.live.refresh();  // the socket may have pushed later views before this reply
    } catch (e) {
      this.busy = false;
      const text = e instanceof ApiError ? (e.body?.words || e.message) : String(e);
      this.error = e.status === 403 ? `Not your seat: ${text}` : text;
      this.render();
      this.refuse(this.error);
    } finally {
      this.busy = false;
      this.el.handZone.classList.remove("busy");
      this.render();
    }
  }

  async share() {
    const url = `${location.origin}${location.pathname}#/watch/${encodeURIComponent(this.tableId)}`;
    const ok = await copyText(url);
    toast(ok ? "Spectator link copied" : url, ok ? "ok" : "info", 4000);
  }

  // -- talk at the table, the rematch, this browser's games, the guide ------------------------

  renderChat() {
    const v = this.view;
    const lines = v.chat || [];
    const seen = this.chatSeen ?? lines.length;
    if (this.chatSeen === undefined) this.chatSeen = lines.length;
    const fresh = lines.length - seen;
    this.el.panelBtn.classList.toggle("news", fresh > 0 && !this.el.aside.classList.contains("open"));
    if (this.el.aside.classList.contains("open")) this.chatSeen = lines.length;
    // the form is built once per seat: a bot's move re-renders the table while a player
    // types, and rebuilding the input would drop its focus (a phone's keyboard closes)
    const talker = this.seat !== null;
    if (!this.el.chatList || this.el.chatTalker !== talker) {
      this.el.chatTalker = talker;
      this.el.chatList = h("ol.chat-list#chat-list", { "aria-label": "what the players said" });
      add(clear(this.el.chatBox), h("div.panel-head", h("h3", "Table talk")), this.el.chatList);
      if (talker) {
        const input = h("input.chat-input#chat-input", { type: "text", maxlength: 200, placeholder: "a few words", "aria-label": "what to say to the table",
          onkeydown: (e) => { if (e.key === "Enter") { e.preventDefault(); this.say(input.value, input); } } });
        add(this.el.chatBox, h("div.quick-phrases", QUICK_PHRASES.map((p) => h("button.btn.small.ghost.phrase", { type: "button", onclick: () => this.say(p) }, p))),
          h("div.chat-form", input, h("button.btn.small#chat-send", { type: "button", onclick: () => this.say(input.value, input) }, "Say")));
      }
    }
    const list = this.el.chatList;
    const key = lines.map((l) => `${l.seat}:${l.text}`).join("\n");
    if (list.dataset.said === key && list.childElementCount) return;
    list.dataset.said = key;
    if (lines.length) list.tabIndex = 0; else list.removeAttribute("tabindex");
    clear(list);
    add(list, lines.map((l) => h("li", h(`b.${SIDE_COLORS[sideOf(v, l.seat) % 3]}`, `${l.seat === this.seat ? "You" : l.name}: `), l.text)));
    if (!lines.length) add(list, h("li.muted", talker ? "Say something to the table." : "Nothing said yet."));
    requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  }

  /** Say a line at the table; from the input, the input empties once the table has it
   * (what was typed meanwhile stays). */
  async say(text, input = null) {
    const line = String(text || "").trim();
    if (!line) return;
    try {
      const v = viewOf(await api.say(this.tableId, this.token, line));
      if (input && input.value.trim() === line) input.value = "";
      this.chatSeen = (v?.chat || []).length;
      if (v) this.setView(v, true);
    } catch (e) {
      toast(e.body?.words || e.message, "err");
    }
  }

  /** This browser's games (the lobby lists them): the table, the seat's token, the rules in
   * words, and once it is over the result. */
  rememberGame() {
    const v = this.view;
    if (this.seat === null || !this.token) return;
    const over = gameOver(v);
    const key = `${over}:${v.hand_number}`;
    if (this.remembered === key) return;
    this.remembered = key;
    const result = over ? { winner: winner(v), side: this.mySide, scores: gameScores(v) } : null;
    rememberTable({ table_id: this.tableId, rules: v.table_rules?.label ?? "", seats: [{ seat: this.seat, token: this.token }],
      at: Date.now(), hand: v.hand_number, result });
  }

  async rematch() {
    const v = this.view;
    try {
      const id = v.rematch ?? (await api.rematch(this.tableId, this.token)).table_id;
      location.hash = this.token ? `#/table/${encodeURIComponent(id)}?token=${encodeURIComponent(this.token)}` : `#/watch/${encodeURIComponent(id)}`;
    } catch (e) {
      this.refuse(e.body?.words || e.message);
    }
  }

  /** The guide of a first hand: what to do now, and why, from the view (waits for the move). */
  renderCoach() {
    const el = clear(this.el.coach);
    el.hidden = !this.coached || this.seat === null;
    if (el.hidden) return;
    add(el, h("span.coach-title", "Guide"), h("span.coach-text#coach-text", this.coachWords()),
      h("button.btn.small.ghost#coach-off", { type: "button", onclick: () => { this.coached = false; forgetCoach(this.tableId); this.render(); } }, "Hide the guide"));
  }

  coachWords() {
    const v = this.view;
    const f = factsOf(v);
    if (v.phase === "over") return "The hand is over: the table below shows how each side scored, part by part.";
    if (!this.myTurn) return `${this.name(v.to_move)} is playing. Watch the pile: what others throw tells you what they do not need.`;
    const own = this.ownMoves();
    if (own.length === (this.legal() || []).length && own.length) return `A choice of this game comes first: ${own.map((a) => this.ownWords(a)).join(", or ")}. Tap one of the buttons.`;
    if (v.phase === "answer") return "Your partner asks whether they may go out: say yes if your side's melds are worth it.";
    const top = (v.pile || [])[v.pile?.length - 1];
    const freeze = pileFreeze(v);
    if (v.phase === "draw") {
      if (this.can("take")) return `You may take the whole pile: its top card, ${prettyCard(top)}, goes with cards in your hand. Select them, then tap Take pile. Or tap the stock to draw one card.`;
      if (freeze.frozen && top) return `The pile is frozen (${freeze.reason}): only a natural pair of its top card's rank takes it. Tap the stock to draw.`;
      return "Every turn starts with a draw: tap the stock.";
    }
    const side = this.mySide;
    const need = f.canastas_to_go_out ?? 1;
    const have = (f.canastas || [])[meldsOf(v, this.seat)] ?? 0;
    if (have >= need) return `Your side has the ${need} ${this.canastaName(need)} it needs: you may go out by melding or discarding your last card.`;
    if (this.can("meld")) {
      const opened = livePoints(v, side)?.opened;
      return opened
        ? "Lay more melds, or add cards to yours: select them, then tap Meld (or tap your meld). A meld of " + `${f.canasta_size} cards is a ${this.canastaName(1)}.`
        : `You can meld: select three or more cards of one rank (wild cards may join), then tap Meld. Your side's first meld needs ${f.opening_minimum?.[side] ?? "a few"} points: the count shows as you select.`;
    }
    return "End your turn with a discard: select one card and tap Discard, or tap it twice. A card the next player cannot use is safest.";
  }

  // -- drag and drop -----------------------------------------------------------------------------

  setupDrop(el, onDrop) {
    el.addEventListener("dragover", (ev) => {
      if (!this.myTurn) return;
      ev.preventDefault();
      el.classList.add("drop-over");
    });
    el.addEventListener("dragleave", () => el.classList.remove("drop-over"));
    el.addEventListener("drop", (ev) => {
      ev.preventDefault();
      el.classList.remove("drop-over");
      document.body.classList.remove("dragging");
      const text = ev.dataTransfer.getData("text/plain");
      const cards = text.split(/\s+/).filter(Boolean);
      if (cards.length) onDrop(cards);
    });
  }
}

/** Short things to say at the table with one tap. */
const QUICK_PHRASES = ["Good luck!", "Nice move!", "Well played", "Thanks!", "Oops", "One moment"];
const COACH_KEY = "canasta.guided-tables";

/** The tables whose first hand this browser plays with the guide. */
export function coachedTables() {
  try { return JSON.parse(localStorage.getItem(COACH_KEY) || "[]"); } catch { return []; }
}

export function coachTable(id) {
  try { localStorage.setItem(COACH_KEY, JSON.stringify([id, ...coachedTables()].slice(0, 20))); } catch { /* private mode */ }
}

function forgetCoach(id) {
  try { localStorage.setItem(COACH_KEY, JSON.stringify(coachedTables().filter((t) => t !== id))); } catch { /* private mode */ }
}

/** The table's keys: key -> the page's method (the buttons' moves); KEY_LIST says them. */
const KEYS = {
  d: { run: "keyDraw" }, t: { run: "keyTake" }, m: { run: "keyMeld" }, x: { run: "keyDiscard" },
  h: { run: "keyHint" }, u: { run: "keyUndo" }, z: { run: "keyUndo" }, "?": { run: "keyHelp" },
  c: { run: "keyHand" },
};
const KEY_LIST = [
  ["D", "draw from the stock"], ["T", "take the pile (with the selected cards)"],
  ["M", "meld the selected cards"], ["X", "discard the selected card"], ["H", "a hint"],
  ["U or Z", "undo the last selection"], ["C", "go to your cards"],
  ["← →", "move between your cards"], ["Space", "select a card, or put it back"],
  ["Esc", "put the selection back, close a panel"], ["?", "this list"],
];

/** An element that acts like a button: a tap, a click, Enter or Space; with its name. */
function keyButton(el, act, label) {
  el.setAttribute("role", "button");
  el.setAttribute("tabindex", "0");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", act);
  el.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
  });
}

/** A move said to the player who may make it: "Discard 5♦", "Take the pile with 7♥ 7♦". */
function moveSentence(action) {
  const words = actionWords(action, true);
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The last move as a plate says it: "discards 9♠"; a family's own verb in its words. */
function saidWords(entry, you) {
  if (typeof entry.words === "string") return moveWords(entry);
  return actionWords(entry.action, you);
}

/** A meld's key as its label shows it: the rank ("K", "10"), or a word for a key that is no rank
 * ("wild" for the meld of wild cards). */
function keyLabel(key, name) {
  return /^[2-9TJQKA]$/.test(key) ? rankLabel(key) : name.split(" ")[0];
}

function fmtSigned(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}

/** How many of four bars a bot level fills, for the meter that stands for it on a phone. */
const LEVEL_BARS = { easy: 1, medium: 2, hard: 3, expert: 4 };

/** A meter of four bars, the first `n` filled: a bot's level where its word has no room. */
function levelMeter(n) {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 16 12");
  s.setAttribute("class", "tag-mark level-meter");
  s.setAttribute("aria-hidden", "true");
  s.innerHTML = [0, 1, 2, 3].map((i) => `<rect x="${i * 4}" y="${9 - i * 3}" width="3" height="${3 + i * 3}" rx=".5"${i < n ? "" : ' class="off"'}/>`).join("");
  return s;
}

/** Closed canastas of one side from which they stand on one shelf (:meth:`shelfEl`). */
const SHELF_AT = 3;

/** The grid columns of a fan of n small cards (a meld, a row of revealed cards): each card but
 * the last shows a strip of `step`, narrowed down to `min` where the fan would not fit; the last
 * card shows whole. A crowded row of melds squeezes its fans instead of running off the screen. */
function fanColumns(n, step = "var(--fan-step)", min = "var(--fan-min)") {
  return n > 1 ? `repeat(${n - 1}, minmax(${min}, ${step})) var(--card-sm)` : "var(--card-sm)";
}
