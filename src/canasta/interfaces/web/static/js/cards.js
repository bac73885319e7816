// Cards in NOTATION §1 (Kh, Td, 2c, JK): parsing, sorting, and SVG drawings. What a card
// counts is the table's rules: the server sends it (view.card_points).

export const RANKS = "A23456789TJQK";
export const SUITS = "cdhs";
const RANK_LABEL = { T: "10" };
const SUIT_NAME = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const RANK_NAME = {
  A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king",
};

export function canonical(text) {
  const t = String(text).trim();
  if (t.toUpperCase() === "JK") return "JK";
  const m = /^(10|[2-9tjqka])([cdhs])$/i.exec(t);
  if (!m) return null;
  return (m[1] === "10" ? "T" : m[1].toUpperCase()) + m[2].toLowerCase();
}

export const rankOf = (c) => (c === "JK" ? "JK" : c[0]);
export const suitOf = (c) => (c === "JK" ? null : c[1]);
export const isWild = (c) => c === "JK" || c[0] === "2";
export const isRedThree = (c) => c === "3d" || c === "3h";
export const isBlackThree = (c) => c === "3c" || c === "3s";
export const isRed = (c) => c !== "JK" && (c[1] === "d" || c[1] === "h");

export function cardName(c) {
  if (c === "JK") return "joker";
  return `${RANK_NAME[c[0]]} of ${SUIT_NAME[c[1]]}`;
}

// Hand order: wild cards first, then aces down to fours, then threes.
const ORDER = ["JK", "2", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3"];
export const rankOrder = (r) => ORDER.indexOf(r);

export function sortCards(cards) {
  return [...cards].sort((a, b) => {
    const d = rankOrder(rankOf(a)) - rankOrder(rankOf(b));
    if (d) return d;
    return SUITS.indexOf(suitOf(a) || "c") - SUITS.indexOf(suitOf(b) || "c");
  });
}

/** Hand order by suit (clubs, diamonds, hearts, spades; wild cards first), ranks within. */
export function sortBySuit(cards) {
  const suitKey = (c) => (isWild(c) ? -1 : SUITS.indexOf(suitOf(c)));
  return [...cards].sort((a, b) => (suitKey(a) - suitKey(b)) || (rankOrder(rankOf(a)) - rankOrder(rankOf(b))) ||
    (SUITS.indexOf(suitOf(a) || "c") - SUITS.indexOf(suitOf(b) || "c")));
}

/** Groups of a sorted hand by rank: [{rank, cards: [{card, index}]}]. */
export function groupByRank(cards) {
  const groups = [];
  sortCards(cards).forEach((card) => {
    const r = rankOf(card);
    let g = groups[groups.length - 1];
    if (!g || g.rank !== r) { g = { rank: r, cards: [] }; groups.push(g); }
    g.cards.push(card);
  });
  return groups;
}

/** Meld ranks in table order: aces down to fours, black threes last. */
export function meldRankOrder(r) {
  return r === "3" ? 99 : rankOrder(r);
}

export const rankLabel = (r) => (r === "JK" ? "Joker" : RANK_LABEL[r] || r);

// -- SVG ------------------------------------------------------------------------------------------

// Suit shapes in a 100 x 100 box (drawn, so no font needs the suit glyphs).
const SUIT_PATH = {
  h: "M50 90C22 68 4 50 4 30C4 15 16 4 30 4C40 4 47 10 50 19C53 10 60 4 70 4C84 4 96 15 96 30C96 50 78 68 50 90Z",
  d: "M50 2L88 50L50 98L12 50Z",
  s: "M50 3C36 24 5 40 5 62C5 76 16 86 30 86C38 86 44 82 47 77C46 87 41 93 32 98H68C59 93 54 87 53 77C56 82 62 86 70 86C84 86 95 76 95 62C95 40 64 24 50 3Z",
  c: "M50 5A21 21 0 0 0 35 41A21 21 0 1 0 46 74C45 86 40 92 32 98H68C60 92 55 86 54 74A21 21 0 1 0 65 41A21 21 0 0 0 50 5Z",
};
const RED = "#c62828";
const BLACK = "#1c1c28";
const JOKER_INK = "#6a1b9a";

function suitShape(s, x, y, size, fill) {
  const k = size / 100;
  return `<path d="${SUIT_PATH[s]}" fill="${fill}" transform="translate(${x - size / 2} ${y - size / 2}) scale(${k})"/>`;
}

function corner(c, ink) {
  if (c === "JK") {
    const letters = "JOKER".split("").map((ch, i) =>
      `<text x="11" y="${19 + i * 13}" font-size="13" font-weight="700" text-anchor="middle" fill="${ink}">${ch}</text>`).join("");
    return letters;
  }
  const label = rankLabel(c[0]);
  const fs = label.length > 1 ? 19 : 22;
  return `<text x="12" y="23" font-size="${fs}" font-weight="700" text-anchor="middle" fill="${ink}"${label.length > 1 ? ' letter-spacing="-1.5"' : ""}>${label}</text>` +
    suitShape(c[1], 12, 35, 14, ink);
}

// Pip layouts (centre coordinates) for 2..10 in a 100 x 140 card.
const PIPS = {
  2: [[50, 34], [50, 106]],
  3: [[50, 34], [50, 70], [50, 106]],
  4: [[33, 34], [67, 34], [33, 106], [67, 106]],
  5: [[33, 34], [67, 34], [50, 70], [33, 106], [67, 106]],
  6: [[33, 34], [67, 34], [33, 70], [67, 70], [33, 106], [67, 106]],
  7: [[33, 34], [67, 34], [50, 52], [33, 70], [67, 70], [33, 106], [67, 106]],
  8: [[33, 34], [67, 34], [50, 52], [33, 70], [67, 70], [50, 88], [33, 106], [67, 106]],
  9: [[33, 32], [67, 32], [33, 56], [67, 56], [50, 70], [33, 84], [67, 84], [33, 108], [67, 108]],
  10: [[33, 32], [67, 32], [50, 46], [33, 56], [67, 56], [33, 84], [67, 84], [50, 94], [33, 108], [67, 108]],
};

function centre(c, ink) {
  if (c === "JK") {
    return `<g transform="translate(50 66)">
      <path d="M0 -30L8 -9L30 -9L12 4L19 26L0 12L-19 26L-12 4L-30 -9L-8 -9Z" fill="${ink}" opacity="0.92"/>
      <circle r="6" fill="#ffd54f"/></g>
      <text x="50" y="118" font-size="15" font-weight="700" text-anchor="middle" fill="${ink}" letter-spacing="2">JOKER</text>`;
  }
  const r = c[0];
  const s = c[1];
  if (r === "A") return suitShape(s, 50, 70, 46, ink);
  if ("JQK".includes(r)) {
    return `<rect x="22" y="26" width="56" height="88" rx="5" fill="${isRed(c) ? "#fdecea" : "#eceff7"}" stroke="${ink}" stroke-width="1.5"/>
      <text x="50" y="84" font-size="40" font-weight="700" text-anchor="middle" fill="${ink}" font-family="Georgia, 'DejaVu Serif', serif">${r}</text>
      ${suitShape(s, 50, 42, 16, ink)}${suitShape(s, 50, 100, 16, ink)}`;
  }
  const n = r === "T" ? 10 : Number(r);
  return PIPS[n].map(([x, y]) => {
    const flip = y > 75 ? ` transform="rotate(180 ${x} ${y})"` : "";
    return `<g${flip}>${suitShape(s, x, y, 18, ink)}</g>`;
  }).join("");
}

const cache = new Map();

/** The SVG markup of a card face. */
export function cardSVG(c) {
  if (cache.has(c)) return cache.get(c);
  const ink = c === "JK" ? JOKER_INK : isRed(c) ? RED : BLACK;
  const wild = isWild(c);
  const svg = `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${cardName(c)}" font-family="'DejaVu Sans', 'Liberation Sans', Arial, sans-serif">
    <rect x="1" y="1" width="98" height="138" rx="8" fill="${wild ? "#fffdf3" : "#fff"}" stroke="${wild ? "#d4a017" : "#9aa0a6"}" stroke-width="${wild ? 2 : 1.2}"/>
    ${corner(c, ink)}
    <g transform="rotate(180 50 70)">${corner(c, ink)}</g>
    ${centre(c, ink)}
    ${isRedThree(c) ? `<text x="50" y="136" font-size="9" text-anchor="middle" fill="${RED}">bonus</text>` : ""}
  </svg>`;
  cache.set(c, svg);
  return svg;
}

/** The SVG markup of a card back. */
let backCount = 0;

export function backSVG() {
  const id = `cb${++backCount}`;
  return `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" aria-hidden="true">
    <defs><pattern id="${id}" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="10" height="10" fill="#1f4e8c"/><rect width="5" height="10" fill="#2a63ad"/></pattern></defs>
    <rect x="1" y="1" width="98" height="138" rx="8" fill="#fff" stroke="#9aa0a6" stroke-width="1.2"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#${id})"/>
    <rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#fff" stroke-width="1.5" opacity="0.6"/>
    <circle cx="50" cy="70" r="16" fill="#fff" opacity="0.9"/>
    <path d="${SUIT_PATH.h}" fill="${RED}" transform="translate(40 60) scale(0.2)"/>
  </svg>`;
}

/** A card element: <div class="card" data-card="Kh">svg</div>. */
export function cardEl(c, opts = {}) {
  const el = document.createElement(opts.tag || "div");
  el.className = "card" + (isWild(c) ? " wild" : "") + (isRedThree(c) ? " red-three" : "") +
    (opts.cls ? " " + opts.cls : "");
  el.dataset.card = c;
  el.title = opts.title || cardName(c);
  el.innerHTML = cardSVG(c);
  return el;
}

export function backEl(cls = "") {
  const el = document.createElement("div");
  el.className = "card back" + (cls ? " " + cls : "");
  el.innerHTML = backSVG();
  return el;
}

/** Text form for messages: "K♥". */
export function prettyCard(c) {
  if (c === "JK") return "Joker";
  return rankLabel(c[0]) + { c: "♣", d: "♦", h: "♥", s: "♠" }[c[1]];
}

/** Cards of an action text ("meld Kh Kd Ks, 8: 2c") -> ["Kh", "Kd", "Ks", "2c"]. */
export function cardsInAction(text) {
  return (text.match(/\b(JK|10[cdhs]|[2-9TJQKA][cdhs])\b/gi) || []).map(canonical).filter(Boolean);
}

// -- words ----------------------------------------------------------------------------------------

const CARD_CODE = /(?<![\w])(JK|10[cdhs]|[2-9TJQKA][cdhs])(?![\w])/g;

/**
 * Text for a player, with every card code written with its suit symbol: "discard 9s" ->
 * "discard 9♠", "meld 4c 4d JK" -> "meld 4♣ 4♦ Joker". The one renderer of card codes in the
 * page (table talk, refusals, hints). An "As" that starts a sentence is the word.
 */
export function prettyText(text) {
  const s = String(text ?? "");
  return s.replace(CARD_CODE, (code, _c, offset) => {
    if (code === "As" && (offset === 0 || /[.:]\s$/.test(s.slice(Math.max(0, offset - 2), offset)))) return code;
    return prettyCard(canonical(code) || code);
  });
}

/** Cards in notation, space-separated ("As Kh 2c"), as a player reads them ("A♠ K♥ 2♣"): every
 * token a card, so an ace of spades is never taken for the word "As". */
export function cardsText(text) {
  return String(text ?? "").split(/\s+/).filter(Boolean).map((t) => {
    const c = canonical(t);
    return c ? prettyCard(c) : prettyText(t);
  }).join(" ");
}

const VERB_WORDS = {
  draw: "draws", take: "takes the pile", meld: "melds", discard: "discards", ask: "asks: may I go out?",
  yes: "answers yes", no: "answers no", pass: "passes",
};

const VERB_WORDS_YOU = {
  draw: "draw", take: "take the pile", meld: "meld", discard: "discard", ask: "ask: may I go out?",
  yes: "answer yes", no: "answer no", pass: "pass",
};

/**
 * An action's text as table talk: "discard 9s" -> "discards 9♠", "take 7h 7d" -> "takes the pile
 * with 7♥ 7♦" ("discard 9♠", "take the pile ..." with ``you``).
 */
export function actionWords(action, you = false) {
  const [verb, ...rest] = String(action).trim().split(/\s+/);
  const tail = rest.join(" ");
  const words = (you ? VERB_WORDS_YOU : VERB_WORDS)[verb];
  if (words === undefined) return prettyText(action);  // a family's own verb: its text
  if (!tail) return words;
  const groups = tail.split(/\s*,\s*/).map(groupWords).join(", ");
  if (verb === "take") return `${words} with ${groups}`;
  return `${words} ${groups}`;
}

const RANK_PLURAL = {
  A: "aces", K: "kings", Q: "queens", J: "jacks", T: "tens", 10: "tens", 9: "nines", 8: "eights",
  7: "sevens", 6: "sixes", 5: "fives", 4: "fours", 3: "black threes",
};

/** "aces", "sevens", "black threes" (the meld of threes is of black threes). */
export const rankPlural = (r) => RANK_PLURAL[r] ?? rankLabel(r);

/** The groups of an action's cards in words: "7h 7d, 7: 2c" -> "7♥ 7♦, 2♣ on the sevens". */
export function groupsText(tail) {
  return String(tail).split(/\s*,\s*/).filter(Boolean).map(groupWords).join(", ");
}

const PAST = { draw: "drew from the stock", ask: "asked: may I go out?", yes: "answered yes", no: "answered no", pass: "passed" };

/**
 * A move of the hand's log as a line of the round's history, in the past tense, with what the
 * server says every seat saw: "took the pile (12 cards): 7♠ with 7♥ 7♦", "drew from the stock
 * and laid a red three 3♥", "melded 7♥ 7♦ 7♣", "discarded 4♥".
 */
export function moveWords(entry) {
  const text = String(entry?.action ?? "").trim();
  const [verb, ...rest] = text.split(/\s+/);
  const tail = rest.join(" ");
  const reds = entry?.laid?.length ? ` and laid ${entry.laid.map(prettyCard).join(" ")}` : "";
  if (typeof entry?.words === "string") {  // a verb of the family's own, in its words
    const said = cardsWordsText(entry.words);
    if (said) return said + reds;
    return entry.laid?.length ? `laid ${entry.laid.map(prettyCard).join(" ")}` : "played";
  }
  if (verb === "take") {
    const size = entry.took ? ` (${entry.took} card${entry.took === 1 ? "" : "s"})` : "";
    const top = entry.top ? `: ${prettyCard(entry.top)}` : "";
    return `took the pile${size}${top}${tail ? ` with ${groupsText(tail)}` : ""}${reds}`;
  }
  if (verb === "meld") return `melded ${groupsText(tail)}${reds}`;
  if (verb === "discard") return `discarded ${cardsText(tail)}${reds}`;
  return (PAST[verb] ?? prettyText(text)) + reds;
}

/** A group of a meld: "7h 7d" -> "7♥ 7♦"; wild cards naming their meld, "7: 2c" -> "2♣ on the sevens". */
function groupWords(group) {
  const m = /^(10|\w{1,2}):\s*(.*)$/i.exec(group);
  if (!m) return cardsText(group);
  const key = m[1].toUpperCase();
  // a rank's meld by its name; a family's own key (a meld of wild cards) by its cards alone
  return RANK_PLURAL[key] ? `${cardsText(m[2])} on the ${RANK_PLURAL[key]}` : cardsText(m[2]);
}

/** A family's words for a move ("keeps 3d in hand"), its cards with suit symbols. */
function cardsWordsText(words) {
  return String(words).replace(CARD_CODE, (code) => prettyCard(canonical(code) || code));
}

/** The family's word for ``n`` completed melds, from the facts' (or the table rules')
 * ``canasta_name``, [singular, plural]: "canasta", "canastas", or the family's own ("book",
 * "books"); names that are not given read as canasta. */
export function canastaWord(names, n = 1) {
  const [one, many] = Array.isArray(names) && names.length === 2 ? names : ["canasta", "canastas"];
  return n === 1 ? one : many;
}

/** A part of a hand's score in words (the facts' score keys); a key of no known part reads as
 * its own words. */
const SCORE_WORDS = {
  melded: "Cards melded", canastas: "Canasta bonuses", hidden: "Hidden canastas",
  red_threes: "Red threes", going_out: "Going out", in_hand: "Cards left in hand",
  bonuses: "Canasta and going-out bonuses", threes: "Threes", penalties: "Penalties",
  special: "Special hand",
};

export function scoreWords(key) {
  const w = SCORE_WORDS[key] ?? key.replace(/_/g, " ");
  return w.charAt(0).toUpperCase() + w.slice(1);
}

/** Words in the third person as an instruction or after "you": "keeps 3♦ in hand" -> "Keep 3♦
 * in hand", "goes out" -> "Go out". */
export function imperative(words) {
  const text = String(words).replace(/^(\w+?)(?:(?<=[sxz]|ch|sh|o)es|s)\b/, "$1");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A move of a hand's log, in the present after the player's name: "discards 9♠", "takes the
 * pile with 7♥ 7♦"; a verb of the family's own in its words. */
export function presentWords(entry) {
  if (typeof entry?.words === "string") {
    const said = String(entry.words).replace(CARD_CODE, (code) => prettyCard(canonical(code) || code));
    if (said) return said;
    return entry.laid?.length ? `lays ${entry.laid.map(prettyCard).join(" ")}` : "plays";
  }
  return actionWords(entry?.action ?? "");
}
