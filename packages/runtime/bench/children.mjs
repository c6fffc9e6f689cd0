// The informers' processes: each informer runs in a fresh child process (bench/driver.mjs
// for Node, tooling/go-bench/informer for client-go) that prints JSON lines on stdout.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goProgram } from '@ctrlkit/go-programs';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * client-go's settings measured beside its defaults (`client-go`: protobuf for built-in
 * types, the streaming list (WatchListClient) on, as v0.37 ships them): the flags of
 * tooling/go-bench/informer.
 */
export const GO_VARIANTS = {
  'client-go': [],
  'client-go json': ['-content-type', 'application/json'],
  'client-go list': ['-watch-list', 'false'],
  'client-go json list': ['-content-type', 'application/json', '-watch-list', 'false'],
};

/** True for a client-go column (default or variant). */
export const isGo = (which) => which in GO_VARIANTS;

/**
 * The Go side, built by the set-up (`pnpm setup:go bench-informer`); undefined (with the
 * reason, naming that command, in `notes`) where it is not built.
 */
export function buildClientGo(notes) {
  try {
    return goProgram('bench-informer');
  } catch (error) {
    notes.push(`client-go column skipped: ${error.message}.`);
    return undefined;
  }
}

/** The command line of one informer's process. */
function command(which, mode, { plane, goBinary, namespace, n, resource = 'configmaps' }) {
  if (isGo(which)) {
    return [
      goBinary,
      [
        '-mode',
        mode,
        '-kubeconfig',
        plane.kubeconfigPath,
        '-namespace',
        namespace,
        '-expect',
        `${n}`,
        '-resource',
        resource,
        ...GO_VARIANTS[which],
      ],
    ];
  }
  // DRIVER_NODE_FLAGS: extra node flags for the Node informers' processes (e.g. --cpu-prof
  // --cpu-prof-dir=/tmp/prof, or --trace-gc) to profile them where they run.
  const flags = (process.env.DRIVER_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
  return [
    process.execPath,
    [
      '--expose-gc',
      ...flags,
      join(here, 'driver.mjs'),
      which,
      mode,
      plane.kubeconfigPath,
      namespace,
      String(n),
      resource,
    ],
  ];
}

/**
 * Spawns one informer's process; `next()` resolves its JSON lines one by one, `send(text)`
 * writes a line to its stdin, `end()` closes its stdin, `exited` resolves at exit (rejects on
 * a failure).
 */
export function child(which, mode, setup, timeoutMs = 120_000) {
  const [file, args] = command(which, mode, setup);
  const proc = spawn(file, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const queue = [];
  let wake;
  let buffer = '';
  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      // A line that is not a JSON object is a trace of DRIVER_NODE_FLAGS: shown, not parsed.
      if (line.startsWith('{')) queue.push(JSON.parse(line));
      else if (line) console.error(`[${which}] ${line}`);
    }
    wake?.();
  });
  const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
  const exited = new Promise((resolve, reject) => {
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      wake?.();
      if (code === 0) resolve();
      else reject(new Error(`${which} (${mode}) exited with ${signal ?? `code ${code}`}`));
    });
  });
  exited.catch(() => {});
  const next = async () => {
    while (queue.length === 0) {
      if (proc.exitCode !== null || proc.signalCode !== null) {
        await exited;
        throw new Error(`${which} (${mode}) exited without output`);
      }
      await new Promise((resolve) => {
        wake = resolve;
      });
    }
    return queue.shift();
  };
  return {
    next,
    send: (text) => proc.stdin.write(`${text}\n`),
    end: () => proc.stdin.end(),
    exited,
    kill: () => proc.kill(),
  };
}
