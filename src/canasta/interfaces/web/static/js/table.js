// The table: one seat's live view (or a spectator's), with every action of the turn.

import { api, ApiError, LiveView, viewOf } from "./api.js";
import {
  actionWords, backEl, canonical, cardEl, cardsInAction, groupByRank, isBlackThree, isRed,
  isRedThree, isWild, meldRankOrder, prettyCard, prettyText, rankLabel, rankOf, rankPlural, sortCards,
} from "./cards.js";
import { add, clear, copyText, h, icon, toast } from "./dom.js";
import {
  actionLog, gameOver, gameScores, handNumber, handOf, handSize, isBotSeat, lastAction, legalList,
  levelOf, livePoints, mySeat, pileFreeze, playerNames, scoreSheet, seatCount, seatInfo, sideCount,
  sideOf, stockSize, tableRules, versionOf, winner, yourTurn,
} from "./view.js";

const SIDE_COLORS = ["side-a", "side-b", "side-c"];
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
    this.log = [];
    this.resultDismissed = null;
    this.conn = "connecting";
    this.legalFilter = "";
    this.build();
  }

  start() {
    this._onResize = () => this.fitHand();
    window.addEventListener("resize", this._onResize);
    this.live = new LiveView(this.tableId, this.token, {
      onView: (v) => this.setView(v),
      onStatus: (s) => { this.conn = s; this.renderConn(); },
      onMessage: (m) => this.onMessage(m),
    });
    this.live.start();
  }

  stop() {
    window.removeEventListener("resize", this._onResize);
    this.live?.stop();
  }

  // -- skeleton ----------------------------------------------------------------------------------

  build() {
    clear(this.root);
    this.el = {};
    const e = this.el;
    e.conn = h("span.conn", { title: "connection" });
    e.title = h("span.table-title");
    e.hintBtn = h("button.btn.ghost#hint-btn", { onclick: () => this.askHint(), title: "What would the hint bot play, and why?" }, icon("bulb"), h("span.label", "Hint"));
    e.replayLink = h("a.btn.ghost#replay-link", { href: `#/replay/${encodeURIComponent(this.tableId)}`, hidden: true }, "Replay");
    e.shareBtn = h("button.btn.ghost", { onclick: () => this.share(), title: "Copy the link of this table for spectators" }, icon("share"), h("span.label", "Share"));
    e.botBtn = h("button.btn.ghost#bot-for-me", { onclick: () => this.setBot(true), title: "a bot plays your seat until you take it back", "aria-label": "a bot plays for me", hidden: true }, icon("bot"), h("span.label", "Bot plays for me"));
    e.panelBtn = h("button.btn.ghost#panel-btn", { onclick: () => this.togglePanel(), title: "score sheet, table talk and every legal move", "aria-expanded": "false" }, "☰", h("span.label", "Score & talk"));
    e.top = h("header.topbar",
      h("a.brand", { href: "#/" }, h("span.brand-suit", "♦"), h("span.brand-word", "Canasta")),
      e.title, h("span.spacer"), e.conn, e.shareBtn, e.replayLink, e.botBtn, e.panelBtn, e.hintBtn);
    e.status = h("div.status-line#status", { role: "status", "aria-live": "polite" });
    // the felt: seats around the table from this seat, each side's melds by that side, the
    // stock and the pile in the middle
    e.seats = h("div.seats#players");
    e.others = h("div.side-area.others");
    e.center = h("section.center#center");
    e.mine = h("div.side-area.ours");
    e.felt = h("main.felt", e.seats, e.others, e.center, e.mine);
    e.prompt = h("div.prompt#prompt", { hidden: true });
    e.message = h("div.message#move-error", { role: "alert", hidden: true });
    e.hintBox = h("div.hint#hint", { hidden: true });
    e.staging = h("div.staging#staging");
    e.hand = h("div.hand#hand", { "data-role": "hand", "aria-label": "your hand" });
    e.actions = h("div.actions#actions", { "data-role": "actions" });
    e.selInfo = h("div.sel-info#sel-info");
    e.handZone = h("section.hand-zone#hand-zone", e.prompt, e.message, e.hintBox, e.staging, e.hand,
      h("div.dock-row", e.selInfo, e.actions));
    e.legal = h("section.panel.legal#legal");
    e.sheet = h("section.panel.sheet#score-sheet");
    e.logBox = h("section.panel.log#log");
    e.aside = h("aside.aside#aside", e.sheet, e.logBox, e.legal);
    e.result = h("div.overlay#result", { hidden: true });
    add(this.root, h("div.table-page", e.top,
      h("div.layout", h("div.main-col", e.status, e.felt, e.handZone), e.aside), e.result));
    this.setupDrop(e.staging, (cards) => this.stageCards(cards));
    this.renderConn();
  }

  togglePanel(open) {
    const on = open ?? !this.el.aside.classList.contains("open");
    this.el.aside.classList.toggle("open", on);
    this.el.panelBtn.setAttribute("aria-expanded", on ? "true" : "false");
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
      if (m.status === 403 || m.status === 404) this.showError(m.error || m.message);
      else if (m.type === "error" || m.error) this.showError(m.error || m.message);
    }
  }

  // -- state -------------------------------------------------------------------------------------

  setView(v) {
    if (!v || typeof v !== "object" || !("phase" in v)) return;
    const old = this.view;
    const ov = old ? versionOf(old) : null;
    const nv = versionOf(v);
    if (ov !== null && nv !== null && nv < ov) return;  // an older view arriving late
    if (old && JSON.stringify(old) === JSON.stringify(v)) return;
    this.view = v;
    // what just arrived, for the short animations (they never hold up the page)
    this.justDrew = !!old && stockSize(v) < stockSize(old);
    const before = old ? [...(handOf(old, mySeat(old)) || [])] : null;
    this.fresh = before ? (handOf(v, mySeat(v)) || []).filter((c) => {
      const i = before.indexOf(c);
      if (i < 0) return true;
      before.splice(i, 1);
      return false;
    }) : [];
    if (old && !actionLog(v)) this.narrate(old, v);
    this.keepSelectionValid();
    if (old && (old.to_move !== v.to_move || old.phase !== v.phase)) this.hint = null;
    this.render();
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

  narrate(a, b) {
    const la = lastAction(b);
    if (la && JSON.stringify(la) !== JSON.stringify(lastAction(a))) {
      this.addLog(la.seat ?? a.to_move, la.action);
      return;
    }
    const handA = handNumber(a);
    const handB = handNumber(b);
    if (handA !== handB && b.phase !== "over") { this.addLog(null, `hand ${handB} dealt`); return; }
    const seat = a.to_move;
    if (a.phase === "draw" && b.phase !== "draw" || (a.phase === "draw" && b.to_move !== seat)) {
      if ((a.pile?.length || 0) > (b.pile?.length || 0) + 0 && (b.pile?.length || 0) === 0) {
        this.addLog(seat, `took the pile (${a.pile.length} cards)`);
      } else if (stockSize(b) < stockSize(a)) {
        this.addLog(seat, "drew from the stock");
      }
    }
    const side = sideOf(a, seat);
    const before = a.sides?.[side]?.melds || {};
    const after = b.sides?.[side]?.melds || {};
    const added = [];
    for (const [r, cards] of Object.entries(after)) {
      const n = (before[r] || []).length;
      if (cards.length > n) added.push(`${rankLabel(r)}×${cards.length - n}`);
    }
    if (added.length) this.addLog(seat, `melded ${added.join(", ")}`);
    const redA = (a.sides?.[side]?.red_threes || []).length;
    const redB = (b.sides?.[side]?.red_threes || []).length;
    if (redB > redA) this.addLog(seat, `laid ${redB - redA === 1 ? "a red three" : `${redB - redA} red threes`}`);
    if (b.pile?.length === (a.pile?.length || 0) + 1 && a.to_move === seat && a.phase !== "draw") {
      this.addLog(seat, `discarded ${prettyCard(b.pile[b.pile.length - 1])}`);
    } else if (b.pile?.length && a.pile?.length !== undefined && b.pile.length > 0 &&
               b.pile[b.pile.length - 1] !== a.pile[a.pile.length - 1] && a.phase !== "draw") {
      this.addLog(seat, `discarded ${prettyCard(b.pile[b.pile.length - 1])}`);
    }
    if (b.phase === "answer" && a.phase !== "answer") this.addLog(seat, "asks partner: may I go out?");
    if (a.phase === "answer" && b.phase !== "answer" && b.answer) this.addLog(seat, `answered “${b.answer}”`);
    if (b.phase === "over" && a.phase !== "over") {
      const r = b.result || {};
      if (r.went_out !== null && r.went_out !== undefined) this.addLog(r.went_out, `went out${r.concealed ? " concealed" : ""}`);
      else this.addLog(null, "the hand is over");
    }
  }

  addLog(seat, text) {
    this.log.push({ seat, text, hand: this.view ? handNumber(this.view) : null });
    if (this.log.length > 200) this.log.shift();
  }

  // -- rendering ---------------------------------------------------------------------------------

  render() {
    const v = this.view;
    if (!v) return;
    const rules = tableRules(v);
    this.rules = rules;
    this.el.title.textContent = `Table ${this.tableId} · ${rules.label ?? ""}${rules.custom ? " (house rules)" : ""} · hand ${handNumber(v)}` +
      (this.seat === null ? " · watching" : "");
    this.el.title.title = (rules.house_rules || []).map((r) => r.text).join("\n");
    this.el.replayLink.hidden = !gameOver(v);
    this.el.hintBtn.hidden = this.seat === null;
    this.el.hintBtn.disabled = !this.myTurn;
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
    this.renderLegal();
    this.renderSheet();
    this.renderLog();
    this.renderResult();
    document.title = this.myTurn ? "● Your turn — Canasta" : "Canasta";
  }

  renderStatus() {
    const v = this.view;
    const el = clear(this.el.status);
    el.className = "status-line";
    const me = this.seat !== null ? seatInfo(v, this.seat) : null;
    if (me && me.controller === "bot") {
      add(el, h("span.badge.botseat", "A bot is playing your seat"),
        h("button.btn.small#claim-seat", { onclick: () => this.setBot(false) }, "Take my seat back"));
    }
    if (v.phase === "over") {
      add(el, gameOver(v) ? `Game over${winner(v) !== null ? ` — ${this.sideName(winner(v))} won` : ""}.` : "The hand is over.");
      if (!gameOver(v) && v.next_hand === "auto") add(el, " The next hand is dealt by itself.");
      el.classList.add("over");
      return;
    }
    const mover = v.to_move;
    if (this.myTurn) {
      el.classList.add("mine");
      const what = {
        draw: "draw from the stock or take the pile",
        play: "meld, then discard",
        answer: "your partner asks whether they may go out",
      }[v.phase] || v.phase;
      add(el, h("strong", "Your turn"), ` — ${what}.`);
      if (v.phase === "play" && v.answer) {
        add(el, " ", h("span.badge", v.answer === "yes" ? "Partner said yes: go out this turn" : "Partner said no: you may not go out"));
      }
    } else {
      add(el, h("span.spinner", { "aria-hidden": "true" }),
        `${this.name(mover)} ${mover === this.seat ? "are" : "is"} to ${v.phase === "answer" ? "answer" : "move"}`,
        v.phase === "answer" ? " (asked: may I go out?)" : "", "…");
    }
  }

  sideName(side) {
    const v = this.view;
    const n = seatCount(v);
    const seats = [];
    for (let s = 0; s < n; s++) if (sideOf(v, s) === side) seats.push(s);
    if (this.mySide === side) return "Your side";
    const names = playerNames(v);
    return seats.map((s) => names[s]).join(" & ");
  }

  sideShort(side) {
    const v = this.view;
    if (this.mySide === side) return "Us";
    if (this.mySide !== null && sideCount(v) === 2) return "Them";
    if (seatCount(v) === sideCount(v)) return playerNames(v)[side];
    const seats = [...Array(seatCount(v)).keys()].filter((s) => sideOf(v, s) === side);
    return `Seats ${seats.join(" & ")}`;
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
    const tags = [];
    if (s !== this.seat && this.seat !== null && side === this.mySide) tags.push(h("span.tag.partner", "partner"));
    const level = levelOf(v, s);
    if (level) tags.push(h("span.tag.bot", { title: "a bot at this level plays the seat" }, level));
    else if (isBotSeat(v, s)) tags.push(h("span.tag.bot", "bot"));
    if (v.dealer === s) tags.push(h("span.tag.dealer", { title: "dealer" }, "D"));
    const info = seatInfo(v, s);
    const online = info && info.controller === "human" && s !== this.seat
      ? h("span.online", { class: info.connected ? "on" : "", title: info.connected ? "connected" : "not connected" }) : null;
    const known = Array.isArray(v.known?.[s]) && v.known[s].length && s !== this.seat
      ? h("div.known", { title: `known to hold (taken with the pile): ${v.known[s].map(prettyCard).join(" ")}` }, "holds ",
        v.known[s].slice(0, 6).map(prettyCard).join(" "), v.known[s].length > 6 ? ` +${v.known[s].length - 6}` : "")
      : null;
    const said = last && last.seat === s && v.phase !== "over"
      ? h("div.said", { title: "the last move" }, actionWords(last.action, s === this.seat)) : null;
    const toMove = v.to_move === s && v.phase !== "over";
    return h(`div.seat.${SIDE_COLORS[side % 3]}`, {
      class: `spot-${spot}` + (toMove ? " to-move" : "") + (s === this.seat ? " me" : ""),
      dataset: { seat: s, role: "seat", spot },
      "aria-label": `${s === this.seat ? "you" : names[s]}, ${count} cards${toMove ? ", to play" : ""}`,
    },
    h("div.seat-name", s === this.seat ? "You" : names[s], ...tags, online),
    h("div.seat-count", h("span.mini-back"), h("b", `${count}`), toMove ? h("span.turn-chip", "to play") : null),
    known, said);
  }

  renderSides() {
    const v = this.view;
    const others = clear(this.el.others);
    const mine = clear(this.el.mine);
    const k = sideCount(v);
    const me = this.mySide ?? 0;
    const order = this.spots().map((x) => sideOf(v, x.seat)).filter((x, i, a) => a.indexOf(x) === i);
    others.dataset.sides = `${k - 1}`;
    for (const i of order) if (i !== me) add(others, this.sideEl(i));
    add(mine, this.sideEl(me));  // a spectator sees seat 0's side here
  }

  sideEl(i) {
    const v = this.view;
    const side = v.sides?.[i] || { melds: {}, red_threes: [] };
    const melds = side.melds || {};
    const ranks = Object.keys(melds).sort((a, b) => meldRankOrder(a) - meldRankOrder(b));
    const mine = this.mySide === i;
    const live = livePoints(v, i);
    const score = gameScores(v)[i] ?? side.score ?? 0;
    const points = [];
    if (live && live.opened) {
      points.push(h("span.live-total", { title: "on the table this hand: melds, canasta bonuses and red threes" }, fmtSigned(live.total)));
      const canastas = (live.natural_canastas ?? 0) + (live.mixed_canastas ?? 0);
      points.push(h("span.live-part", `melds ${live.melded}`));
      if (canastas) points.push(h("span.live-part.canasta-count", `${canastas} canasta${canastas > 1 ? "s" : ""} +${live.canastas}`));
    } else if (live) {
      points.push(h("span.badge.opening", { title: "the points this side's first meld needs" }, `opening needs ${live.minimum}`));
    }
    if (live && live.red_threes) points.push(h("span.live-part", `red 3s ${fmtSigned(live.red_threes)}`));
    // the seat at the bottom of the screen (a spectator's: seat 0) has its plate with its side
    const bottom = this.seat ?? 0;
    const plate = i === sideOf(v, bottom) ? this.plateEl(bottom, "bottom", lastAction(v)) : null;
    const header = h("div.side-head", plate,
      h("span.side-name", this.sideName(i)),
      h("span.side-score", { title: "the game score, ended hands counted" }, `game ${score}`),
      h("span.live", { dataset: { side: i } }, points),
      (side.hidden_canastas || []).length ? h("span.badge", `hidden: ${side.hidden_canastas.map(rankLabel).join(", ")}`) : null);
    const reds = (side.red_threes || []).length
      ? h("div.red-threes", { title: "red threes" }, side.red_threes.map((c) => cardEl(c, { cls: "small" }))) : null;
    const row = h("div.meld-row", { class: ranks.length ? "" : "empty" });
    if (!ranks.length) add(row, h("div.empty-melds", mine ? "No melds yet: select cards, then Meld." : "No melds yet."));
    for (const r of ranks) add(row, this.meldEl(r, melds[r], mine));
    return h(`section.side.${SIDE_COLORS[i % 3]}`, { class: mine ? "mine" : "", dataset: { side: i } },
      header, h("div.side-body", reds, row));
  }

  meldEl(rank, cards, mine) {
    const naturals = cards.filter((c) => !isWild(c));
    const wilds = cards.filter((c) => isWild(c));
    const ordered = [...sortCards(naturals), ...sortCards(wilds)];
    const isCanasta = cards.length >= tableRules(this.view).canasta_size;
    const natural = wilds.length === 0;
    let el;
    if (isCanasta) {
      // A closed canasta is squared up: a red card on top when natural, a black one when mixed.
      const topCard = natural ? (naturals.find(isRed) || naturals[0]) : (naturals.find((c) => !isRed(c)) || wilds.find((c) => c !== "JK") || ordered[0]);
      el = h("div.meld.canasta", { class: natural ? "natural" : "mixed", title: `${natural ? "natural" : "mixed"} canasta of ${rankLabel(rank)}: ${ordered.map(prettyCard).join(" ")}` },
        h("div.stack", h("div.stack-shadow"), h("div.stack-shadow"), cardEl(topCard, { cls: "small" })),
        h("div.canasta-badge", natural ? "natural" : "mixed", h("b", ` ${cards.length}`)));
    } else {
      el = h("div.meld", { title: `${rankLabel(rank)}: ${ordered.map(prettyCard).join(" ")}` },
        h("div.fan", ordered.map((c) => cardEl(c, { cls: "small" }))),
        h("div.meld-label", `${rankLabel(rank)} · ${cards.length}${wilds.length ? ` (${wilds.length}★)` : ""}`));
    }
    el.dataset.rank = rank;
    if (mine && this.myTurn) {
      el.classList.add("target");
      el.addEventListener("click", () => this.meldOnto(rank));
      this.setupDrop(el, (c) => { this.selected = c; this.meldOnto(rank); });
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
    if (this.can("draw")) stock.addEventListener("click", () => this.play("draw"));
    const pile = v.pile || [];
    const top = pile[pile.length - 1];
    // the server says whether, why and by which card the pile is frozen for this seat
    const freeze = pileFreeze(v);
    const frozenAll = freeze.frozen && freeze.for_everyone;
    const frozenForMe = freeze.frozen && !freeze.for_everyone;
    // the card that froze it lies under the pile: show it beside the pile
    const freezer = frozenAll ? freeze.card : null;
    const badges = [];
    const why = freeze.reason ? `frozen: ${freeze.reason}${freezer ? ` (${prettyCard(freezer)})` : ""}` : "frozen";
    if (frozenAll) badges.push(h("span.badge.frozen#pile-frozen", { title: why, "aria-label": why }, icon("snow"), freeze.reason ? `frozen: ${freeze.reason}` : "frozen"));
    else if (frozenForMe) badges.push(h("span.badge.frozen.soft#pile-frozen", { title: why, "aria-label": why }, icon("snow"), "frozen for your side"));
    if (top && isBlackThree(top)) badges.push(h("span.badge.blocked", icon("block"), "black three: blocked"));
    else if (top && isWild(top)) badges.push(h("span.badge.blocked", icon("block"), "wild card: blocked"));
    else if (top && isRedThree(top)) badges.push(h("span.badge.blocked", icon("block"), "red three: blocked"));
    const last = lastAction(v);
    const lastDiscard = this.lastDiscard();
    const pileStack = h("div.stack.pile-stack");
    if (pile.length > 2) add(pileStack, h("div.stack-shadow"));
    if (pile.length > 1) add(pileStack, h("div.stack-shadow"));
    const topChanged = top && this.prevTop !== undefined && this.prevTop !== `${pile.length}:${top}`;
    add(pileStack, top ? cardEl(top, { cls: "top" + (topChanged ? " arrive" : "") + (lastDiscard && lastDiscard.card === top ? " last-discard" : "") }) : h("div.card.empty-slot", "empty"));
    this.prevTop = top ? `${pile.length}:${top}` : null;
    const pileEl = h("div.pile#pile", { class: (this.can("take") ? "clickable " : "") + (frozenAll ? "is-frozen" : ""), title: "discard pile", dataset: { role: "pile" } },
      h("div.pile-cards", pileStack,
        freezer && freezer !== top ? h("div.freezer", { title: `${prettyCard(freezer)} froze the pile: ${freeze.reason}` }, cardEl(freezer, { cls: "small" }), h("span", "froze it")) : null),
      h("div.pile-label", h("b", `${pile.length}`), ` in pile`,
        lastDiscard && top === lastDiscard.card ? h("span.by", ` · ${this.name(lastDiscard.seat)} discarded it`) : null),
      h("div.pile-badges", badges));
    pileEl.addEventListener("click", () => {
      if (this.can("take")) this.takePile();
      else if (this.can("discard") && this.selected.length === 1) this.play(`discard ${this.selected[0]}`);
    });
    this.setupDrop(pileEl, (cards) => {
      if (this.myTurn && v.phase === "play" && cards.length === 1) this.play(`discard ${cards[0]}`);
      else if (this.myTurn && v.phase === "draw") { this.selected = cards; this.takePile(); }
    });
    const infoBits = [];
    if (last && v.phase !== "over") {
      infoBits.push(h("div.info-line.last-move#last-move", h("b", `${this.name(last.seat)} `), actionWords(last.action, last.seat === this.seat)));
    }
    if (v.phase !== "over") {
      const r = this.rules;
      const house = r.house_rules || [];
      infoBits.push(h("div.info-line.rules-line#rules-line",
        `${r.canastas_to_go_out} canasta${r.canastas_to_go_out === 1 ? "" : "s"} to go out`,
        r.draw_count > 1 ? ` · draw ${r.draw_count}` : "", ` · game to ${v.target ?? r.target_score}`,
        house.length ? h("span.house-rules", { title: house.map((x) => x.text).join("\n") }, ` · ${house.length} house rule${house.length === 1 ? "" : "s"}`) : null));
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
        h("button.close", { onclick: () => { this.error = null; this.renderMessage(); }, "aria-label": "dismiss" }, "×"));
    }
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
    el.hidden = !this.hint;
    if (!this.hint) return;
    const { action, reason } = this.hint;
    add(el, icon("bulb", "msg-icon"),
      h("div.hint-body",
        h("div", "Hint: ", h("b.hint-action", action ? prettyText(action) : "?")),
        reason ? h("div.hint-reason", prettyText(reason)) : null),
      action && this.isLegal(action) ? h("button.btn.small", { onclick: () => this.play(action) }, "Play it") : null,
      h("button.close", { onclick: () => { this.hint = null; this.renderHint(); }, "aria-label": "dismiss" }, "×"));
  }

  renderHand() {
    const el = clear(this.el.hand);
    const staging = clear(this.el.staging);
    staging.classList.remove("empty");
    staging.hidden = false;
    this.el.handZone.classList.toggle("spectating", this.seat === null);
    if (this.seat === null) {
      staging.hidden = true;
      add(el, h("div.spectator-note", "You are watching: hands are hidden. ",
        h("a", { href: "#/" }, "Back to the lobby")));
      return;
    }
    const free = this.freeHand();
    const chosen = [...this.selected];
    const fresh = [...(this.fresh || [])];
    const groups = groupByRank(free);
    for (const g of groups) {
      const gEl = h("div.hand-group", { dataset: { rank: g.rank } });
      const cardsEl = h("div.group-cards");
      for (const c of g.cards) {
        const i = chosen.indexOf(c);
        const sel = i >= 0;
        if (sel) chosen.splice(i, 1);
        const f = fresh.indexOf(c);
        if (f >= 0) fresh.splice(f, 1);
        const cEl = cardEl(c, { cls: (sel ? "selected" : "") + (f >= 0 ? " fresh" : ""), tag: "button" });
        cEl.type = "button";
        cEl.setAttribute("aria-pressed", sel ? "true" : "false");
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
        add(cardsEl, cEl);
      }
      const label = h("button.group-label", { type: "button", title: `select every ${rankLabel(g.rank)}`, onclick: () => this.selectGroup(g) },
        g.rank === "JK" ? "JK" : rankLabel(g.rank), g.cards.length > 1 ? h("sup", `${g.cards.length}`) : null);
      add(gEl, cardsEl, label);
      add(el, gEl);
    }
    if (!free.length && !this.staged.length) add(el, h("div.spectator-note", "No cards in hand."));
    requestAnimationFrame(() => this.fitHand());
    // staged groups (several groups for one meld or take)
    if (this.staged.length) {
      const pts = this.staged.reduce((s, g) => s + g.cards.reduce((a, c) => a + this.points(c), 0), 0);
      add(staging, h("span.staging-title", "Groups to lay together:"));
      this.staged.forEach((g, idx) => {
        const allWild = g.cards.every(isWild);
        const rankSel = allWild ? this.rankSelect(g) : null;
        add(staging, h("div.staged-group",
          h("div.fan.flat", g.cards.map((c) => cardEl(c, { cls: "small" }))),
          rankSel,
          h("button.close", { title: "put back", onclick: () => { this.staged.splice(idx, 1); this.render(); } }, "×")));
      });
      add(staging, h("span.staging-pts", `${pts} pts`));
    } else if (!this.myTurn || this.view.phase === "answer") {
      staging.hidden = true;
    } else {
      staging.classList.add("empty");
      add(staging, h("span.staging-empty", "Tip: select cards and press “+ Group” to build several melds at once (an opening), or drag cards here."));
    }
    this.renderSelInfo();
  }

  /** Overlap the groups of the hand just enough to keep it on one line (wraps past that). */
  fitHand() {
    const el = this.el.hand;
    const groups = [...el.querySelectorAll(".hand-group")];
    el.style.removeProperty("--group-shift");
    if (groups.length < 2) return;
    const card = el.querySelector(".card");
    if (!card) return;
    const w = card.getBoundingClientRect().width;
    const avail = el.clientWidth - 12;
    const n = el.querySelectorAll(".card").length;
    const inGroup = 0.42 * w;
    const gap = parseFloat(getComputedStyle(el).columnGap) || 0;
    const natural = groups.length * w + (n - groups.length) * inGroup + (groups.length - 1) * gap;
    if (natural <= avail) return;
    const step = (avail - w - (n - groups.length) * inGroup) / (groups.length - 1);
    if (step < 0.55 * w) return;  // too tight: let it wrap
    el.style.setProperty("--group-shift", `${Math.floor(step - w - gap)}px`);
    if (groups[groups.length - 1].offsetTop > groups[0].offsetTop + 4) el.style.removeProperty("--group-shift");
  }

  rankSelect(g) {
    const v = this.view;
    const ranks = new Set(Object.keys(v.sides?.[this.mySide]?.melds || {}));
    for (const o of this.staged) {
      const nat = o.cards.find((c) => !isWild(c));
      if (nat) ranks.add(rankOf(nat));
    }
    const sel = h("select.rank-select", { title: "the meld these wild cards join", onchange: (e) => { g.rank = e.target.value || null; } },
      h("option", { value: "" }, "joins…"),
      [...ranks].filter((r) => r !== "3").sort((a, b) => meldRankOrder(a) - meldRankOrder(b))
        .map((r) => h("option", { value: r, selected: g.rank === r }, rankLabel(r))));
    return sel;
  }

  /** What a card counts in a meld under the table's rules. */
  points(c) {
    return this.view.card_points?.[c] ?? 0;
  }

  renderSelInfo() {
    const el = clear(this.el.selInfo);
    if (!this.selected.length) return;
    const pts = this.selected.reduce((s, c) => s + this.points(c), 0);
    const live = this.mySide !== null ? livePoints(this.view, this.mySide) : null;
    const staged = this.staged.reduce((s, g) => s + g.cards.reduce((a, c) => a + this.points(c), 0), 0);
    const need = live && !live.opened && live.minimum ? live.minimum : null;
    add(el, h("span.sel-cards", `${this.selected.length} selected: ${this.selected.map(prettyCard).join(" ")} · `),
      h("b#sel-points", `${pts + staged} pts`),
      need ? h("span", { class: pts + staged >= need ? "ok" : "short" }, ` of ${need} to open`) : null,
      h("button.link", { onclick: () => { this.selected = []; this.render(); } }, "clear"));
  }

  toggle(card, wasSelected, at = performance.now()) {
    // a second tap on the same card soon after the first discards it (phones: double-tap);
    // the taps' own times count, not when a busy page got round to them
    const now = at;
    const again = this.lastTap && this.lastTap.card === card && now - this.lastTap.at < 400;
    this.lastTap = { card, at: now };
    if (again && this.can("discard") && !this.staged.length) {
      this.lastTap = null;
      this.selected = [];
      this.play(`discard ${card}`);
      return;
    }
    if (wasSelected) {
      const i = this.selected.indexOf(card);
      if (i >= 0) this.selected.splice(i, 1);
    } else {
      this.selected.push(card);
    }
    this.error = null;
    this.render();
  }

  selectGroup(g) {
    const all = g.cards.every((c) => this.selected.filter((x) => x === c).length >= g.cards.filter((x) => x === c).length);
    this.selected = this.selected.filter((c) => rankOf(c) !== g.rank);
    if (!all) this.selected.push(...g.cards);
    this.render();
  }

  stageCards(cards) {
    if (!this.myTurn) return;
    const cs = cards && cards.length ? cards : this.selected;
    if (!cs.length) return;
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
    if (this.selected.length) groups.push({ cards: [...this.selected], rank: null });
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
    if (!this.selected.length) { this.showError(`Select cards first, then click the ${rankLabel(rank)} meld to add them.`); return; }
    if (this.view.phase === "draw") { this.takePile(); return; }
    const cards = sortCards(this.selected);
    // a meld is of one rank, so a natural card of another rank cannot join it: say so now,
    // in the player's words, rather than send a meld the server would refuse
    const strangers = cards.filter((c) => !isWild(c) && rankOf(c) !== rank);
    if (strangers.length) {
      const names = strangers.map(prettyCard);
      const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
      this.showError(`${who} cannot join the ${rankPlural(rank)}: a meld holds cards of one rank, with wild cards`);
      return;
    }
    const allWild = cards.every(isWild);
    this.play(`meld ${allWild ? `${rank}: ` : ""}${cards.join(" ")}`);
  }

  takePile() {
    if (!this.can("take")) return;
    this.play(this.takeText());
  }

  renderActions() {
    const v = this.view;
    const el = clear(this.el.actions);
    if (this.seat === null) return;
    const btn = (id, label, enabled, onclick, cls = "", title = "") =>
      h(`button.btn${cls}#${id}`, { disabled: !enabled, onclick, title: title || null }, label);
    const sel = this.selected.length;
    const phase = v.phase;
    const mine = this.myTurn;
    if (mine && phase === "draw") {
      add(el, btn("btn-draw", "Draw", this.can("draw"), () => this.play("draw"), ".primary", "draw from the stock"));
      add(el, btn("btn-take", sel || this.staged.length ? "Take pile with selected" : "Take pile", this.can("take"), () => this.takePile(), "",
        "take the discard pile: select the cards that go with its top card"));
      if (this.can("pass")) add(el, btn("btn-pass", "Pass", true, () => this.play("pass")));
      if (this.rules.ask_partner && this.can("ask")) add(el, btn("btn-ask", "Ask partner", true, () => this.play("ask"), "", "“Partner, may I go out?” before drawing"));
    }
    if (mine && phase === "play") {
      const meld = this.meldText();
      add(el, btn("btn-meld", this.staged.length && sel ? "Meld all groups" : this.staged.length ? "Meld groups" : "Meld", !this.busy && !!meld, () => this.play(meld), ".primary",
        this.can("meld") ? "meld the selected cards" : "no meld is legal now: the server will say why"));
      add(el, btn("btn-discard", "Discard", this.can("discard") && sel === 1, () => this.play(`discard ${this.selected[0]}`), "",
        "select one card to discard"));
      if (this.rules.ask_partner) add(el, btn("btn-ask", "Ask partner", this.can("ask"), () => this.play("ask"), "", "“Partner, may I go out?”"));
      if (this.can("pass")) add(el, btn("btn-pass", "Stop melding", true, () => this.play("pass"), "", "the stock's last card was a red three: end the hand"));
    }
    if (mine && (phase === "play" || phase === "draw")) {
      add(el, btn("btn-group", "+ Group", sel > 0, () => this.stageCards(), ".ghost", "set the selected cards aside as one group of a multi-group meld"));
    }
    if (mine && (sel || this.staged.length)) {
      add(el, btn("btn-clear", "Clear", true, () => { this.selected = []; this.staged = []; this.error = null; this.render(); }, ".ghost"));
    }
    if (!mine && phase !== "over") add(el, h("span.waiting", "Waiting for the other players…"));
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
    const list = h("ol.legal-list#legal-list");
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
    add(el, h("div.panel-head", h("h3", "Score sheet"), h("span.muted", `to ${v.target ?? this.rules.target_score}`)));
    const head = h("tr", h("th", "Hand"), [...Array(k).keys()].map((i) => h("th", { class: SIDE_COLORS[i % 3], title: this.sideName(i) }, this.sideShort(i))));
    const body = h("tbody");
    for (const r of rows) {
      add(body, h("tr", h("td", `${r.hand}`), [...Array(k).keys()].map((i) =>
        h("td", h("span.delta", { class: (r.totals[i] ?? 0) < 0 ? "neg" : "" }, fmtSigned(r.totals[i] ?? 0)), h("span.run", `${r.running[i] ?? ""}`)))));
    }
    const foot = h("tr.total", h("td", "Total"), [...Array(k).keys()].map((i) => h("td", `${totals[i] ?? 0}`)));
    add(el, h("table.sheet-table", h("thead", head), body, h("tfoot", foot)));
  }

  renderLog() {
    const el = clear(this.el.logBox);
    add(el, h("div.panel-head", h("h3", "Table talk")));
    const serverLog = actionLog(this.view);
    const list = h("ol.log-list#talk");
    const items = serverLog
      ? serverLog.slice(-40).map((line) => {
        const m = typeof line === "string" ? /^p(\d+):\s*(.*)$/.exec(line) : null;
        const seat = m ? Number(m[1]) : line?.seat ?? null;
        return { seat, text: actionWords(m ? m[2] : line?.action ?? String(line), seat === this.seat) };
      })
      : this.log.slice(-40);
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
    if (v.phase !== "over" || !v.result || this.resultDismissed === key) {
      el.hidden = true;
      clear(el);
      if (v.phase === "over" && this.resultDismissed === key) {
        add(this.el.status, " ", h("button.link", { onclick: () => { this.resultDismissed = null; this.render(); } }, "show the score"));
      }
      return;
    }
    clear(el);
    el.hidden = false;
    const r = v.result;
    const k = sideCount(v);
    const rowsDef = [
      ["melded", "Cards melded"], ["canastas", "Canasta bonuses"], ["hidden", "Hidden canastas"],
      ["red_threes", "Red threes"], ["going_out", "Going out"], ["in_hand", "Cards left in hand"],
    ];
    const head = h("tr", h("th", ""), [...Array(k).keys()].map((i) => h("th", { class: SIDE_COLORS[i % 3], title: this.sideName(i) }, this.sideShort(i))));
    const body = h("tbody");
    for (const [key2, label] of rowsDef) {
      if (key2 === "hidden" && r.sides.every((s) => !s.hidden)) continue;
      add(body, h("tr", h("th", label), r.sides.map((s) => {
        const val = key2 === "in_hand" ? -(s.in_hand ?? 0) : s[key2] ?? 0;
        return h("td", { class: val < 0 ? "neg" : "" }, fmtSigned(val));
      })));
    }
    const scores = gameScores(v);
    const before = (v.sides || []).map((s) => s.score ?? 0);
    add(body, h("tr.total", h("th", "Hand total"), r.sides.map((s) => h("td", { class: s.total < 0 ? "neg" : "" }, fmtSigned(s.total)))));
    const after = before.map((b, i) => (scores[i] !== undefined && scores[i] !== b ? scores[i] : b + (r.sides[i]?.total ?? 0)));
    add(body, h("tr.running", h("th", "Game score"), after.map((s) => h("td", `${s}`))));
    let headline;
    if (r.void) headline = "Void hand: nobody scores.";
    else if (r.went_out !== null && r.went_out !== undefined) headline = `${this.name(r.went_out)} went out${r.concealed ? " concealed" : ""}.`;
    else headline = "The stock ran out.";
    const over = gameOver(v);
    const win = winner(v);
    const buttons = [];
    if (!over && this.seat !== null && v.next_hand !== "auto") {
      buttons.push(h("button.btn.primary#next-hand", { onclick: () => this.nextHand() }, "Next hand"));
    } else if (!over) {
      buttons.push(h("span.muted", "The next hand is dealt by itself."));
    }
    if (over) buttons.push(h("a.btn.primary", { href: `#/replay/${encodeURIComponent(this.tableId)}` }, "Watch the replay"));
    buttons.push(h("button.btn.ghost", { onclick: () => { this.resultDismissed = key; this.render(); } }, "Look at the table"));
    buttons.push(h("a.btn.ghost", { href: "#/" }, "Lobby"));
    add(el, h("div.result-card#score-breakdown", { role: "dialog", "aria-label": "hand score" },
      h("h2", over ? `Game over${win !== null ? ` — ${this.sideName(win)} ${win === this.mySide ? "win" : "wins"}!` : ""}` : `Hand ${handNumber(v)} is over`),
      h("p.headline", headline),
      h("table.breakdown", h("thead", head), body),
      this.handsRevealed(),
      h("div.result-actions", buttons)));
  }

  /** Every seat's cards left in hand at the end of the hand, with what they count. */
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
        hd.length ? h("div.fan.flat", sortCards(hd).map((c) => cardEl(c, { cls: "small" }))) : h("span.muted", "went out"),
        h("span.pts", hd.length ? `−${pts}` : "")));
    });
    return rows.length ? h("div.revealed-hands#revealed", h("h3", "Cards left in hand"), rows) : null;
  }

  async nextHand() {
    if (this.busy) return;
    this.busy = true;
    try {
      const v = viewOf(await api.next(this.tableId, this.token));
      this.busy = false;
      if (v) this.setView(v);
      this.live.refresh();
    } catch (e) {
      this.busy = false;
      this.showError(e.message);
    } finally {
      this.busy = false;
      this.render();
    }
  }

  async setBot(on) {
    try {
      const r = on ? await api.toBot(this.tableId, this.seat, this.token) : await api.claim(this.tableId, this.seat, this.token);
      const v = viewOf(r);
      if (v) this.setView(v);
      toast(on ? "A bot plays your seat now" : "Your seat is yours again", "ok");
    } catch (e) {
      this.showError(e.message);
    }
  }

  async askHint() {
    if (!this.myTurn) return;
    try {
      const r = await api.hint(this.tableId, this.token);
      let action = null;
      let reason = null;
      if (typeof r === "string") action = r;
      else if (r) {
        action = r.action ?? r.hint ?? r.move ?? null;
        reason = r.reason ?? r.why ?? r.explanation ?? r.because ?? null;
        if (Array.isArray(reason)) reason = reason.join("; ");
      }
      this.hint = { action, reason };
      if (action) {
        const cs = cardsInAction(action);
        const hand = this.freeHand();
        this.selected = cs.filter((c) => { const i = hand.indexOf(c); if (i < 0) return false; hand.splice(i, 1); return true; });
        if (/^take/.test(action) || /^draw|^ask|^yes|^no|^pass/.test(action)) this.selected = cs.length ? this.selected : [];
      }
      this.render();
    } catch (e) {
      this.showError(e.message);
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
      this.hint = null;
      const v = viewOf(r);
      this.busy = false;
      if (v) this.setView(v);
      else this.render();
      this.live.refresh();  // the socket may have pushed later views before this reply
    } catch (e) {
      this.busy = false;
      const text = e instanceof ApiError ? e.message : String(e);
      this.error = e.status === 403 ? `Not your seat: ${text}` : text;
      this.render();
      this.showError(this.error);
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

function fmtSigned(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return "0";
}
