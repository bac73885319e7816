// What the browser tests measure of the page as a player holds it (tests/web/phone_checks.py).
window.__checks = {
  controls: (t) => {
  const out = [];
  const sel = 'button, a[href], input, select, textarea, [role=button], [tabindex="0"]';
  for (const el of document.querySelectorAll(sel)) {
    if (el.closest('[hidden]') || el.disabled || el.type === 'hidden') continue;
    if (el.closest('#hand')) continue;  // hand cards: measured as strips
    const r = el.getBoundingClientRect();
    const st = getComputedStyle(el);
    if (!r.width || !r.height || st.visibility === 'hidden' || st.display === 'none') continue;
    if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) continue;
    const inPanel = el.closest('[data-role=panel]');
    if (inPanel && !inPanel.classList.contains('open') && getComputedStyle(inPanel).position === 'fixed') continue;
    const w = el.offsetWidth || r.width;  // the size without transforms (an animation's scale)
    const hh = el.offsetHeight || r.height;
    if (w < t - 0.5 || hh < t - 0.5) {
      out.push(`${el.tagName.toLowerCase()}#${el.id || ''}.${[...el.classList].join('.')} ` +
               `"${(el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 30)}" ` +
               `${Math.round(w)}x${Math.round(hh)}`);
    }
  }
  return out;
},
  strips: ({w, h}) => {
  const cards = [...document.querySelectorAll('[data-role=hand] .card')];
  const boxes = cards.map((c) => c.getBoundingClientRect());
  const out = [];
  boxes.forEach((b, i) => {
    // what of this card no later card (drawn above it) covers: sample a grid of points
    let best = { w: 0, h: 0 };
    const later = boxes.slice(i + 1);
    const free = (x, y) => !later.some((o) => x >= o.left && x <= o.right && y >= o.top && y <= o.bottom);
    let w = 0;
    for (let x = b.left + 1; x < b.right; x += 1) { if (free(x, b.top + b.height * 0.5) || free(x, b.top + 4)) w += 1; }
    let h = 0;
    const x0 = b.left + 3;
    for (let y = b.top + 1; y < b.bottom; y += 1) { if (free(x0, y)) h += 1; }
    best = { w, h };
    if (best.w < w || best.h < h) out.push(`${cards[i].dataset.card}: ${best.w}x${best.h}`);
  });
  return { count: cards.length, short: out };
},
  smallText: (t) => {
  const out = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest('svg, [hidden], .sr-only')) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.bottom < 0 || r.top > innerHeight) continue;
    const st = getComputedStyle(el);
    if (st.visibility === 'hidden' || st.display === 'none') continue;
    const inPanel = el.closest('[data-role=panel]');
    if (inPanel && !inPanel.classList.contains('open') && getComputedStyle(inPanel).position === 'fixed') continue;
    if (parseFloat(st.fontSize) < t - 0.01) out.add(`${el.tagName.toLowerCase()}.${[...el.classList].join('.')} "${node.textContent.trim().slice(0, 20)}" ${st.fontSize}`);
  }
  return [...out];
},
  overflow: (sel) => {
  // every element inside `sel` that sticks out of the viewport's width or out of its box
  // (a box that scrolls sideways hides what sticks out)
  const out = [];
  for (const root of document.querySelectorAll(sel)) {
    if (root.scrollWidth > root.clientWidth + 1) out.push(`${sel} scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
    const box = root.getBoundingClientRect();
    for (const el of root.querySelectorAll('*')) {
      if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height) continue;
      const name = `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}.${[...el.classList].join('.')}` +
                   ` "${(el.dataset.card || el.textContent || '').trim().slice(0, 16)}"`;
      if (r.left < -0.5 || r.right > innerWidth + 0.5) out.push(`${name} [${Math.round(r.left)}, ${Math.round(r.right)}] outside 0..${innerWidth}`);
      else if (r.left < box.left - 0.5 || r.right > box.right + 0.5) out.push(`${name} [${Math.round(r.left)}, ${Math.round(r.right)}] outside its box [${Math.round(box.left)}, ${Math.round(box.right)}]`);
    }
  }
  return out;
},
  clipped: (sel) => {
  // elements matching `sel` not wholly inside every box around them that clips (overflow
  // other than visible) and inside the viewport: cut off, or hidden until scrolled to
  // (2 px of slack: a shadow's or a border's edge)
  const out = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const boxes = [{ left: 0, top: 0, right: innerWidth, bottom: innerHeight, name: 'the screen' }];
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const st = getComputedStyle(a);
      if (st.overflowX !== 'visible' || st.overflowY !== 'visible') {
        const b = a.getBoundingClientRect();
        boxes.push({ left: b.left, top: b.top, right: b.right, bottom: b.bottom, name: a.className });
      }
    }
    for (const b of boxes) {
      if (r.left < b.left - 2 || r.top < b.top - 2 || r.right > b.right + 2 || r.bottom > b.bottom + 2) {
        out.push(`${el.className} "${(el.dataset.rank || el.dataset.card || el.textContent || '').trim().slice(0, 12)}" ` +
                 `[${[r.left, r.top, r.right, r.bottom].map(Math.round)}] cut by ${b.name} [${[b.left, b.top, b.right, b.bottom].map(Math.round)}]`);
        break;
      }
    }
  }
  return out;
},
  layout: () => {
  // where each part lies, transforms left out (a selected card rises by a transform only)
  const out = {};
  const seen = {};
  const sel = '[data-role=hand] .card, [data-role=actions] .btn, [data-role=status],' +
              ' [data-role=pile], [data-role=stock], [data-role=seat], .side, .hand-zone';
  document.querySelectorAll(sel).forEach((el) => {
    const name = el.id || el.dataset.card || el.className;
    seen[name] = (seen[name] || 0) + 1;
    let x = 0; let y = 0;
    for (let e = el; e; e = e.offsetParent) { x += e.offsetLeft; y += e.offsetTop; }
    out[`${name}#${seen[name]}`] = [x, y, el.offsetWidth, el.offsetHeight];
  });
  return out;
},
};
