// Progress lines on the terminal, each with the time since the demo started.
const started = performance.now();

/** Prints `message` after the elapsed time. */
export function say(message) {
  const elapsed = ((performance.now() - started) / 1000).toFixed(1).padStart(5);
  console.log(`${elapsed} s  ${message}`);
}
