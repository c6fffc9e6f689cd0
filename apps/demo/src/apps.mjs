// Runs a ctrlkit app's bin as a child process against the demo's control plane, its JSON
// log lines going to a file (the terminal shows what the demo observes through the API).
import { spawn } from 'node:child_process';
import { createWriteStream, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** The apps started and not exited yet, so that an interrupt stops them wherever it lands. */
const running = new Set();

/** The path of the bin `name` of the workspace package `pkg`. */
export function binOf(pkg, name) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const bin = manifest.bin?.[name];
  if (bin === undefined) throw new Error(`${pkg} has no bin named ${name}`);
  return join(dirname(manifestPath), bin);
}

/**
 * Starts `bin` with `args`, logging to `logPath`. Returns `stop()`, which sends SIGTERM and
 * resolves with the exit code once the app has shut down gracefully, and `kill()`, which
 * SIGKILLs it (as a crash would).
 */
export function startApp(bin, args, logPath) {
  const log = createWriteStream(logPath, { flags: 'a' });
  const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal)),
  );
  let stopping = false;
  exited.then((code) => {
    if (!stopping) console.error(`  ${bin} exited early (${code}); its log: ${logPath}`);
  });
  const signal = (name) => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    return exited;
  };
  const app = { exited, stop: () => signal('SIGTERM'), kill: () => signal('SIGKILL') };
  running.add(app);
  exited.then(() => running.delete(app));
  return app;
}

/** SIGTERMs every app started and still running; resolves once all have exited. */
export function stopRunningApps() {
  return Promise.all([...running].map((app) => app.stop()));
}

/** The pids of this machine's processes running `sleep <seconds>` (Linux `/proc`; else none). */
export function sleeperPids(seconds) {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return argv[0]?.endsWith('sleep') === true && argv[1] === String(seconds);
    } catch {
      return false; // gone meanwhile
    }
  });
}
