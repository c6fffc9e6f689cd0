// The live view: progress lines scroll by while a panel at the bottom of the terminal shows
// the cluster as it is now (the virtual node, pods by phase, ResourceSlices and claims, each
// VM's step and percent), redrawn by log-update. Without a terminal (or with --no-tui) only
// the lines are printed.
import { createLogUpdate } from 'log-update';
import { setSink } from './say.mjs';

const REDRAW_MS = 250;

/**
 * Starts the view on `stream`. With `tui` false it only prints lines. `panel()` returns the
 * panel's current lines. Returns `stop()`, which draws the panel a last time and restores
 * plain output.
 */
export function startView({ tui, stream = process.stdout, panel }) {
  if (!tui) return { stop() {} };
  const draw = createLogUpdate(stream, { showCursor: false });
  const redraw = () => draw(panel().join('\n'));
  setSink((line) => {
    draw.persist(line);
    redraw();
  });
  const timer = setInterval(redraw, REDRAW_MS);
  return {
    stop() {
      clearInterval(timer);
      redraw();
      draw.done();
      setSink(undefined);
    },
  };
}
