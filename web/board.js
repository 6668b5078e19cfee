// Drawing the board: squares, towers (every piece, top first in the FEN), marks and arrows.
// The server owns the rules: this module draws what it is given. The contract's attributes
// (data-square, data-tower, data-kings, data-orientation) are in web/CONTRACT.md.

export const FILES = 'abcdefgh';
const SQ = 100;           // square size in SVG units
const MARGIN = 20;        // room for the coordinates
const VISIBLE = 6;        // pieces drawn in full; taller towers are compacted
const SHOWN_TOP = 4;      // pieces kept on top of a compacted tower
const DISC_RX = 40, DISC_RY = 13, THICK = 11, STEP = 13;
const SVGNS = 'http://www.w3.org/2000/svg';
export const TITLES = { bashni: 'Bashni', turkish: 'Turkish draughts', russian: 'Russian draughts', brazilian: 'Brazilian draughts', lasca: 'Lasca' };
// Files and ranks of each game's board: Lasca's is 7x7, the others 8x8.
const sizeOf = (v) => (v === 'lasca' ? 7 : 8);

// {squares: {c3: 'Bbw', ...}, side: 'w'|'b'}; towers are listed top first.
export function parseFen(fen) {
  const [board, side] = fen.trim().split(/\s+/);
  const squares = {};
  const rows = board.split('/');
  rows.forEach((row, i) => {
    const rank = rows.length - i;
    let file = 0;
    for (let k = 0; k < row.length; k++) {
      const c = row[k];
      if (c >= '1' && c <= '8') { file += +c; continue; }
      let tower = c;
      if (c === '(') {
        const end = row.indexOf(')', k);
        tower = row.slice(k + 1, end);
        k = end;
      }
      squares[FILES[file] + rank] = tower;
      file++;
    }
  });
  return { squares, side: (side || 'w').toLowerCase() };
}

// Lasca plays on the squares of the corners' colour, which are a1's: the dark ones here too.
const isDark = (sq) => (FILES.indexOf(sq[0]) + +sq[1]) % 2 === 1;
// Turkish draughts is played on every square, the others on the dark ones.
const allSquares = (v) => v === 'turkish';
const isKing = (p) => p === p.toUpperCase();
// Lasca's men are soldiers and officers.
const rankWords = (v) => (v === 'lasca' ? ['officer', 'soldier'] : ['king', 'man']);
const pieceName = (p, v) => rankWords(v)[isKing(p) ? 0 : 1] + ' (' + (p.toLowerCase() === 'w' ? 'white' : 'black') + ')';

export function describeTower(sq, t, variant) {
  const stacks = variant === 'bashni' || variant === 'lasca';
  if (t.length === 1 && !stacks) return `${sq}: ${pieceName(t, variant)}`;
  const list = [...t].map((p, i) => (i === 0 ? 'commander: ' : '') + pieceName(p, variant)).join(', ');
  const kings = [...t].filter(isKing).length;
  const king = rankWords(variant)[0];
  return `${sq}: ${t} — ${t.length} piece${t.length > 1 ? 's' : ''}${kings ? `, ${kings} ${king}${kings > 1 ? 's' : ''}` : ''}, top first: ${list}`;
}

// Move text to a path of squares (a short capture form is not sent by the engine).
export const pathOf = (text) => text.split(/[-:x]/);

let view = { flipped: false, variant: 'bashni' };
function squareXY(sq) {
  const last = sizeOf(view.variant) - 1;
  let f = FILES.indexOf(sq[0]), r = +sq[1] - 1;
  if (view.flipped) { f = last - f; r = last - r; }
  return [MARGIN + f * SQ, MARGIN + (last - r) * SQ];
}
const center = (sq) => { const [x, y] = squareXY(sq); return [x + SQ / 2, y + SQ / 2]; };
function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function drawSquares(svg) {
  const defs = el('defs', {}, svg);
  const pat = el('pattern', { id: 'mixed', width: 12, height: 12, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  el('rect', { width: 6, height: 12, fill: '#eee' }, pat);
  el('rect', { x: 6, width: 6, height: 12, fill: '#333' }, pat);
  const g = el('g', { id: 'squares' }, svg);
  const all = allSquares(view.variant);
  const n = sizeOf(view.variant);
  for (let r = 1; r <= n; r++) {
    for (let f = 0; f < n; f++) {
      const sq = FILES[f] + r;
      const [x, y] = squareXY(sq);
      const cls = all ? 'sq-all' : isDark(sq) ? 'sq-dark' : 'sq-light';
      const attrs = { x, y, width: SQ, height: SQ, class: cls };
      if (all || isDark(sq)) attrs['data-square'] = sq;
      el('rect', attrs, g);
    }
  }
  for (let i = 0; i < n; i++) {
    const file = view.flipped ? FILES[n - 1 - i] : FILES[i];
    const rank = view.flipped ? i + 1 : n - i;
    el('text', { x: MARGIN + i * SQ + SQ / 2, y: n * SQ + 2 * MARGIN - MARGIN / 2, class: 'coord' }, g).textContent = file;
    el('text', { x: MARGIN / 2, y: MARGIN + i * SQ + SQ / 2, class: 'coord' }, g).textContent = rank;
  }
}

function crown(g, cx, cy, w, h, cls, color) {
  const x0 = cx - w / 2, y0 = cy - h / 2;
  el('path', {
    class: cls, 'data-color': color,
    d: `M${x0},${y0 + h} l0,${-h} l${w / 4},${h / 2} l${w / 4},${-h / 2} l${w / 4},${h / 2} l${w / 4},${-h / 2} l0,${h} z`,
  }, g);
}
// A small crown in the king's own colour (white, or black with a gold rim), so that buried
// kings of both sides are told apart; drawn inside the tower's square.
const smallCrown = (g, cx, cy, piece, cls = '') => {
  const color = piece.toLowerCase();
  crown(g, cx, cy, 14, 11, `crown-small crown-${color}${cls}`, color);
};

// `over`: what is drawn over the whole tower once its discs are drawn (a buried king's crown,
// which the discs above would hide).
function drawDisc(g, cx, y, piece, top, tall, over) {
  const cls = piece.toLowerCase() === 'w' ? 'pc-w' : 'pc-b';
  const d = el('g', { class: cls + (top ? ' commander' : '') + (top && tall ? ' of-tower' : '') }, g);
  el('path', {
    class: 'side',
    d: `M${cx - DISC_RX},${y} v${THICK} a${DISC_RX},${DISC_RY} 0 0 0 ${2 * DISC_RX},0 v${-THICK} z`,
  }, d);
  el('ellipse', { class: 'top', cx, cy: y, rx: DISC_RX, ry: DISC_RY }, d);
  if (!isKing(piece)) return;
  const color = piece.toLowerCase();
  if (top) {
    // A crown on the commanding king.
    crown(g, cx, y - 2, 30, 16, 'crown king-mark', color);
  } else {
    // A buried king: a gold band round its edge and a small crown of its colour on its side.
    el('path', { class: 'king-band king-mark', 'data-color': color, d: `M${cx - DISC_RX},${y + THICK / 2} a${DISC_RX},${DISC_RY} 0 0 0 ${2 * DISC_RX},0` }, d);
    over.push(() => smallCrown(g, cx + DISC_RX - 12, y + THICK + 4, piece));
  }
}

function drawTower(layer, sq, tower) {
  const [cx, cy] = center(sq);
  const n = tower.length;
  const compact = n > VISIBLE;
  const kings = [...tower].filter(isKing).length;
  const g = el('g', {
    class: 'tower cmd-' + tower[0].toLowerCase(),
    'data-square': sq,
    'data-tower': tower,
    'data-kings': kings,
  }, layer);
  // Hover (or a long tap) gives the whole tower.
  el('title', {}, g).textContent = describeTower(sq, tower, view.variant);
  // Bottom to top: a compacted tower shows its top pieces over one striped band.
  const pieces = compact ? tower.slice(0, SHOWN_TOP) : tower;
  const over = [];
  const levels = pieces.length + (compact ? 1 : 0);
  const height = (levels - 1) * STEP;
  let y = cy + height / 2 - THICK / 2 + 2;
  if (compact) {
    el('path', {
      class: 'hidden-band',
      d: `M${cx - DISC_RX},${y} v${THICK} a${DISC_RX},${DISC_RY} 0 0 0 ${2 * DISC_RX},0 v${-THICK} a${DISC_RX},${DISC_RY} 0 0 0 ${-2 * DISC_RX},0 z`,
    }, g);
    // Kings among the hidden pieces: one small crown each, in its colour, in a row on the
    // band (top first from the left), closer together when many, always inside the square.
    const hidden = [...tower.slice(SHOWN_TOP)].filter(isKing);
    const gap = Math.min(16, hidden.length > 1 ? (2 * DISC_RX - 16) / (hidden.length - 1) : 0);
    const by = y + THICK + 5;
    hidden.forEach((p, k) => over.push(() => smallCrown(g, cx - (gap * (hidden.length - 1)) / 2 + k * gap, by, p, ' king-mark')));
    y -= STEP;
  }
  for (let i = pieces.length - 1; i >= 0; i--) {
    drawDisc(g, cx, y, pieces[i], i === 0, n > 1, over);
    y -= STEP;
  }
  over.forEach((draw) => draw());
  if (n > 1) {
    // The height of every tower of two or more (shown again above the arrows: #badges).
    const b = el('g', { class: 'badge' + (compact ? ' tall' : ''), id: 'badge-' + sq }, g);
    const bx = cx + SQ / 2 - 15, by = cy - SQ / 2 + 15;
    el('circle', { cx: bx, cy: by, r: 14 }, b);
    el('text', { x: bx, y: by }, b).textContent = String(n);
  }
}

// `extra`: more attributes of the arrow's path; `extra.label` (not an attribute) is written
// beside its head.
function drawArrow(layer, path, cls, extra = {}) {
  if (!path || path.length < 2) return;
  const pts = path.map(center);
  const d = 'M' + pts.map((p) => p.join(',')).join(' L');
  const { label, ...attrs } = extra;
  el('path', { class: 'arrow ' + cls, d, 'marker-end': `url(#head-${cls.split(' ')[0]})`, ...attrs }, layer);
  if (label) {
    // Beside the head, on the side away from the tail, and wholly inside the board however
    // long the label (`Black wins in 12`): its box is as wide as its text, and moved in from
    // an edge rather than cut by it.
    const [x, y] = pts[pts.length - 1], [px, py] = pts[pts.length - 2];
    const side = MARGIN + sizeOf(view.variant) * SQ;
    const t = el('g', { class: 'arrow-label ' + cls }, layer);
    const box = el('rect', { height: 28, rx: 6 }, t);
    const text = el('text', {}, t);
    text.textContent = label;
    let width = 12 * label.length;
    try { const w = text.getComputedTextLength(); if (w > 0) width = w; } catch (e) { /* not laid out */ }
    const half = Math.min(side / 2 - 4, width / 2 + 8);
    const lx = Math.max(4 + half, Math.min(side - 4 - half, x + Math.sign(x - px) * 10));
    const ly = Math.max(MARGIN + 22, Math.min(side - 8, y + (y >= py ? 38 : -26)));
    Object.entries({ x: lx - half, y: ly - 20, width: 2 * half }).forEach(([k, v]) => box.setAttribute(k, v));
    text.setAttribute('x', lx);
    text.setAttribute('y', ly - 6);
  }
}

function arrowHeads(svg) {
  const defs = svg.querySelector('defs');
  for (const [name, color] of [['hint', '#1d6fb8'], ['pv1', '#2f6f4f'], ['pv2', '#2f6f4f'], ['pv3', '#2f6f4f'], ['pv4', '#2f6f4f'], ['pv5', '#2f6f4f'], ['lastmove', '#b08a1c'], ['best', '#c0392b'], ['threat', '#d01c1c']]) {
    const m = el('marker', { id: 'head-' + name, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: color }, m);
  }
}

let drawnAs = null;
// opts: {variant, flipped, fen (null: no game), ply, last (the last move's text), sel
// ({from, via, cands} while choosing a move), arrows: [[moveText, class, extra (drawArrow)]]}.
export function drawBoard(svg, opts) {
  view = { flipped: opts.flipped, variant: opts.variant };
  svg.setAttribute('data-orientation', opts.flipped ? 'black' : 'white');
  // The squares are drawn again when the board turns or the game changes.
  if (drawnAs !== opts.flipped + opts.variant) {
    svg.replaceChildren();
    drawSquares(svg);
    arrowHeads(svg);
    el('g', { id: 'marks' }, svg);
    el('g', { id: 'towers' }, svg);
    el('g', { id: 'arrows' }, svg);
    // Every tower's height badge again, above the arrows: an arrow never hides one.
    el('g', { id: 'badges' }, svg);
    drawnAs = opts.flipped + opts.variant;
    svg.setAttribute('data-variant', opts.variant);
    const side = sizeOf(opts.variant) * SQ + 2 * MARGIN;
    svg.setAttribute('viewBox', `0 0 ${side} ${side}`);
    svg.setAttribute('aria-label', TITLES[opts.variant] + ' board');
  }
  const marks = svg.querySelector('#marks'), towers = svg.querySelector('#towers'), arrows = svg.querySelector('#arrows');
  const badges = svg.querySelector('#badges');
  marks.replaceChildren(); towers.replaceChildren(); arrows.replaceChildren(); badges.replaceChildren();
  if (!opts.fen) { svg.removeAttribute('data-fen'); return; }
  svg.setAttribute('data-fen', opts.fen);
  svg.setAttribute('data-ply', opts.ply);
  const mark = (sq, cls) => { const [x, y] = squareXY(sq); el('rect', { x, y, width: SQ, height: SQ, class: cls }, marks); };
  if (opts.last) {
    const last = pathOf(opts.last);
    mark(last[0], 'hl-last'); mark(last[last.length - 1], 'hl-last');
    drawArrow(arrows, last, 'lastmove');
  }
  const sel = opts.sel;
  if (sel) {
    mark(sel.from, 'hl-sel');
    for (const v of sel.via) mark(v, 'hl-sel');
    const ends = new Set(), vias = new Set();
    for (const m of sel.cands) {
      ends.add(m.path[m.path.length - 1]);
      m.path.slice(1, -1).forEach((s) => vias.add(s));
    }
    for (const s of ends) { const [x, y] = center(s); el('circle', { cx: x, cy: y, r: 16, class: 'hl-dest' }, marks); }
    for (const s of vias) if (!ends.has(s) && !sel.via.includes(s)) { const [x, y] = squareXY(s); el('rect', { x: x + 6, y: y + 6, width: SQ - 12, height: SQ - 12, class: 'hl-via' }, marks); }
  }
  const { squares } = parseFen(opts.fen);
  for (const sq of Object.keys(squares)) drawTower(towers, sq, squares[sq]);
  for (const [move, cls, extra] of opts.arrows || []) drawArrow(arrows, pathOf(move), cls, extra);
  for (const b of towers.querySelectorAll('.badge')) el('use', { href: '#' + b.id, class: 'badge-top' }, badges);
}
