// bashni in the browser: Bashni, Turkish draughts and Russian draughts. The server owns the
// rules: this page draws what it is sent (the FEN of every position, the legal moves with
// their paths) and sends moves back. Modules: board.js draws, tree.js keeps the move tree
// (main line and nested variations), moves.js lists it, review.js runs a game review,
// store.js keeps the game in localStorage, api.js talks to the server, state.js holds what
// they share; this one runs the page. The automation contract (data-square, data-tower,
// #moves, #status, ...) is in web/CONTRACT.md.

import * as API from './api.js';
import { TITLES, parseFen, describeTower, drawBoard } from './board.js';
import * as T from './tree.js';
import { ui, $, actions, variant, notice } from './state.js';
import * as S from './store.js';
import { renderMoves, mainResult } from './moves.js';
import { renderReview, wireReview, bestArrow } from './review.js';
import { takeMove } from './learn.js';
import { renderAnalysis } from './analysis.js';
import { scoreText } from './score.js';
import { renderNotes, wireNotes, noteText } from './comments.js';
import { wirePaste } from './paste.js';
import { wireHand, keepClick, replayClick } from './drag.js';
import { wireSwipe } from './swipe.js';
import { handleKey } from './keys.js';
import { threatArrows, toggleThreat } from './threat.js';
import { renderTablebase } from './tablebase.js';
import { renderClocks, renderPlayers } from './clock.js';
import { wireDialog } from './dialog.js';
import { restorePageSettings } from './settings.js';
import { accept, newGame, openGame, wireLive } from './live.js';

async function act(action, body) {
  if (!ui.st) return null;
  notice('');
  ui.pending += 1;
  try { const st = await API.post(ui.st.id, action, body); ui.pending -= 1; accept(st); return st; }
  catch (e) { ui.pending -= 1; notice(e.message); return null; }
}

// ---------- the move tree ----------

// The server game is made to hold `target` (a line of the tree, `id` null for the main line),
// in one request (`POST .../line`: every tab of the game sees one change). Another line needs
// analysis mode or a game where the person plays both sides (else analysis mode is switched
// on).
async function hold(target, id) {
  const st = ui.st;
  ui.switching = true;
  try {
    const same = T.common(st.moves, target) === Math.max(st.moves.length, target.length);
    if (!same && !st.analysis && st.human !== 'both') {
      accept(await API.post(st.id, 'analysis', analysisBody(Math.min(ui.shown, st.moves.length))));
    }
    const last = await API.post(st.id, 'line', { moves: target, main: id == null });
    ui.tree.cur = id;
    ui.switching = false;
    accept(last);
    return true;
  } catch (e) {
    ui.switching = false;
    notice(e.message);
    // Whatever the server holds now: resynchronise from it.
    try { accept(await API.state(st.id)); } catch (e2) { /* gone */ }
    return false;
  }
}

// Shows the position after `moves`: on the line held if it is there, else on the line of the
// tree that continues it (a new variation if none does).
async function goto(moves) {
  if (!ui.st || ui.switching) return;
  if (T.isPrefix(moves, ui.st.moves) && (ui.tree.cur != null || T.isPrefix(moves, ui.tree.main))) {
    show(moves.length);
    return;
  }
  const line = T.lineFor(ui.tree, moves);
  ui.follow = false;
  ui.shown = Math.min(ui.shown, T.common(ui.st.moves, moves));
  if (await hold(line.moves, line.id)) show(moves.length);
  else render();
}

// The variation shown (the line held) becomes the main line: the server is told, so that
// every tab of the game places it so.
async function promote() {
  const id = ui.tree.cur;
  if (id == null || ui.switching) return;
  T.promote(ui.tree, id);
  await hold(ui.st.moves, null);
  S.save();
  render();
}

// Deletes the variation shown, and those inside it; the line it hangs from is shown, at the
// position where the variation left it.
async function removeVariation() {
  const id = ui.tree.cur;
  if (id == null) return;
  const { parent, fork } = T.layout(ui.tree).get(id);
  ui.follow = false;
  ui.shown = Math.min(ui.shown, fork);
  if (await hold(T.lineOf(ui.tree, parent), parent)) {
    T.remove(ui.tree, id);
    S.save();
    show(fork);
  }
}

function show(ply) {
  const st = ui.st;
  if (!st) return;
  ply = Math.max(0, Math.min(st.moves.length, ply));
  ui.shown = ply;
  ui.follow = ply === st.moves.length;
  ui.sel = null; hideChoice();
  if (st.analysis && st.analysis.ply !== ply) analyse(true);
  // The legal moves of an earlier position, asked for now rather than at the first click.
  if (ply < st.moves.length) movesHere();
  render();
}

// ---------- moving ----------

// The legal moves of the shown position, or null if the board takes no move now.
function movesHere() {
  const st = ui.st;
  if (!st || ui.switching || st.result && ui.shown === st.moves.length) return null;
  if (ui.shown === st.moves.length) {
    if (st.analysis || st.your_turn) return st.legal;
    return null;
  }
  if (!st.analysis && st.human !== 'both' && !ui.learn) return null;
  if (ui.legalAt && ui.legalAt.ply === ui.shown && ui.legalAt.fen === st.fens[ui.shown]) return ui.legalAt.legal;
  const ply = ui.shown, fen = st.fens[ply];
  if (ui.asking === fen) return null;
  ui.asking = fen;
  API.legalAt(st.id, ply).then((l) => { if (ui.asking === fen) ui.asking = null; if (ui.shown === ply) { ui.legalAt = l; render(); } })
    .catch((e) => { ui.asking = null; notice(e.message); });
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
  if (takeMove(m)) { render(); return; } // an answer to "learn from your mistakes"
  const st = ui.st;
  if (ui.shown === st.moves.length) {
    // At the end of the line held: the line grows.
    ui.follow = true;
    const body = { move: m.move };
    if (st.analysis || st.human === 'both') body.ply = ui.shown;
    act('move', body);
  } else {
    // From an earlier position: a variation (or the line that already has this move).
    goto([...st.moves.slice(0, ui.shown), m.move]);
  }
}

function clickSquare(sq) {
  const st = ui.st;
  const tower = st ? parseFen(st.fens[ui.shown]).squares[sq] : null;
  ui.infoSq = tower ? sq : null;
  renderTowerInfo();
  const legal = movesHere();
  // The first click after a mode switch or a step back counts: made once the moves come.
  if (!keepClick(sq, legal)) return;
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

// ---------- rendering ----------

function renderBoard() {
  const st = ui.st;
  const v = variant();
  const arrows = [];
  if (st) {
    if (st.hint && st.hint.ply === ui.shown && !st.analysis) arrows.push([st.hint.move, 'hint']);
    const an = ui.analysis;
    if (st.analysis && an && an.ply === ui.shown && !!an.threat === !!st.analysis.threat) {
      if (an.threat) arrows.push(...threatArrows(an));
      else an.lines.slice().reverse().forEach((l) => { if (l.pv.length) arrows.push([l.pv[0], 'pv' + Math.min(l.multipv, 5)]); });
    }
    // A marked move's better one, on the position before it.
    const best = bestArrow(ui.shown);
    if (best && !(st.analysis && an && an.ply === ui.shown)) arrows.push([best, 'best', { 'data-move': best }]);
  }
  drawBoard($('board'), {
    variant: v, flipped: ui.flipped,
    fen: st ? st.fens[ui.shown] : null, ply: ui.shown,
    last: st && ui.shown > 0 ? st.moves[ui.shown - 1] : null,
    sel: ui.sel, arrows,
  });
  $('game-name').textContent = TITLES[v];
  document.title = 'bashni · ' + TITLES[v];
}

const SIDE = { w: 'White', b: 'Black' };
function renderStatus() {
  const st = ui.st;
  const box = $('status');
  if (!st) { box.textContent = 'No game'; box.dataset.state = 'none'; return; }
  // The result once, in words (the move list ends with its score; the game-over dialog, while
  // open, says it instead of this line).
  let text = st.result ? st.result.text : st.status;
  if (st.thinking === 'hint') text += ' — looking for a hint…';
  else if (st.thinking === 'draw offer') text += ' — the engine weighs your draw offer…';
  if (ui.shown !== st.moves.length) {
    // The position shown, in move numbers, then the game's own state.
    const side = SIDE[parseFen(st.fens[ui.shown]).side];
    const where = ui.tree && ui.tree.cur != null ? ' in this variation' : '';
    const at = ui.shown ? 'After ' + T.moveName(st.start_fen, ui.shown, st.moves[ui.shown - 1]) : 'At the start';
    text = `${at}${where}: ${side} to move · the game: ${text}`;
  } else if (ui.tree && ui.tree.cur != null) text = 'Variation: ' + text;
  box.textContent = text;
  box.dataset.state = st.result ? 'over' : st.turn + '-to-move';
  box.dataset.thinking = st.thinking || '';
  box.dataset.yourTurn = String(!!st.your_turn);
  if (st.result) { box.dataset.result = st.result.result; box.dataset.reason = st.result.reason; }
  else { delete box.dataset.result; delete box.dataset.reason; }
  if (st.notice) notice(st.notice);
  // Whom you play.
  const g = ui.game || {};
  let who;
  if (st.human === 'both') who = 'You play both sides (no engine)';
  else {
    const time = g.clock ? `${+(g.clock.base_ms / 60000).toFixed(2)} min + ${+(g.clock.inc_ms / 1000).toFixed(2)} s`
      : g.movetime_ms ? `${+(g.movetime_ms / 1000).toFixed(2)} s a move` : '';
    who = `You play ${st.human === 'white' ? 'White' : 'Black'} against level ${st.level} (Elo ${st.elo})${time ? ', ' + time : ''}`;
  }
  $('opponent').textContent = who;
  const hint = $('hint-text');
  if (st.hint) {
    const side = parseFen(st.fens[st.hint.ply]).side;
    const sc = st.hint.score ? ' (' + scoreText(st.hint.score, side) + ')'
      : ui.analysis && ui.analysis.ply === st.hint.ply && ui.analysis.lines[0] ? ' (' + scoreText(ui.analysis.lines[0].score, side) + ')' : '';
    hint.textContent = `Hint: ${T.moveName(st.start_fen, st.hint.ply + 1, st.hint.move)}${sc} — the engine's best move at full strength`;
  } else hint.textContent = '';
}

// #opening: the ballot of a drawing table the line held begins with, if one knows it.
function renderOpening() {
  const o = ui.st && ui.st.opening, box = $('opening');
  box.hidden = !o;
  box.textContent = o ? `Opening: ballot ${o.code} of the ${o.table} table` : '';
  if (o) Object.assign(box.dataset, { table: o.table, code: o.code });
  else { delete box.dataset.table; delete box.dataset.code; }
}

function renderTowerInfo() {
  const st = ui.st;
  const tower = st && ui.infoSq ? parseFen(st.fens[ui.shown]).squares[ui.infoSq] : null;
  $('tower-info').textContent = tower ? describeTower(ui.infoSq, tower, variant()) : '';
}

function renderControls() {
  const st = ui.st;
  const over = !st || !!st.result;
  // In analysis mode Take back steps back from the position shown, deleting nothing; in
  // play it takes back only while the game is on (the server refuses it after the end too).
  const playing = st && !st.analysis && st.human !== 'both';
  $('btn-takeback').disabled = !st || (st.analysis ? ui.shown === 0 : st.moves.length === 0 || (playing && !!st.result));
  $('btn-takeback').title = st && st.analysis ? 'Back one move (nothing is deleted; Delete variation deletes)' : 'Take back your last move';
  $('btn-draw').disabled = over || !playing || !st.your_turn || !!st.thinking;
  $('btn-resign').disabled = over;
  $('btn-hint').disabled = over || !st.your_turn || !!st.analysis || st.thinking === 'hint';
  $('btn-retry').hidden = !st || !st.engine_failed;
  API.pdnLink($('pdn-download'), st && st.id);
  $('pdn-tree').hidden = !ui.tree || !ui.tree.vars.length;
  if (st) {
    const fen = st.fens[ui.shown];
    $('fen-link').href = (st.variant === 'bashni' ? './?' : `./?variant=${st.variant}&`) + 'fen=' + encodeURIComponent(fen);
    $('game-link').href = S.gameLink();
    if (document.activeElement !== $('fen')) $('fen').value = fen;
  }
}

function render() {
  renderBoard();
  renderMoves();
  renderClocks();
  renderPlayers();
  renderOpening();
  renderAnalysis();
  renderTablebase();
  renderStatus();
  renderTowerInfo();
  renderControls();
  renderReview();
  replayClick(movesHere);
  renderNotes();
}

// ---------- analysis ----------

let analyseTimer = null;
function analyse(on) {
  clearTimeout(analyseTimer);
  // Stepping quickly through the moves asks for one analysis, not one per step.
  if (!on) { ui.leavingAnalysis = true; ui.turningOn = false; } else if (!(ui.st && ui.st.analysis)) ui.turningOn = true;
  ui.analysing = true;
  analyseTimer = setTimeout(async () => {
    ui.analysis = null;
    if (!on && ui.tree && ui.tree.cur != null && ui.st && ui.st.human !== 'both') {
      // The engine plays the main line only: back to it first.
      ui.follow = true;
      await hold(ui.tree.main, null);
    }
    const body = on ? analysisBody(ui.shown) : { on: false };
    await act('analysis', body);
    ui.analysing = false;
    ui.turningOn = false;
    if (!on) { ui.leavingAnalysis = false; $('analysis-on').checked = !!(ui.st && ui.st.analysis); }
  }, on ? 120 : 0);
}

function analysisBody(ply) {
  return { on: true, ply, multipv: +$('multipv').value, threat: !!ui.threat };
}

// ---------- PDN with variations (the server's /pdn has the main line) ----------

async function downloadTree() {
  const st = ui.st;
  let head = '';
  try {
    head = (await API.pdnText(st.id)).split('\n').filter((l) => l.startsWith('[')).join('\n');
  } catch (e) { /* the moves alone */ }
  const end = mainResult();
  const result = end ? end.result : '*';
  // Russian and Turkish PDN write captures with 'x'.
  const fmt = st.variant === 'bashni' ? (m) => m : (m) => m.replaceAll(':', 'x');
  const text = head + '\n\n' + T.movetext(ui.tree, st.start_fen, result, fmt, noteText) + '\n';
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  a.download = `bashni-${st.variant}.pdn`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
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
  wireHand();
  wireSwipe();
  // The header's height (it wraps on narrow screens), for the board's size in style.css.
  const head = document.querySelector('header');
  const measure = () => document.documentElement.style.setProperty('--head', head.offsetHeight + 'px');
  if (window.ResizeObserver) new ResizeObserver(measure).observe(head);
  measure();
  $('threat-on').onchange = (e) => toggleThreat(e.target.checked);
  $('btn-new').onclick = openDialog;
  $('btn-flip').onclick = () => { ui.flipped = !ui.flipped; S.save(); render(); };
  $('btn-takeback').onclick = () => {
    if (ui.st && ui.st.analysis) return show(ui.shown - 1);
    ui.follow = true; act('takeback');
  };
  $('btn-hint').onclick = () => act('hint');
  $('btn-resign').onclick = () => { if (confirm('Resign this game?')) act('resign'); };
  $('btn-draw').onclick = () => act('draw');
  wireDialog();
  $('btn-retry').onclick = () => act('retry');
  // (leaving analysis mode leaves threat mode too)
  $('analysis-on').onchange = (e) => { if (!e.target.checked) ui.threat = false; analyse(e.target.checked); };
  $('multipv').onchange = () => { if (ui.st && ui.st.analysis) analyse(true); };
  $('nav-first').onclick = () => show(0);
  $('nav-prev').onclick = () => show(ui.shown - 1);
  $('nav-next').onclick = () => show(ui.shown + 1);
  $('nav-last').onclick = () => show(ui.st ? ui.st.moves.length : 0);
  $('var-promote').onclick = promote;
  $('var-delete').onclick = removeVariation;
  $('pdn-tree').onclick = downloadTree;
  wireReview();
  wireNotes(() => { S.save(); render(); });
  wirePaste();
  $('level').oninput = levelLabel;
  $('variant').onchange = levelLabel;
  $('new-dialog').addEventListener('close', () => {
    if ($('new-dialog').returnValue !== 'start') return;
    const body = dialogSettings();
    ui.settings = body;
    S.saveSettings(body);
    const fen = $('new-fen').value.trim();
    newGame(fen ? { ...body, fen } : body, fen ? 'FEN' : undefined);
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
    actions.loadPdn(text);
  };
  document.addEventListener('keydown', (e) => {
    if (e.target.matches('input:not([type=checkbox]), select, textarea') || $('new-dialog').open) return;
    if (handleKey(e)) { e.preventDefault(); return; }
    const keys = { ArrowLeft: () => show(ui.shown - 1), ArrowRight: () => show(ui.shown + 1), Home: () => show(0), End: () => show(ui.st ? ui.st.moves.length : 0), f: () => $('btn-flip').click(), n: openDialog };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  wireLive();
  setInterval(() => { if (ui.st && ui.st.time.kind === 'clock' && ui.st.time.running) renderClocks(); }, 100);
}

async function main() {
  restorePageSettings();
  wire();
  render();
  try { ui.info = await API.info(); } catch (e) { notice(e.message); }
  if (ui.info) {
    $('level').value = ui.info.default_level;
    $('movetime').value = ui.info.default_movetime_ms / 1000;
    $('movetime').max = ui.info.max_think_ms / 1000;
  }
  ui.settings = S.restoreSettings() || dialogSettings();
  // `bashni serve --variant turkish`: the server names the first game.
  const served = ui.info && TITLES[ui.info.default_variant];
  if (served) { $('variant').value = ui.info.default_variant; ui.settings.variant = ui.info.default_variant; }
  levelLabel();
  const query = new URLSearchParams(location.search);
  const fen = query.get('fen');
  const moves = query.get('moves');
  const lines = S.linkLines(query.get('vars'));
  // /?variant=turkish&fen=...&moves=...&vars=...: a game (position, moves, variations) named
  // in the address.
  const v = query.get('variant');
  const named = v ? { variant: v } : fen ? { variant: 'bashni' } : {};
  let ok;
  const addressed = API.addressedGame(location);
  const saved = S.load();
  if (fen || moves || lines.length) {
    const main = (moves || '').split(',').map((m) => m.trim()).filter(Boolean);
    const body = { ...ui.settings, ...named, human: 'both', ...S.startOf(fen, main, lines) };
    ok = await newGame(body, moves || lines.length ? 'link' : 'FEN');
  } else if (v) {
    ok = await newGame({ ...ui.settings, ...named });
  } else if (addressed) {
    // The game's own address (a reload, a second tab): that game, live.
    ok = await openGame(addressed, S.loadFor(addressed));
  } else if (saved && saved.variant && typeof saved.id === 'string' && (!served || saved.variant === ui.info.default_variant)) {
    // The site's root: the game this browser showed last, live if the server still has it.
    ok = await openGame(saved.id, saved);
  } else if (saved && saved.variant && (!served || saved.variant === ui.info.default_variant)) {
    ok = await openGame(null, saved);
  } else {
    ok = await newGame({ ...ui.settings, ...named });
  }
  if (!ok) {
    // The address named a game the server refuses: say why, and start the usual one.
    const why = $('notice').textContent;
    const { variant: _, ...rest } = ui.settings;
    await newGame(served ? { ...rest, variant: ui.info.default_variant } : rest);
    notice(why);
  }
}

actions.goto = goto;
actions.hold = hold;
actions.render = render;
// The server reads the game from the PDN's GameType.
actions.loadPdn = (text) => {
  const { variant: _, ...rest } = ui.settings || {};
  return newGame({ ...rest, human: 'both', pdn: text }, 'PDN');
};
actions.clickSquare = clickSquare;
actions.play = play;
actions.analyse = analyse;
actions.newGame = (body) => newGame(body);
actions.hideChoice = hideChoice;
actions.show = show;
main();
