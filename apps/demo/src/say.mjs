// Progress lines, each with the time since the demo started. They go to the live view when
// one is shown (above its panel), else straight to stdout.
const started = performance.now();
let sink = (line) => console.log(line);

/** Prints `message` after the elapsed time. */
export function say(message) {
  const elapsed = ((performance.now() - started) / 1000).toFixed(1).padStart(5);
  sink(`${elapsed} s  ${message}`);
}

/** Prints `text` as it is (each of its lines). */
export function print(text) {
  for (const line of text.split('\n')) sink(line);
}

/** Sends every later line to `write` (the live view); `undefined` restores stdout. */
export function setSink(write) {
  sink = write ?? ((line) => console.log(line));
}
