// Reading a view (NOTATION §3 position plus the server's extras) without depending on details
// the server may still change: every extra key is looked up under its likely names.

/**
 * A view as the page reads it: the server's reply ({table_id, seat, status, legal, position,
 * seats, history, scores, score_sheet, ...}) with the NOTATION §3 position's keys lifted to the
 * top (the position's to_move stays meaningful once the hand is over). A bare position passes.
 */
export function normalizeView(raw) {
  if (!raw || typeof raw !== "object") return null;
  const pos = raw.position;
  if (pos && typeof pos === "object" && "phase" in pos) {
    return { ...raw, ...pos, seat: raw.seat ?? pos.seat ?? null, position: pos };
  }
  return "phase" in raw ? raw : null;
}

export function seatCount(v) {
  return Array.isArray(v.hands) ? v.hands.length : v.table_rules?.players ?? 0;
}

export function sideCount(v) {
  return Array.isArray(v.sides) ? v.sides.length : v.table_rules?.sides ?? 0;
}

/** The rule facts the server states for the table (API.md, *Views*: table_rules). */
export function tableRules(v) {
  return v.table_rules ?? {};
}

/** The family's facts of the view (what a screen states: Family.facts on the server). */
export function factsOf(v) {
  return v.facts ?? {};
}

/** Whether the pile is frozen for this view's seat, why, by which card, and why nobody may
 * take it whatever they hold (the facts' pile). */
export function pileFreeze(v) {
  const p = factsOf(v).pile ?? {};
  return { frozen: !!p.frozen, reason: p.why ?? null, card: p.frozen_by ?? null,
           blocked: p.blocked ?? null, note: p.note ?? null };
}

/** The index of the melds a seat plays on (its side's; the facts' melds_of). */
export function meldsOf(v, seat) {
  const m = factsOf(v).melds_of;
  return Array.isArray(m) ? m[seat] : seat % sideCount(v);
}

export const sideOf = (v, seat) => seat % sideCount(v);

export function mySeat(v) {
  return Number.isInteger(v.seat) ? v.seat : null;
}

export function handOf(v, seat) {
  const h = v.hands?.[seat];
  return Array.isArray(h) ? h : null;
}

export function handSize(v, seat) {
  const h = v.hands?.[seat];
  return Array.isArray(h) ? h.length : Number(h) || 0;
}

export function stockSize(v) {
  return Array.isArray(v.stock) ? v.stock.length : Number(v.stock) || 0;
}

/** Player names by seat: the server's display names (bots get friendly names), else
 * view.players (names or seat objects), else "Seat N". */
export function playerNames(v) {
  const n = seatCount(v);
  if (Array.isArray(v.names) && v.names.length === n && v.names.every((x) => x && typeof x.name === "string")) {
    return v.names.map((x) => x.name);
  }
  const src = v.seats ?? v.players ?? null;
  const out = [];
  for (let i = 0; i < n; i++) {
    let p = Array.isArray(src) ? src[i] : null;
    if (p && typeof p === "object") p = p.name ?? p.player ?? null;
    out.push(typeof p === "string" && p ? prettyName(p) : `Seat ${i}`);
  }
  return out;
}

/** Whether a seat is played by a bot, where the view tells. */
export function isBotSeat(v, seat) {
  const src = v.seats ?? v.players ?? null;
  let p = Array.isArray(src) ? src[seat] : null;
  if (p && typeof p === "object") {
    if (p.controller) return p.controller === "bot";
    p = p.name ?? null;
  }
  return typeof p === "string" && /^bot\b/i.test(p);
}

export function legalList(v) {
  const l = v.legal ?? v.legal_actions ?? null;
  return Array.isArray(l) ? l.map(String) : null;
}

/** Cumulative scores per side (the game so far). */
export function gameScores(v) {
  const s = v.scores ?? v.game?.scores ?? v.score ?? null;
  if (Array.isArray(s) && s.every((x) => typeof x === "number")) return s;
  if (Array.isArray(s) && s.every((x) => x && typeof x.total === "number")) return s.map((x) => x.total);
  return (v.sides || []).map((side) => side.score ?? 0);
}

/**
 * The score sheet as rows {hand, totals: [per side], running: [per side], detail?}, whatever
 * the server's spelling (score_sheet / scoresheet / sheet / hands; rows as objects or arrays).
 */
export function scoreSheet(v) {
  const raw = v.score_sheet ?? v.scoresheet ?? v.sheet ?? null;
  const nSides = sideCount(v);
  let rows = null;
  if (Array.isArray(raw)) rows = raw;
  else if (raw && Array.isArray(raw.hands)) rows = raw.hands;
  else if (raw && Array.isArray(raw.rows)) rows = raw.rows;
  if (!rows) return [];
  const running = new Array(nSides).fill(0);
  return rows.map((r, i) => {
    let totals = null;
    let cumulative = null;
    let detail = null;
    if (Array.isArray(r)) totals = r;
    else if (r && typeof r === "object") {
      const res = r.result ?? r;
      if (Array.isArray(res.sides)) {
        totals = res.sides.map((s) => (typeof s === "number" ? s : s.total ?? 0));
        if (res.sides.every((s) => s && typeof s === "object")) detail = res;
      }
      totals = r.totals ?? r.hand_scores ?? r.points ?? totals;
      cumulative = r.scores ?? r.running ?? r.cumulative ?? r.after ?? null;
    }
    totals = (totals || []).map(Number);
    totals.forEach((t, k) => { running[k] = (running[k] ?? 0) + t; });
    const run = Array.isArray(cumulative) ? cumulative.map(Number) : [...running];
    return { hand: r?.hand ?? r?.number ?? i + 1, totals, running: run, detail,
             wentOut: r?.went_out ?? r?.result?.went_out ?? null,
             score: r?.score ?? null, ending: r?.ending ?? null };
  });
}

export function handNumber(v) {
  return v.hand_number ?? v.hand ?? v.game?.hand_number ?? v.game?.hand ?? (scoreSheet(v).length + (v.phase === "over" ? 0 : 1));
}

export function gameOver(v) {
  if (typeof v.status === "string") return v.status === "game_over";
  if (typeof v.game_over === "boolean") return v.game_over;
  return v.winner !== undefined && v.winner !== null;
}

export function winner(v) {
  return v.winner ?? v.game?.winner ?? null;
}

/** A monotonic counter of the table's progress, where the server sends one. */
export function versionOf(v) {
  for (const k of ["version", "seq", "step", "move_number", "moves", "ply"]) {
    if (typeof v[k] === "number") return v[k];
  }
  return null;
}

/** The last action, where the server tells: {seat, action} or null. */
export function lastAction(v) {
  const la = v.last_action ?? v.last ?? null;
  if (!la) return null;
  if (typeof la === "string") {
    const m = /^p(\d+):\s*(.*)$/.exec(la);
    return m ? { seat: Number(m[1]), action: m[2] } : { seat: null, action: la };
  }
  if (typeof la === "object") return { seat: la.seat ?? la.player ?? null, action: la.action ?? la.text ?? "" };
  return null;
}

/** Action lines of the hand so far, where the server sends them. */
export function actionLog(v) {
  const l = v.history ?? v.log ?? null;
  return Array.isArray(l) ? l : null;
}

/** "bot:heuristic" -> "Heuristic bot"; other names as they are. */
export function prettyName(p) {
  const m = /^bot:([^:,]+)/i.exec(p);
  if (!m) return p;
  const spec = m[1].trim();
  return `${spec.charAt(0).toUpperCase()}${spec.slice(1)} bot`;
}

/** The seat object of the view ({seat, name, controller, bot, connected}), where there is one. */
export function seatInfo(v, seat) {
  const p = Array.isArray(v.seats) ? v.seats[seat] : null;
  return p && typeof p === "object" ? p : null;
}

/** Is it this view's seat's turn (a human's turn: not while a bot plays the seat)? */
export function yourTurn(v) {
  if (typeof v.your_turn === "boolean") return v.your_turn;
  return Number.isInteger(v.seat) && v.to_move === v.seat && v.phase !== "over";
}

/** The level of the bot playing a seat ("medium"), or null for a person. */
export function levelOf(v, seat) {
  const x = Array.isArray(v.names) ? v.names[seat] : null;
  return x && typeof x.level === "string" ? x.level : null;
}

/** A side's running points this hand, from the facts: {total, melds, canastas, laid, opened,
 * minimum (while it has not melded), canastaCount}. */
export function livePoints(v, side) {
  const f = factsOf(v);
  const seat = [...Array(seatCount(v)).keys()].find((s) => sideOf(v, s) === side) ?? side;
  const owner = meldsOf(v, seat);
  const points = f.table_points?.[owner];
  if (!points) return null;
  const melds = f.melds?.[owner] ?? [];
  return { ...points, opened: melds.length > 0, minimum: melds.length ? null : f.opening_minimum?.[side] ?? null,
           canastaCount: melds.filter((m) => m.canasta).length };
}
