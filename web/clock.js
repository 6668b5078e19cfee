// The two players beside the board, each with a name and, in a clock game, a clock. The
// server keeps the clocks (a reload goes on with the time it had, the server ends the game
// when a flag falls, and each side's first move is not timed: lichess' rule); the page
// counts down between two states only to show the seconds passing, and never shows less than
// 0:00.0. The names: a loaded PDN's players (its White and Black tags), else the person
// ("You") and the engine (its level and that level's Elo).

import { ui, $ } from './state.js';

export function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000), m = Math.floor(s / 60);
  const tenths = ms < 10000 ? '.' + Math.floor((ms % 1000) / 100) : '';
  return m + ':' + String(s % 60).padStart(2, '0') + tenths;
}

export function renderClocks() {
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
    box.dataset.ms = String(Math.max(0, Math.round(left[side])));
    box.classList.toggle('running', t.running === side);
    box.classList.toggle('low', left[side] < 10000);
  }
}

const TAG = { white: 'White', black: 'Black' };

// The name of the player of `side` ('white' or 'black').
export function playerName(side) {
  const st = ui.st;
  const tag = (ui.tags || []).find(([k]) => k === TAG[side]);
  if (tag && tag[1] && tag[1] !== '?') return tag[1];
  if (st.human === 'both' || st.human === side) return 'You';
  return `Level ${st.level} · Elo ${st.elo}`;
}

// #name-top and #name-bottom (`data-side`), the side at the bottom first; #clock-note while
// a clock game waits for each side's first move.
export function renderPlayers() {
  const st = ui.st;
  const [low, high] = ui.flipped ? ['black', 'white'] : ['white', 'black'];
  for (const [id, side] of [['name-bottom', low], ['name-top', high]]) {
    const box = $(id);
    box.textContent = st ? playerName(side) : '';
    box.dataset.side = side;
    box.title = st ? `${TAG[side]}: ${box.textContent}` : '';
  }
  // (a clock game's clocks stand still only over, in analysis, or waiting so)
  $('clock-note').hidden = !(st && st.time.kind === 'clock' && !st.time.running && !st.result && !st.analysis);
}
