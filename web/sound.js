// Move sounds: a short tone for a move, a lower double one for a capture, made with WebAudio
// (no sound files). Off unless the person turns them on (`#sound-on`), as loud as
// `#pref-volume` says (0 to 100; 0 is silent): both kept by settings.js.

import { $ } from './state.js';

let ctx = null;

// The loudest a tone gets at volume 100.
const FULL = 0.35;

function tone(freq, at, length, peak) {
  const osc = ctx.createOscillator(), gain = ctx.createGain();
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

// A move's sound, when sounds are on and the volume above 0. `#sound-on` counts the sounds
// made in `data-played`, and gives the last one's loudness in `data-gain` (for tests: a
// headless browser plays to no speaker).
function moveSound(move) {
  const box = $('sound-on');
  const peak = FULL * (+$('pref-volume').value || 0) / 100;
  if (!box || !box.checked || !move || peak <= 0) return;
  try {
    if (!ctx) ctx = new AudioContext();
    if (ctx.state === 'suspended') ctx.resume();
    const t = ctx.currentTime;
    if (move.includes(':') || move.includes('x')) { tone(330, t, 0.09, peak); tone(260, t + 0.1, 0.12, peak); } else tone(520, t, 0.08, peak);
  } catch (e) { /* no audio here: the page goes on silently */ }
  box.dataset.played = String(+(box.dataset.played || 0) + 1);
  box.dataset.gain = peak.toFixed(3);
}

// Called with the state before and after each state the page accepts: a sound when the game
// grew by one move (the person's or the engine's), none for a takeback or a new game.
export function playSound(prev, st) {
  if (!prev || prev.id !== st.id || st.moves.length !== prev.moves.length + 1) return;
  if (prev.moves.some((m, i) => st.moves[i] !== m)) return;
  moveSound(st.moves[st.moves.length - 1]);
}
