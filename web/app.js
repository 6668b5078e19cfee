// bashni in the browser: Bashni, Turkish draughts and Russian draughts. The server owns the
// rules: this page draws what it is sent (the FEN of every position, the legal moves with
// their paths) and sends moves back; the game only decides which squares are drawn as
// playable (the 32 dark ones, or all 64 in Turkish draughts). The automation contract
// (data-square, data-tower, #moves, #status) is in web/CONTRACT.md.
'use strict';

const FILES = 'abcdefgh';
const SQ = 100;           // square size in SVG units
const MARGIN = 20;        // room for the coordinates
const VISIBLE = 6;        // pieces drawn in full; taller towers are compacted
const SHOWN_TOP = 4;      // pieces kept on top of a compacted tower
const DISC_RX = 40, DISC_RY = 13, THICK = 11, STEP = 13;
const SVGNS = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

const ui = {
  info: null,        // GET /api/info
  st: null,          // the game state from the server
  shown: 0,          // ply shown on the board
  follow: true,      // the shown ply follows the end of the game
  flipped: false,    // Black at the bottom
  sel: null,         // {from, via: [], cands: [...]} while choosing a move
  legalAt: null,     // {ply, legal} for an earlier position (analysis)
  analysis: null,    // the last analysis event
  es: null,          // EventSource
  settings: null,    // the last new-game request (without its start)
  clockBase: 0,      // performance.now() when the clocks were received
};

// ---------- FEN (display only: the server has checked it) ----------

// {squares: {c3: 'Bbw', ...}, side: 'w'|'b'}; towers are listed top first.
function parseFen(fen) {
  const [board, side] = fen.trim().split(/\s+/);
  const squares = {};
  board.split('/').forEach((row, i) => {
    const rank = 8 - i;
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

const isDark = (sq) => (FILES.indexOf(sq[0]) + +sq[1]) % 2 === 1;
const variant = () => (ui.st ? ui.st.variant : 'bashni');
// Turkish draughts is played on every square, the others on the dark ones.
const allSquares = (v) => v === 'turkish';
const playable = (sq) => allSquares(variant()) || isDark(sq);
const TITLES = { bashni: 'Bashni', turkish: 'Turkish draughts', russian: 'Russian draughts' };
function squareXY(sq) {
  let f = FILES.indexOf(sq[0]), r = +sq[1] - 1;
  if (ui.flipped) { f = 7 - f; r = 7 - r; }
  return [MARGIN + f * SQ, MARGIN + (7 - r) * SQ];
}
const center = (sq) => { const [x, y] = squareXY(sq); return [x + SQ / 2, y + SQ / 2]; };
function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
const pieceName = (p) => (p === p.toUpperCase() ? 'king' : 'man') + ' (' + (p.toLowerCase() === 'w' ? 'white' : 'black') + ')';
function describeTower(sq, t) {
  if (t.length === 1 && variant() !== 'bashni') return `${sq}: ${pieceName(t)}`;
  const list = [...t].map((p, i) => (i === 0 ? 'commander: ' : '') + pieceName(p)).join(', ');
  return `${sq}: ${t} — ${t.length} piece${t.length > 1 ? 's' : ''}, top first: ${list}`;
}

// ---------- API ----------

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers['Content-Type'] = 'application/json'; }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw new Error(data && data.error ? data.error : `HTTP ${r.status}`);
  return data;
}
function notice(text) { $('notice').textContent = text || ''; }
async function act(action, body) {
  if (!ui.st) return;
  notice('');
  try { accept(await api('POST', `/api/games/${ui.st.id}/${action}`, body || {})); }
  catch (e) { notice(e.message); }
}

// ---------- game life ----------

// A new game: created first, and only once the server has accepted it does it replace the
// game shown (a bad FEN, PDN or variant leaves the current game exactly as it was).
async function newGame(body, loaded) {
  let st;
  try {
    st = await api('POST', '/api/games', body);
  } catch (e) {
    notice((loaded ? `Could not open this ${loaded}: ` : '') + e.message);
    render();
    return false;
  }
  const old = ui.st;
  if (ui.es) { ui.es.close(); ui.es = null; }
  if (old) api('DELETE', `/api/games/${old.id}`).catch(() => {});
  ui.st = null; ui.analysis = null; ui.sel = null; ui.legalAt = null; ui.follow = true;
  $('analysis-on').checked = false;
  ui.flipped = st.human === 'black';
  notice(loaded ? `Loaded ${TITLES[st.variant]} from ${loaded}: ${st.moves.length} ${st.moves.length === 1 ? 'ply' : 'plies'}, ${st.status}` : '');
  accept(st);
  listen(st.id);
  return true;
}

function listen(id) {
  const es = new EventSource(`/api/games/${id}/events`);
  ui.es = es;
  es.addEventListener('state', (e) => accept(JSON.parse(e.data)));
  es.addEventListener('analysis', (e) => { ui.analysis = JSON.parse(e.data); render(); });
  es.addEventListener('gone', () => { es.close(); notice('This game was closed by the server. Start a new one.'); });
  es.onerror = () => { if (es.readyState === EventSource.CLOSED && ui.es === es) notice('Lost the connection to the server. Start a new game.'); };
}

// Takes a state from the server (a reply or an event), the newest one wins.
function accept(st) {
  if (ui.st && st.id === ui.st.id && st.version < ui.st.version) return;
  const grew = !ui.st || st.id !== ui.st.id || st.moves.length !== ui.st.moves.length || st.moves.join() !== ui.st.moves.join();
  ui.st = st;
  document.body.dataset.game = st.id;
  ui.clockBase = performance.now();
  if (ui.follow || ui.shown > st.moves.length) ui.shown = st.moves.length;
  if (grew) { ui.sel = null; ui.legalAt = null; hideChoice(); }
  if (!st.analysis) { ui.analysis = null; $('analysis-on').checked = false; }
  else if (ui.analysis && ui.analysis.ply !== st.analysis.ply) ui.analysis = null;
  render();
}

function show(ply) {
  const st = ui.st;
  if (!st) return;
  ply = Math.max(0, Math.min(st.moves.length, ply));
  ui.shown = ply;
  ui.follow = ply === st.moves.length;
  ui.sel = null; hideChoice();
  if (st.analysis && st.analysis.ply !== ply) analyse(true);
  render();
}

// ---------- moving ----------

// The legal moves of the shown position, or null if the board takes no move now.
function movesHere() {
  const st = ui.st;
  if (!st || st.result && ui.shown === st.moves.length) return null;
  if (ui.shown === st.moves.length) {
    if (st.analysis || st.your_turn) return st.legal;
    return null;
  }
  if (!st.analysis && st.human !== 'both') return null;
  if (ui.legalAt && ui.legalAt.ply === ui.shown) return ui.legalAt.legal;
  const ply = ui.shown;
  api('GET', `/api/games/${st.id}/legal?ply=${ply}`).then((l) => { if (ui.shown === ply) { ui.legalAt = l; render(); } }).catch((e) => notice(e.message));
  return null;
}

// Candidates through the clicked squares so far: `via` must appear in order after the origin.
function matching(legal, from, via) {
  return legal.filter((m) => {
    if (m.path[0] !== from) return false;
    let i = 1;
    for (const v of via) {
      while (i < m.path.length && m.path[i] !== v) i++;
      if (i >= m.path.length) return false;
      i++;
    }
    return true;
  });
}

function play(m) {
  ui.sel = null; hideChoice();
  const body = { move: m.move };
  if (ui.shown !== ui.st.moves.length) body.ply = ui.shown;
  ui.follow = true;
  act('move', body);
}

function clickSquare(sq) {
  const legal = movesHere();
  const st = ui.st;
  const tower = st ? parseFen(st.fens[ui.shown]).squares[sq] : null;
  if (tower) $('tower-info').textContent = describeTower(sq, tower);
  if (!legal) return;
  const sel = ui.sel;
  if (sel) {
    // Squares clicked in the order of the path narrow it best; in another order they still
    // narrow by which squares a path passes.
    let after = matching(legal, sel.from, [...sel.via, sq]);
    if (!after.length && sel.via.length) {
      const want = [...sel.via, sq];
      after = sel.cands.filter((m) => want.every((s) => m.path.slice(1).includes(s)));
    }
    // The origin clicked again (and no path returns to it): let go.
    if (!after.length || (sq === sel.from && !sel.via.length && !after.some((m) => m.path[m.path.length - 1] === sq))) {
      ui.sel = null; hideChoice();
      if (sq !== sel.from && legal.some((m) => m.path[0] === sq)) return clickSquare(sq);
      render();
      return;
    }
    if (after.length === 1) return play(after[0]);
    ui.sel = { from: sel.from, via: [...sel.via, sq], cands: after };
    showChoice(after);
    render();
    return;
  }
  const cands = legal.filter((m) => m.path[0] === sq);
  if (!cands.length) return;
  ui.sel = { from: sq, via: [], cands };
  render();
}

function showChoice(cands) {
  const box = $('choice');
  box.replaceChildren();
  const p = document.createElement('div');
  p.textContent = 'Several captures fit: click a square on the way, or choose:';
  box.appendChild(p);
  for (const m of cands) {
    const b = document.createElement('button');
    b.textContent = m.move;
    b.dataset.move = m.move;
    b.onclick = () => play(m);
    box.appendChild(b);
  }
  box.hidden = false;
}
function hideChoice() { $('choice').hidden = true; $('choice').replaceChildren(); }

// ---------- drawing ----------

function drawSquares(svg) {
  const defs = el('defs', {}, svg);
  const pat = el('pattern', { id: 'mixed', width: 12, height: 12, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  el('rect', { width: 6, height: 12, fill: '#eee' }, pat);
  el('rect', { x: 6, width: 6, height: 12, fill: '#333' }, pat);
  const g = el('g', { id: 'squares' }, svg);
  const all = allSquares(variant());
  for (let r = 1; r <= 8; r++) {
    for (let f = 0; f < 8; f++) {
      const sq = FILES[f] + r;
      const [x, y] = squareXY(sq);
      const cls = all ? 'sq-all' : isDark(sq) ? 'sq-dark' : 'sq-light';
      const attrs = { x, y, width: SQ, height: SQ, class: cls };
      if (playable(sq)) attrs['data-square'] = sq;
      el('rect', attrs, g);
    }
  }
  for (let i = 0; i < 8; i++) {
    const file = ui.flipped ? FILES[7 - i] : FILES[i];
    const rank = ui.flipped ? i + 1 : 8 - i;
    el('text', { x: MARGIN + i * SQ + SQ / 2, y: 840 - MARGIN / 2, class: 'coord' }, g).textContent = file;
    el('text', { x: MARGIN / 2, y: MARGIN + i * SQ + SQ / 2, class: 'coord' }, g).textContent = rank;
  }
}

function drawDisc(g, cx, y, piece, top) {
  const cls = piece.toLowerCase() === 'w' ? 'pc-w' : 'pc-b';
  const d = el('g', { class: cls + (top ? ' commander' : '') + (top && g.dataset.tower.length > 1 ? ' of-tower' : '') }, g);
  el('path', {
    class: 'side',
    d: `M${cx - DISC_RX},${y} v${THICK} a${DISC_RX},${DISC_RY} 0 0 0 ${2 * DISC_RX},0 v${-THICK} z`,
  }, d);
  el('ellipse', { class: 'top', cx, cy: y, rx: DISC_RX, ry: DISC_RY }, d);
  if (top && piece === piece.toUpperCase()) {
    // A crown on the commanding king.
    const w = 30, h = 16, x0 = cx - w / 2, y0 = y - h / 2 - 2;
    el('path', {
      class: 'crown',
      d: `M${x0},${y0 + h} l0,${-h} l${w / 4},${h / 2} l${w / 4},${-h / 2} l${w / 4},${h / 2} l${w / 4},${-h / 2} l0,${h} z`,
    }, g);
  }
}

function drawTower(layer, sq, tower) {
  const [cx, cy] = center(sq);
  const n = tower.length;
  const compact = n > VISIBLE;
  const g = el('g', {
    class: 'tower cmd-' + tower[0].toLowerCase(),
    'data-square': sq,
    'data-tower': tower,
  }, layer);
  el('title', {}, g).textContent = describeTower(sq, tower);
  // Bottom to top: a compacted tower shows its top pieces over one striped band.
  const pieces = compact ? tower.slice(0, SHOWN_TOP) : tower;
  const levels = pieces.length + (compact ? 1 : 0);
  const height = (levels - 1) * STEP;
  let y = cy + height / 2 - THICK / 2 + 2;
  if (compact) {
    el('path', {
      class: 'hidden-band',
      d: `M${cx - DISC_RX},${y} v${THICK} a${DISC_RX},${DISC_RY} 0 0 0 ${2 * DISC_RX},0 v${-THICK} a${DISC_RX},${DISC_RY} 0 0 0 ${-2 * DISC_RX},0 z`,
    }, g);
    y -= STEP;
  }
  for (let i = pieces.length - 1; i >= 0; i--) {
    drawDisc(g, cx, y, pieces[i], i === 0);
    y -= STEP;
  }
  if (compact) {
    const b = el('g', { class: 'badge' }, g);
    const bx = cx + SQ / 2 - 16, by = cy - SQ / 2 + 16;
    el('circle', { cx: bx, cy: by, r: 15 }, b);
    el('text', { x: bx, y: by }, b).textContent = String(n);
  }
}

function drawArrow(layer, path, cls) {
  if (!path || path.length < 2) return;
  const pts = path.map(center);
  const d = 'M' + pts.map((p) => p.join(',')).join(' L');
  el('path', { class: 'arrow ' + cls, d, 'marker-end': `url(#head-${cls.split(' ')[0]})` }, layer);
}

function arrowHeads(svg) {
  const defs = svg.querySelector('defs');
  for (const [name, color] of [['hint', '#1d6fb8'], ['pv1', '#2f6f4f'], ['pv2', '#2f6f4f'], ['pv3', '#2f6f4f'], ['pv4', '#2f6f4f'], ['pv5', '#2f6f4f'], ['lastmove', '#b08a1c']]) {
    const m = el('marker', { id: 'head-' + name, viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3, markerHeight: 3, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', fill: color }, m);
  }
}

// Move text to a path of squares (a short capture form is not sent by the engine).
const pathOf = (text) => text.split(/[-:x]/);

let drawnAs = null;
function renderBoard() {
  const svg = $('board');
  const v = variant();
  // The squares are drawn again when the board turns or the game changes.
  if (drawnAs !== ui.flipped + v) {
    svg.replaceChildren();
    drawSquares(svg);
    arrowHeads(svg);
    el('g', { id: 'marks' }, svg);
    el('g', { id: 'towers' }, svg);
    el('g', { id: 'arrows' }, svg);
    drawnAs = ui.flipped + v;
    svg.setAttribute('data-variant', v);
    svg.setAttribute('aria-label', TITLES[v] + ' board');
    $('game-name').textContent = TITLES[v];
    document.title = 'bashni · ' + TITLES[v];
  }
  const marks = $('marks'), towers = $('towers'), arrows = $('arrows');
  marks.replaceChildren(); towers.replaceChildren(); arrows.replaceChildren();
  const st = ui.st;
  if (!st) { svg.removeAttribute('data-fen'); return; }
  const fen = st.fens[ui.shown];
  svg.setAttribute('data-fen', fen);
  svg.setAttribute('data-ply', ui.shown);
  const mark = (sq, cls) => { const [x, y] = squareXY(sq); el('rect', { x, y, width: SQ, height: SQ, class: cls }, marks); };
  if (ui.shown > 0) {
    const last = pathOf(st.moves[ui.shown - 1]);
    mark(last[0], 'hl-last'); mark(last[last.length - 1], 'hl-last');
    drawArrow(arrows, last, 'lastmove');
  }
  if (ui.sel) {
    mark(ui.sel.from, 'hl-sel');
    for (const v of ui.sel.via) mark(v, 'hl-sel');
    const ends = new Set(), vias = new Set();
    for (const m of ui.sel.cands) {
      ends.add(m.path[m.path.length - 1]);
      m.path.slice(1, -1).forEach((s) => vias.add(s));
    }
    for (const s of ends) { const [x, y] = center(s); el('circle', { cx: x, cy: y, r: 16, class: 'hl-dest' }, marks); }
    for (const s of vias) if (!ends.has(s) && !ui.sel.via.includes(s)) { const [x, y] = squareXY(s); el('rect', { x: x + 6, y: y + 6, width: SQ - 12, height: SQ - 12, class: 'hl-via' }, marks); }
  }
  const { squares } = parseFen(fen);
  for (const sq of Object.keys(squares)) drawTower(towers, sq, squares[sq]);
  if (st.hint && st.hint.ply === ui.shown && !st.analysis) drawArrow(arrows, pathOf(st.hint.move), 'hint');
  const an = ui.analysis;
  if (st.analysis && an && an.ply === ui.shown) {
    an.lines.slice().reverse().forEach((l) => drawArrow(arrows, pathOf(l.pv[0]), 'pv' + Math.min(l.multipv, 5)));
  }
}

function renderMoves() {
  const st = ui.st;
  const list = $('moves');
  list.replaceChildren();
  if (!st) return;
  const start = parseFen(st.start_fen);
  let number = +(st.start_fen.trim().split(/\s+/)[3] || 1);
  let white = start.side === 'w';
  st.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = m;
    li.dataset.move = m;
    li.dataset.ply = i + 1;
    if (white) li.dataset.num = number + '.';
    else if (i === 0) li.dataset.num = number + '…';
    if (!white) number++;
    white = !white;
    if (i + 1 === ui.shown) li.classList.add('current');
    li.onclick = () => show(i + 1);
    list.appendChild(li);
  });
  const cur = list.querySelector('.current');
  if (cur && ui.follow) cur.scrollIntoView({ block: 'nearest' });
}

function fmtClock(ms) {
  const neg = ms < 0; ms = Math.abs(ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const tenths = ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '';
  return (neg ? '-' : '') + m + ':' + String(s % 60).padStart(2, '0') + tenths;
}

function renderClocks() {
  const st = ui.st;
  const top = $('clock-top'), bottom = $('clock-bottom');
  if (!st || st.time.kind !== 'clock') { top.textContent = ''; bottom.textContent = ''; return; }
  const t = st.time;
  const elapsed = performance.now() - ui.clockBase;
  const left = { white: t.white_ms - (t.running === 'white' ? elapsed : 0), black: t.black_ms - (t.running === 'black' ? elapsed : 0) };
  const [low, high] = ui.flipped ? ['black', 'white'] : ['white', 'black'];
  for (const [box, side] of [[bottom, low], [top, high]]) {
    box.textContent = (side === 'white' ? 'White ' : 'Black ') + fmtClock(left[side]);
    box.dataset.side = side;
    box.classList.toggle('running', t.running === side);
    box.classList.toggle('low', left[side] < 10000);
  }
}

function scoreText(score, side) {
  // Scores arrive from the mover's view; shown from White's.
  const sign = side === 'w' ? 1 : -1;
  if (score.mate !== undefined) {
    const n = score.mate * sign;
    return (n > 0 ? 'White' : 'Black') + ' wins in ' + Math.abs(score.mate);
  }
  const cp = score.cp * sign;
  return (cp >= 0 ? '+' : '−') + (Math.abs(cp) / 100).toFixed(2);
}
function whiteShare(score, side) {
  const sign = side === 'w' ? 1 : -1;
  if (score.mate !== undefined) return score.mate * sign > 0 ? 1 : 0;
  return 0.5 + 0.5 * Math.tanh((score.cp * sign) / 400);
}

function renderAnalysis() {
  const st = ui.st;
  const on = !!(st && st.analysis);
  $('analysis-panel').hidden = !on;
  $('evalbar').hidden = !on;
  if (!on) return;
  const an = ui.analysis && ui.analysis.ply === ui.shown ? ui.analysis : null;
  const side = parseFen(st.fens[ui.shown]).side;
  const lines = $('an-lines');
  lines.replaceChildren();
  if (!an || !an.lines.length) {
    $('an-score').textContent = st.result && ui.shown === st.moves.length ? 'game over' : '…';
    $('an-depth').textContent = '';
    $('evalfill').style.height = '50%';
    $('evaltext').textContent = '';
    return;
  }
  const best = an.lines[0];
  $('an-score').textContent = scoreText(best.score, side);
  $('an-score').dataset.depth = best.depth;
  $('an-depth').textContent = 'depth ' + best.depth + (an.done ? ' (stopped)' : '');
  $('evalfill').style.height = (100 * whiteShare(best.score, side)).toFixed(1) + '%';
  $('evaltext').textContent = scoreText(best.score, side);
  for (const l of an.lines) {
    const li = document.createElement('li');
    li.textContent = scoreText(l.score, side) + '  ' + l.pv.slice(0, 10).join(' ');
    li.title = `depth ${l.depth}: ${l.pv.join(' ')}`;
    lines.appendChild(li);
  }
}

function renderStatus() {
  const st = ui.st;
  const box = $('status');
  if (!st) { box.textContent = 'No game'; box.dataset.state = 'none'; return; }
  let text = st.status;
  if (st.thinking === 'hint') text += ' — looking for a hint…';
  if (ui.shown !== st.moves.length) text += ` — showing ply ${ui.shown} of ${st.moves.length}`;
  box.textContent = text;
  box.dataset.state = st.result ? 'over' : st.turn + '-to-move';
  box.dataset.thinking = st.thinking || '';
  box.dataset.yourTurn = String(!!st.your_turn);
  if (st.result) { box.dataset.result = st.result.result; box.dataset.reason = st.result.reason; }
  else { delete box.dataset.result; delete box.dataset.reason; }
  if (st.notice) notice(st.notice);
}

function renderControls() {
  const st = ui.st;
  const over = !st || !!st.result;
  $('btn-takeback').disabled = !st || st.moves.length === 0;
  $('btn-resign').disabled = over;
  $('btn-hint').disabled = over || !st.your_turn || !!st.analysis || st.thinking === 'hint';
  $('btn-retry').hidden = !st || !st.engine_failed;
  $('pdn-download').href = st ? `/api/games/${st.id}/pdn` : '#';
  if (st) {
    const fen = st.fens[ui.shown];
    $('fen-link').href = (st.variant === 'bashni' ? '/?' : `/?variant=${st.variant}&`) + 'fen=' + encodeURIComponent(fen);
    if (document.activeElement !== $('fen')) $('fen').value = fen;
  }
}

function render() {
  renderBoard();
  renderMoves();
  renderClocks();
  renderAnalysis();
  renderStatus();
  renderControls();
}

// ---------- analysis ----------

let analyseTimer = null;
function analyse(on) {
  clearTimeout(analyseTimer);
  // Stepping quickly through the moves asks for one analysis, not one per step.
  analyseTimer = setTimeout(() => {
    ui.analysis = null;
    const body = on ? { on: true, ply: ui.shown, multipv: +$('multipv').value } : { on: false };
    act('analysis', body);
  }, on ? 120 : 0);
}

// ---------- new game dialog ----------

function levelLabel() {
  const l = +$('level').value;
  const elo = ui.info ? ui.info.levels[l].elo : '';
  const measured = $('variant').value === 'bashni' ? '' : ' (in Bashni)';
  $('level-out').textContent = `Level ${l}${l === 20 ? ' (full strength)' : ''} · Elo ${elo}${measured}`;
}

function dialogSettings() {
  const form = $('new-form');
  const body = { variant: $('variant').value, human: form.human.value, level: +$('level').value };
  if (form.tmode.value === 'clock') {
    body.clock = { base_ms: Math.round(+$('clock-min').value * 60000), inc_ms: Math.round(+$('clock-inc').value * 1000) };
  } else {
    body.movetime_ms = Math.round(+$('movetime').value * 1000);
  }
  return body;
}

function openDialog() {
  if (ui.st) $('variant').value = ui.st.variant;
  levelLabel();
  $('new-dialog').showModal();
}

// ---------- wiring ----------

function wire() {
  $('board').addEventListener('click', (e) => {
    const t = e.target.closest('[data-square]');
    if (t) clickSquare(t.getAttribute('data-square'));
  });
  $('btn-new').onclick = openDialog;
  $('btn-flip').onclick = () => { ui.flipped = !ui.flipped; render(); };
  $('btn-takeback').onclick = () => { ui.follow = true; act('takeback'); };
  $('btn-hint').onclick = () => act('hint');
  $('btn-resign').onclick = () => { if (confirm('Resign this game?')) act('resign'); };
  $('btn-retry').onclick = () => act('retry');
  $('analysis-on').onchange = (e) => analyse(e.target.checked);
  $('multipv').onchange = () => { if (ui.st && ui.st.analysis) analyse(true); };
  $('nav-first').onclick = () => show(0);
  $('nav-prev').onclick = () => show(ui.shown - 1);
  $('nav-next').onclick = () => show(ui.shown + 1);
  $('nav-last').onclick = () => show(ui.st ? ui.st.moves.length : 0);
  $('level').oninput = levelLabel;
  $('variant').onchange = levelLabel;
  $('new-dialog').addEventListener('close', () => {
    if ($('new-dialog').returnValue !== 'start') return;
    const body = dialogSettings();
    ui.settings = body;
    try { localStorage.setItem('bashni-settings', JSON.stringify(body)); } catch (e) { /* private mode */ }
    const fen = $('new-fen').value.trim();
    newGame(fen ? { ...body, fen } : body);
  });
  $('fen-open').onclick = () => {
    const fen = $('fen').value.trim();
    if (fen) newGame({ ...(ui.settings || {}), human: 'both', fen, variant: variant() }, 'FEN');
  };
  $('pdn-file').onchange = async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const text = await f.text();
    e.target.value = '';
    // The server reads the game from the PDN's GameType.
    const { variant: _, ...rest } = ui.settings || {};
    newGame({ ...rest, human: 'both', pdn: text }, 'PDN');
  };
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input, select, textarea') || $('new-dialog').open) return;
    const keys = { ArrowLeft: () => show(ui.shown - 1), ArrowRight: () => show(ui.shown + 1), Home: () => show(0), End: () => show(ui.st ? ui.st.moves.length : 0), f: () => $('btn-flip').click(), n: openDialog };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  // Closing or leaving the page frees its engine at once (else the server notices the closed
  // event stream within seconds).
  window.addEventListener('pagehide', () => { if (ui.st) fetch(`/api/games/${ui.st.id}`, { method: 'DELETE', keepalive: true }).catch(() => {}); });
  setInterval(() => { if (ui.st && ui.st.time.kind === 'clock' && ui.st.time.running) renderClocks(); }, 100);
}

function restoreSettings() {
  try {
    const s = JSON.parse(localStorage.getItem('bashni-settings') || 'null');
    if (!s) return null;
    const form = $('new-form');
    form.human.value = s.human || 'white';
    if (TITLES[s.variant]) $('variant').value = s.variant;
    $('level').value = s.level ?? 5;
    if (s.clock) { form.tmode.value = 'clock'; $('clock-min').value = s.clock.base_ms / 60000; $('clock-inc').value = s.clock.inc_ms / 1000; }
    else if (s.movetime_ms) { form.tmode.value = 'move'; $('movetime').value = s.movetime_ms / 1000; }
    return s;
  } catch (e) { return null; }
}

async function main() {
  wire();
  render();
  try { ui.info = await api('GET', '/api/info'); } catch (e) { notice(e.message); }
  if (ui.info) {
    $('level').value = ui.info.default_level;
    $('movetime').value = ui.info.default_movetime_ms / 1000;
    $('movetime').max = ui.info.max_think_ms / 1000;
  }
  ui.settings = restoreSettings() || dialogSettings();
  // `bashni serve --variant turkish`: the server names the first game.
  const served = ui.info && TITLES[ui.info.default_variant];
  if (served) { $('variant').value = ui.info.default_variant; ui.settings.variant = ui.info.default_variant; }
  levelLabel();
  const query = new URLSearchParams(location.search);
  const fen = query.get('fen');
  // /?variant=turkish&fen=...: a game (and position) named in the address.
  const v = query.get('variant');
  const named = v ? { variant: v } : fen ? { variant: 'bashni' } : {};
  const ok = fen ? await newGame({ ...ui.settings, ...named, human: 'both', fen }, 'FEN')
    : await newGame({ ...ui.settings, ...named });
  if (!ok) {
    // The address named a game the server refuses: say why, and start the usual one.
    const why = $('notice').textContent;
    const { variant: _, ...rest } = ui.settings;
    await newGame(served ? { ...rest, variant: ui.info.default_variant } : rest);
    notice(why);
  }
}

main();
