// The Modern American table (/modern.html): the server sends what a seat sees and its legal
// actions in the notation (docs/notation.md, "Modern American"); the page shows them and plays
// the one the player taps. The server is the only judge: a refusal comes back in words.
//
// Two kinds of table: one person against three bots (#/m/ID?token=T, /api/modern), and a room
// of the lobby with seats for several people and bots (#/r/ID?token=T for a seat, #/r/ID to
// watch; /api/tables and the WebSocket /ws/tables/ID, which pushes every change).
import { cardEl, prettyCard, sortCards } from "./cards.js";

const root = document.getElementById("modern");
const KEY_NAMES = { W: "wild cards", A: "aces", K: "kings", Q: "queens", J: "jacks", T: "tens",
  9: "nines", 8: "eights", 7: "sevens", 6: "sixes", 5: "fives", 4: "fours" };
const SEAT_CHOICES = [["modern-heuristic", "Bot: medium (modern-heuristic)"],
  ["modern-search", "Bot: hard (modern-search)"], ["modern-greedy", "Bot: easy (modern-greedy)"],
  ["modern-random", "Bot: random (modern-random)"], ["human", "A person (invite them)"]];
let game = null;      // {id, token, room}: token null for a spectator of a room
let refusal = null;   // the last refusal's words
let shown = -1;       // the version of the room view on screen (older pushes are skipped)
let socket = null;
let hint = null;      // the hint on screen, for the position it was asked in
let onScreen = null;  // the view on screen

const pretty = (text) => text.replace(/\b(JK|[2-9TJQKA][cdhs])\b/g, (c) => prettyCard(c));

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

const present = (...parts) => parts.filter((p) => p != null);

async function fetchJson(url, method, body) {
  const r = await fetch(url, { method, headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => ({ words: "The server did not answer clearly." }));
  if (!r.ok) throw new Error(data.words || data.error || `error ${r.status}`);
  return data;
}

async function call(path, method = "GET", body = undefined) {
  const url = `/api/modern/tables${path}${game ? `?token=${encodeURIComponent(game.token)}` : ""}`;
  return fetchJson(url, method, body);
}

// A room of the lobby: the token travels in the body or the query, never in a socket's URL.
async function roomCall(path, method = "GET", body = undefined) {
  const id = encodeURIComponent(game.id);
  if (method === "GET") {
    const q = game.token ? `?token=${encodeURIComponent(game.token)}` : "";
    return fetchJson(`/api/tables/${id}${path}${q}`, method);
  }
  return fetchJson(`/api/tables/${id}${path}`, method, { token: game.token, ...body });
}

// Who sits where, as this view's reader sees it: "me" is the reader's seat (0 for the one-person
// table, null for a spectator).
const me = (view) => (game && game.room ? view.seat : 0);
const nameOf = (view, s) => {
  const n = view.names[s];
  return typeof n === "string" ? n : n.bot && n.level ? `${n.name} (${n.level})` : n.name;
};
const sideOf = (seat) => seat % 2;
function sideWords(view, side) {
  const seat = me(view);
  const [a, b] = [side, side + 2];
  if (seat !== null && sideOf(seat) === side) {
    return `Your side (you and ${nameOf(view, seat === a ? b : a)})`;
  }
  return `${nameOf(view, a)} and ${nameOf(view, b)}`;
}

function melds(side, view) {
  const box = el("div", { class: "melds" });
  const entries = Object.entries(view.position.sides[side].melds);
  if (!entries.length) box.append(el("span", {}, "no melds yet"));
  for (const [key, cards] of entries) {
    const row = el("div", { class: "row" });
    for (const c of cards) row.append(cardEl(c));
    const done = view.canastas[side].includes(key);  // the server says which are canastas
    box.append(el("div", { class: "meld" + (done ? " canasta" : ""), "data-meld": key },
      el("div", { class: "label" }, `${KEY_NAMES[key] || key} · ${cards.length}` +
        (done ? " · canasta" : "")), row));
  }
  return box;
}

function sidePanel(side, view) {
  const p = view.position;
  const who = game.room ? sideWords(view, side)
    : side === 0 ? "Your side (you and Pat)" : "Eva and Carla";
  const threes = p.sides[side].threes;
  return el("section", { class: "panel", "data-side": String(side) },
    el("h2", {}, `${who}: ${view.scores[side]}`),
    melds(side, view),
    threes.length ? el("div", { class: "row", "aria-label": "threes laid" },
      el("span", {}, "Threes: "), ...threes.map((c) => cardEl(c))) : null);
}

function table(view) {
  const p = view.position;
  const top = p.pile.length ? prettyCard(p.pile[p.pile.length - 1]) : "empty";
  const facts = [`Pile: ${p.pile.length} cards, top ${top}`, `Stock: ${p.stock} cards`,
    view.turn_card_drawn ? "the turn card is drawn: no more talons" : "the turn card is still in the stock"];
  if (view.dead.length) facts.push(`dead: ${view.dead.map((k) => KEY_NAMES[k] || k).join(", ")}`);
  if (p.turn && p.turn.talon && p.to_move === me(view)) {
    facts.push(`your talon of ${p.turn.talon} comes after your discard`);
  }
  const others = [0, 1, 2, 3].filter((s) => s !== me(view))
    .map((s) => `${nameOf(view, s)} ${p.hands[s]}`).join(", ");
  return el("section", { class: "panel", "data-role": "table" },
    el("div", {}, facts.join(" · ")), el("div", {}, `Cards in hand: ${others}`));
}

function hand(view) {
  const p = view.position;
  const seat = me(view);
  if (seat === null) return null;  // a spectator sees no hand
  const legal = new Set(view.legal);
  const row = el("div", { class: "row hand", "data-role": "hand" });
  for (const c of sortCards(p.hands[seat])) {
    const discard = `discard ${c}`;
    if (legal.has(discard)) {
      const b = el("button", { class: "card-button", "aria-label": `discard ${prettyCard(c)}`,
        onclick: () => act(discard) });
      b.append(cardEl(c));
      row.append(b);
    } else row.append(cardEl(c));
  }
  return el("section", { class: "panel" }, el("h2", {}, "Your hand"), row);
}

// A legal action in a player's words (the server's text stays the button's data-action).
function label(action) {
  const [verb, ...rest] = action.split(" ");
  const cards = pretty(rest.join(" ")).replace(/\bW: /g, "wild cards: ");
  switch (verb) {
    case "keep": return rest[0] === "none" ? "Lay all my threes" : `Keep ${cards}, lay the other threes`;
    case "draw": return "Draw from the stock";
    case "take": return `Pick the pack with ${cards}`;
    case "meld": return `Meld ${cards}`;
    case "discard": return `Discard ${cards}`;
    case "special": return `Lay the special hand ${rest.join(" ")}`;
    case "ask": return "Ask my partner: may I go out?";
    case "pass": return "Leave the pack (the hand ends)";
    case "yes": return "Yes, go out";
    case "no": return "No, do not go out";
    default: return pretty(action);
  }
}

function actions(view) {
  const box = el("div", { class: "actions", "data-role": "actions" });
  for (const a of view.legal) {
    box.append(el("button", { "data-action": a, onclick: () => act(a) }, label(a)));
  }
  const ask = el("button", { class: "hint-button", "data-role": "hint", onclick: askHint,
    title: "What would the hard bot play here, and why?" }, "Hint");
  return el("section", { class: "panel" }, el("h2", {}, "Your moves"), box, ask,
    hint ? el("p", { class: "hint", "data-role": "hint-text", role: "status" }, hint) : null);
}

// The server's hint bot (modern-search) answers for the seat to move; its words are shown.
async function askHint() {
  try {
    const r = game.room ? await roomCall("/hint") : await call(`/${game.id}/hint`);
    const move = label(r.action).replace(/\bmy\b/g, "your");  // the buttons speak as the player
    hint = `Hint: ${move}. ${r.words || ""}`.trim();
  } catch (e) {
    hint = `No hint: ${e.message}`;
  }
  if (onScreen) render(onScreen);
}

function result(view) {
  const r = view.position.result;
  if (!r) return null;
  const rows = [["Cards melded", "melded"], ["Canasta and going-out bonuses", "bonuses"],
    ["Threes", "threes"], ["Penalties", "penalties"], ["Cards left in hand", "in_hand"],
    ["Special hand", "special"], ["Hand total", "total"]];
  const how = r.special ? `${nameOf(view, r.special.seat)} laid a special hand: ${r.special.name}`
    : r.went_out !== null ? `${nameOf(view, r.went_out)} went out` : "the stock ran out";
  const heads = game.room ? [sideWords(view, 0), sideWords(view, 1)]
    : ["You and Pat", "Eva and Carla"];
  const t = el("table", { class: "score" }, el("tr", {}, el("th", {}, ""),
    el("th", {}, heads[0]), el("th", {}, heads[1])));
  for (const [label, key] of rows) {
    t.append(el("tr", {}, el("td", {}, label), el("td", {}, String(r.sides[0][key])),
      el("td", {}, String(r.sides[1][key]))));
  }
  t.append(el("tr", {}, el("td", {}, "Game score"), el("td", {}, String(view.scores[0])),
    el("td", {}, String(view.scores[1]))));
  const over = view.winner !== null;
  const winners = game.room ? `${sideWords(view, view.winner)} wins`
    : view.winner === 0 ? "your side wins" : "Eva and Carla win";
  const mayDeal = !over && (!game.room || (me(view) !== null && view.next_hand === "request"));
  return el("section", { class: "panel", id: "hand-over" },
    el("h2", {}, over ? `Game over: ${winners}.` : `Hand ${view.hand_number} is over: ${how}.`), t,
    mayDeal ? el("button", { id: "next-hand", onclick: nextHand }, "Next hand") : null);
}

// A room's seats: who plays each, who is connected, and the links that seat the others.
function seatsPanel(view) {
  if (!game.room) return null;
  const list = el("ul", { class: "seats", "data-role": "seats" });
  for (const s of view.seats) {
    const who = s.controller === "bot" ? `${nameOf(view, s.seat)} · bot` : nameOf(view, s.seat);
    const here = s.controller === "bot" ? "" : s.connected ? " · here" : " · away";
    const you = s.seat === view.seat ? " (you)" : "";
    list.append(el("li", { "data-seat": String(s.seat) }, `Seat ${s.seat + 1}: ${who}${you}${here}`));
  }
  const invites = JSON.parse(localStorage.getItem(`modern-invites-${view.table_id}`) || "{}");
  const links = Object.entries(invites).filter(([seat]) => Number(seat) !== view.seat)
    .map(([seat, token]) => el("li", {}, el("a", {
      href: `${location.pathname}#/r/${view.table_id}?token=${token}`, "data-invite": seat },
    `Link for seat ${Number(seat) + 1}`), " (send it to that player)"));
  const watch = el("a", { href: `${location.pathname}#/r/${view.table_id}`, "data-role": "watch" },
    "Link to watch");
  return el("section", { class: "panel" }, el("h2", {}, "Seats"), list,
    links.length ? el("ul", { class: "invites" }, ...links) : null, el("p", {}, watch));
}

function status(view) {
  let text;
  const waiting = view.waiting_for || [];
  if (refusal) text = `Not allowed: ${refusal}`;
  else if (view.position.result) text = "The hand is over.";
  else if (view.legal.length) text = "Your turn: tap a move, or a card of your hand to discard it.";
  else if (waiting.length) {
    text = `Waiting for ${waiting.map((s) => nameOf(view, s)).join(" and ")} to sit down.`;
  } else if (game.room) text = `${nameOf(view, view.position.to_move)} is playing.`;
  else text = "The others are playing.";
  return el("div", { class: "status" + (refusal ? " refused" : ""), "data-role": "status",
    role: "status" }, text);
}

let renders = 0;

function render(view) {
  if (game.room) {
    if (view.version < shown) return;  // a push older than what is on screen
    shown = view.version;
  }
  if (onScreen && view.moves.length !== onScreen.moves.length) hint = null;  // a move was made
  onScreen = view;
  const mine = me(view);
  const theirs = mine === null ? 1 : 1 - sideOf(mine);
  root.dataset.renders = String(++renders);
  root.dataset.version = String(view.version ?? "");
  const watching = game.room && mine === null ? " · watching" : "";
  root.replaceChildren(...present(
    el("h1", {}, `Modern American Canasta · hand ${view.hand_number}${watching}`),
    status(view), result(view), table(view),
    el("div", { class: "grid" }, sidePanel(theirs, view), sidePanel(1 - theirs, view)),
    view.legal.length ? actions(view) : null, hand(view),
    el("section", { class: "panel" }, el("h2", {}, "Moves this hand"),
      el("ol", { class: "moves", "data-role": "moves" },
        ...view.moves.map((m) => el("li", {}, pretty(m))))),
    seatsPanel(view),
    el("p", { class: "back" }, el("a", { href: "/" }, "Back to the lobby"))));
}

const refresh = () => (game.room ? roomCall("/view") : call(`/${game.id}/view`));

async function act(action) {
  try {
    const view = game.room ? await roomCall("/actions", "POST", { action })
      : await call(`/${game.id}/actions`, "POST", { action });
    refusal = null;
    render(view);
  } catch (e) {
    refusal = e.message;
    shown = -1;
    render(await refresh());
  }
}

async function nextHand() {
  refusal = null;
  try {
    render(game.room ? await roomCall("/next", "POST") : await call(`/${game.id}/next`, "POST"));
  } catch (e) {
    refusal = e.message;
    shown = -1;
    render(await refresh());
  }
}

// The room's live view: the socket pushes every change; it comes back after a drop.
function connect(delay = 500) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(game.id)}`);
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify(game.token ? { type: "hello", token: game.token } : { type: "hello" }));
    root.dataset.live = "yes";
  };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "view") render(message.view);
    else if (message.type === "error") {
      refusal = message.words || message.error;
      shown = -1;
      refresh().then(render).catch(() => {});
    }
  };
  ws.onclose = (event) => {
    root.dataset.live = "no";
    if (socket === ws && event.code < 4000) setTimeout(() => connect(Math.min(8000, delay * 2)), delay);
  };
}

async function start() {
  const m = /^#\/m\/([\w-]+)\?token=([\w-]+)/.exec(location.hash);
  if (m) {
    game = { id: m[1], token: m[2], room: false };
    render(await call(`/${game.id}/view`));
    return;
  }
  const r = /^#\/r\/([\w-]+)(?:\?token=([\w-]+))?/.exec(location.hash);
  if (r) {
    game = { id: r[1], token: r[2] || null, room: true };
    render(await roomCall("/view"));
    connect();
    return;
  }
  startForm();
}

window.addEventListener("hashchange", () => location.reload());

// The house rules a table may choose (the server checks them and says why it refuses one).
function startForm() {
  const catalogue = el("select", { id: "special-hands", "aria-label": "Special hands" },
    el("option", { value: "cla" }, "The League's 11 hands"),
    el("option", { value: "pagat" }, "pagat's 4 hands"));
  const keep = el("select", { id: "keep-three", "aria-label": "Keeping a three" },
    el("option", { value: "yes" }, "Keep one for the Straight"),
    el("option", { value: "no" }, "Lay every three"));
  const seatNames = ["Left opponent", "Partner (opposite)", "Right opponent"];
  const seatPickers = [1, 2, 3].map((s) => el("select", { id: `seat-${s}`,
    "aria-label": seatNames[s - 1] }, ...SEAT_CHOICES.map(([v, text]) => el("option", { value: v }, text))));
  const go = async () => {
    const house_rules = {};
    if (catalogue.value !== "cla") house_rules.special_hands = catalogue.value;
    if (keep.value === "no") house_rules.keep_one_three_for_straight = false;
    const picked = seatPickers.map((p) => p.value);
    try {
      if (picked.every((v) => v === "modern-heuristic")) {  // you and three bots
        const created = await call("", "POST", { house_rules });
        game = { id: created.id, token: created.token, room: false };
        history.replaceState(null, "", `#/m/${game.id}?token=${game.token}`);
        render(created.view);
        return;
      }
      const seats = ["human", ...picked.map((v) => (v === "human" ? v : `bot:${v}`))];
      let people = 0;
      const names = seats.map((v) => (v === "human" ? `Player ${++people}` : v));
      const rules = Object.keys(house_rules).length
        ? { preset: "modern-american", ...house_rules } : "modern-american";
      const created = await fetchJson("/api/tables", "POST", { rules, seats, names });
      const tokens = Object.fromEntries(created.seats.map((s) => [s.seat, s.token]));
      localStorage.setItem(`modern-invites-${created.table_id}`, JSON.stringify(tokens));
      game = { id: created.table_id, token: tokens[0], room: true };
      history.replaceState(null, "", `#/r/${game.id}?token=${game.token}`);
      render(await roomCall("/view"));
      connect();
    } catch (e) {
      root.querySelector("[data-role=status]").textContent = `Not started: ${e.message}`;
    }
  };
  root.replaceChildren(
    el("h1", {}, "Modern American Canasta"),
    el("div", { class: "status", "data-role": "status", role: "status" },
      "You and your partner against two opponents, to 8500: bots, or people you invite."),
    el("section", { class: "panel start" },
      el("label", { for: "special-hands" }, "Special hands"), catalogue,
      el("label", { for: "keep-three" }, "Threes"), keep,
      ...[1, 2, 3].flatMap((s) => [el("label", { for: `seat-${s}` }, seatNames[s - 1]),
        seatPickers[s - 1]]),
      el("button", { id: "start", onclick: go }, "Deal")),
    el("p", { class: "back" }, el("a", { href: "/" }, "Back to the lobby")));
}

start().catch((e) => {
  root.replaceChildren(el("div", { class: "status refused", "data-role": "status" },
    `The table could not be loaded: ${e.message}`));
});
