// A PDN pasted as text (#pdn-paste opens #paste-dialog): opened the way a PDN file is
// (POST /api/games with `pdn`: the same limits, the same one-line refusals, shown here in
// #paste-error while the game shown stays).

import { $, actions } from './state.js';

export function wirePaste() {
  const dlg = $('paste-dialog');
  const error = $('paste-error');
  $('pdn-paste').onclick = () => { error.textContent = ''; dlg.showModal(); $('paste-text').focus(); };
  $('paste-cancel').onclick = () => dlg.close();
  $('paste-open').onclick = async () => {
    const text = $('paste-text').value;
    if (!text.trim()) { error.textContent = 'Paste the text of a PDN first.'; return; }
    $('paste-open').disabled = true;
    const ok = await actions.loadPdn(text);
    $('paste-open').disabled = false;
    if (ok) { dlg.close(); $('paste-text').value = ''; } else error.textContent = $('notice').textContent;
  };
}
