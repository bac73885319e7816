// The Modern American table (/modern.html): the server sends what seat 0 sees and its legal
// actions in the notation (docs/notation.md, "Modern American"); the page shows them and plays
// the one the player taps. The server is the only judge: a refusal comes back in words.
import { cardEl, prettyCard, sortCards } from "./cards.js";

const root = document.getElementById("modern");
const KEY_NAMES = { W: "wild cards", A: "aces", K: "kings", Q: "queens", J: "jacks", T: "tens",
  9: "nines", 8: "eights", 7: "sevens", 6: "sixes", 5: "fives", 4: "fours" };
let game = null;      // {id, token}
let refusal = null;   // the last refusal's words

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

async function call(path, method = "GET", body = undefined) {
  const url = `/api/modern/tables${path}${game ? `?token=${encodeURIComponent(game.token)}` : ""}`;
  const r = await fetch(url, { method, headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => ({ words: "The server did not answer clearly." }));
  if (!r.ok) throw new Error(data.words || data.error || `error ${r.status}`);
  return data;
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
  const who = side === 0 ? "Your side (you and Pat)" : "Eva and Carla";
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
  if (p.turn && p.turn.talon) facts.push(`your talon of ${p.turn.talon} comes after your discard`);
  const others = [1, 2, 3].map((s) => `${view.names[s]} ${p.hands[s]}`).join(", ");
  return el("section", { class: "panel", "data-role": "table" },
    el("div", {}, facts.join(" · ")), el("div", {}, `Cards in hand: ${others}`));
}

function hand(view) {
  const p = view.position;
  const legal = new Set(view.legal);
  const row = el("div", { class: "row hand", "data-role": "hand" });
  for (const c of sortCards(p.hands[0])) {
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
  return el("section", { class: "panel" }, el("h2", {}, "Your moves"), box);
}

function result(view) {
  const r = view.position.result;
  if (!r) return null;
  const rows = [["Cards melded", "melded"], ["Canasta and going-out bonuses", "bonuses"],
    ["Threes", "threes"], ["Penalties", "penalties"], ["Cards left in hand", "in_hand"],
    ["Special hand", "special"], ["Hand total", "total"]];
  const how = r.special ? `${view.names[r.special.seat]} laid a special hand: ${r.special.name}`
    : r.went_out !== null ? `${view.names[r.went_out]} went out` : "the stock ran out";
  const t = el("table", { class: "score" }, el("tr", {}, el("th", {}, ""),
    el("th", {}, "You and Pat"), el("th", {}, "Eva and Carla")));
  for (const [label, key] of rows) {
    t.append(el("tr", {}, el("td", {}, label), el("td", {}, String(r.sides[0][key])),
      el("td", {}, String(r.sides[1][key]))));
  }
  t.append(el("tr", {}, el("td", {}, "Game score"), el("td", {}, String(view.scores[0])),
    el("td", {}, String(view.scores[1]))));
  const over = view.winner !== null;
  return el("section", { class: "panel", id: "hand-over" },
    el("h2", {}, over ? `Game over: ${view.winner === 0 ? "your side wins" : "Eva and Carla win"}.`
      : `Hand ${view.hand_number} is over: ${how}.`), t,
    over ? null : el("button", { id: "next-hand", onclick: nextHand }, "Next hand"));
}

function status(view) {
  let text;
  if (refusal) text = `Not allowed: ${refusal}`;
  else if (view.position.result) text = "The hand is over.";
  else if (view.legal.length) text = "Your turn: tap a move, or a card of your hand to discard it.";
  else text = "The others are playing.";
  return el("div", { class: "status" + (refusal ? " refused" : ""), "data-role": "status",
    role: "status" }, text);
}

let renders = 0;

function render(view) {
  root.dataset.renders = String(++renders);
  root.replaceChildren(...present(
    el("h1", {}, `Modern American Canasta · hand ${view.hand_number}`),
    status(view), result(view), table(view),
    el("div", { class: "grid" }, sidePanel(1, view), sidePanel(0, view)),
    view.legal.length ? actions(view) : null, hand(view),
    el("section", { class: "panel" }, el("h2", {}, "Moves this hand"),
      el("ol", { class: "moves" }, ...view.moves.map((m) => el("li", {}, pretty(m))))),
    el("p", { class: "back" }, el("a", { href: "/" }, "Back to the lobby"))));
}

async function act(action) {
  try {
    const view = await call(`/${game.id}/actions`, "POST", { action });
    refusal = null;
    render(view);
  } catch (e) {
    refusal = e.message;
    render(await call(`/${game.id}/view`));
  }
}

async function nextHand() {
  refusal = null;
  render(await call(`/${game.id}/next`, "POST"));
}

async function start() {
  const m = /^#\/m\/([\w-]+)\?token=([\w-]+)/.exec(location.hash);
  if (m) {
    game = { id: m[1], token: m[2] };
    render(await call(`/${game.id}/view`));
    return;
  }
  startForm();
}

// The house rules a table may choose (the server checks them and says why it refuses one).
function startForm() {
  const catalogue = el("select", { id: "special-hands", "aria-label": "Special hands" },
    el("option", { value: "cla" }, "The League's 11 hands"),
    el("option", { value: "pagat" }, "pagat's 4 hands"));
  const keep = el("select", { id: "keep-three", "aria-label": "Keeping a three" },
    el("option", { value: "yes" }, "Keep one for the Straight"),
    el("option", { value: "no" }, "Lay every three"));
  const go = async () => {
    const house_rules = {};
    if (catalogue.value !== "cla") house_rules.special_hands = catalogue.value;
    if (keep.value === "no") house_rules.keep_one_three_for_straight = false;
    try {
      const created = await call("", "POST", { house_rules });
      game = { id: created.id, token: created.token };
      history.replaceState(null, "", `#/m/${game.id}?token=${game.token}`);
      render(created.view);
    } catch (e) {
      root.querySelector("[data-role=status]").textContent = `Not started: ${e.message}`;
    }
  };
  root.replaceChildren(
    el("h1", {}, "Modern American Canasta"),
    el("div", { class: "status", "data-role": "status", role: "status" },
      "You and your partner Pat (a bot) against Eva and Carla (bots), to 8500."),
    el("section", { class: "panel start" },
      el("label", { for: "special-hands" }, "Special hands"), catalogue,
      el("label", { for: "keep-three" }, "Threes"), keep,
      el("button", { id: "start", onclick: go }, "Deal")),
    el("p", { class: "back" }, el("a", { href: "/" }, "Back to the lobby")));
}

start().catch((e) => {
  root.replaceChildren(el("div", { class: "status refused", "data-role": "status" },
    `The table could not be loaded: ${e.message}`));
});
