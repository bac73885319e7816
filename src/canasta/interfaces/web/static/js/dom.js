// Tiny DOM helpers: h("div.cls#id", {attrs}, ...children).

export function h(tag, attrs, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(tag);
  const el = document.createElement((m && m[1]) || "div");
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g)) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className += (el.className ? " " : "") + v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "html") el.innerHTML = v;
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

export function svgFromString(text) {
  const t = document.createElement("template");
  t.innerHTML = text.trim();
  return t.content.firstChild;
}

/** Copy text to the clipboard; falls back to a hidden textarea where the API is missing. */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h("textarea", { style: { position: "fixed", opacity: "0" } }, text);
    document.body.append(ta);
    ta.select();
    let ok = false;
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    ta.remove();
    return ok;
  }
}

export function toast(text, kind = "info", ms = 2600) {
  let box = document.getElementById("toasts");
  if (!box) { box = h("div#toasts"); document.body.append(box); }
  const t = h(`div.toast.${kind}`, { role: "status" }, text);
  box.append(t);
  setTimeout(() => t.classList.add("out"), ms);
  setTimeout(() => t.remove(), ms + 400);
}

/** el.append that skips null, undefined and false, and flattens arrays. */
export function add(el, ...children) {
  append(el, children);
  return el;
}

const ICONS = {
  bulb: '<path d="M9 18h6M10 21h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2.1h5c0-.9.4-1.6 1-2.1A6 6 0 0 0 12 3z"/>',
  hand: '<path d="M12 2v8M12 2a1.5 1.5 0 0 1 3 0v8M15 4a1.5 1.5 0 0 1 3 0v9a7 7 0 0 1-14 0v-3a1.5 1.5 0 0 1 3 0V4a1.5 1.5 0 0 1 3 0"/>',
  snow: '<path d="M12 2v20M3.3 7l17.4 10M3.3 17L20.7 7M9 4l3 2 3-2M9 20l3-2 3 2"/>',
  block: '<circle cx="12" cy="12" r="9"/><path d="M5.6 5.6l12.8 12.8"/>',
  check: '<path d="M4 12l5 5L20 6"/>',
  first: '<path d="M6 5v14M18 5l-9 7 9 7z"/>',
  prev: '<path d="M15 5l-8 7 8 7z"/>',
  next: '<path d="M9 5l8 7-8 7z"/>',
  last: '<path d="M18 5v14M6 5l9 7-9 7z"/>',
  play: '<path d="M7 4l13 8-13 8z"/>',
  pause: '<path d="M7 5h3v14H7zM14 5h3v14h-3z"/>',
  bot: '<rect x="5" y="8" width="14" height="11" rx="3"/><path d="M12 8V4M9 13h.01M15 13h.01M2 13v3M22 13v3"/><circle cx="12" cy="3.5" r="1"/>',
  partner: '<circle cx="8" cy="8" r="3"/><circle cx="16.5" cy="8" r="3"/><path d="M2.5 20c0-3.3 2.5-5.5 5.5-5.5s5.5 2.2 5.5 5.5M13.5 14.7c.9-.2 1.9-.2 3-.2 3 0 5 2.2 5 5.5"/>',
  share: '<path d="M8 12l8-5M8 12l8 5"/><circle cx="6" cy="12" r="2.5"/><circle cx="18" cy="6" r="2.5"/><circle cx="18" cy="18" r="2.5"/>',
};

/** A small stroke icon (inline SVG, no font needed). */
export function icon(name, cls = "") {
  const s = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  s.setAttribute("viewBox", "0 0 24 24");
  s.setAttribute("class", `icon ${cls}`.trim());
  s.setAttribute("aria-hidden", "true");
  s.innerHTML = ICONS[name] || "";
  return s;
}
