// The two clocks of a clock game. The server keeps them (a reload goes on with the time it
// had, and the server ends the game when a flag falls); the page counts down between two
// states only to show the seconds passing, and never shows less than 0:00.0.

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
