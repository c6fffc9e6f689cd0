// node --expose-gc bench/serializer.mjs (pnpm bench:serializer): what client-node's
// ObjectSerializer costs a pod status body against plain JSON (µs per body: serialize +
// stringify, parse + deserialize), and the heap that importing client-node takes against
// importing this package (each import in a fresh process, gc() before and after). Written,
// with the run's commit, date and load, to bench/results/serializer.json (README, "Objects on
// the wire"). Reads the serializer by a deep import of client-node's dist (the bench only).
// Knobs (environment): ROUNDS (timed rounds of 20,000 bodies, 5).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const BODIES = 20_000;

const now = new Date();
const pod = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'p-1',
    namespace: 'bench',
    uid: 'a-b-c',
    resourceVersion: '123',
    creationTimestamp: now,
    labels: { app: 'x' },
  },
  spec: {
    nodeName: 'vk',
    containers: [{ name: 'c', image: 'nginx', resources: {} }],
    tolerations: [{ key: 'a', operator: 'Exists' }],
  },
  status: {
    phase: 'Running',
    hostIP: '1.2.3.4',
    podIP: '5.6.7.8',
    startTime: now,
    conditions: [
      { type: 'Ready', status: 'True', lastTransitionTime: now },
      { type: 'Initialized', status: 'True' },
    ],
    containerStatuses: [
      {
        name: 'c',
        image: 'nginx',
        imageID: '',
        ready: true,
        restartCount: 0,
        state: { running: { startedAt: now } },
      },
    ],
  },
};
const wire = JSON.parse(JSON.stringify(pod));
const text = JSON.stringify(wire);

/** µs per call of `fn`: median and best of ROUNDS rounds of BODIES calls, after a warm-up. */
function time(fn) {
  for (let i = 0; i < 2000; i++) fn();
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < BODIES; i++) fn();
    rounds.push(Number(process.hrtime.bigint() - t) / BODIES / 1000);
  }
  rounds.sort((a, b) => a - b);
  return { median: rounds[Math.floor(rounds.length / 2)], best: rounds[0] };
}

/** MB of heap that `await import(specifier)` keeps, in a fresh Node process. */
function importHeapMB(specifier) {
  const script = `gc(); const before = process.memoryUsage().heapUsed; const kept = await import(${JSON.stringify(specifier)}); gc(); gc(); console.log((process.memoryUsage().heapUsed - before) / 1e6, Object.keys(kept).length > 0);`;
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
    cwd: here,
    encoding: 'utf8',
  });
  return Number(out.trim().split(' ')[0]);
}

const us = (t) => `${t.median.toFixed(1)} (best ${t.best.toFixed(1)})`;
const bodies = [
  [
    'write a pod status body',
    time(() => JSON.stringify(ObjectSerializer.serialize(pod, 'V1Pod'))),
    time(() => JSON.stringify(wire)),
  ],
  [
    'read a pod back',
    time(() => ObjectSerializer.deserialize(JSON.parse(text), 'V1Pod')),
    time(() => JSON.parse(text)),
  ],
];
const imports = ['@kubernetes/client-node', '@ctrlkit/runtime'].map((specifier) => [
  specifier,
  importHeapMB(specifier).toFixed(1),
]);

const tables = {
  bodies: {
    columns: ['µs per body', 'ObjectSerializer', 'plain JSON', 'ratio'],
    rows: bodies.map(([what, serializer, plain]) => [
      what,
      us(serializer),
      us(plain),
      (serializer.median / plain.median).toFixed(1),
    ]),
    caption: `A Running pod with its status; median (and best) of ${ROUNDS} rounds of ${BODIES.toLocaleString('en-US')} after a warm-up. Write: \`ObjectSerializer.serialize(pod, 'V1Pod')\` then \`JSON.stringify\`, against \`JSON.stringify\` of the wire object; read: \`JSON.parse\` then \`ObjectSerializer.deserialize\`, against \`JSON.parse\`.`,
  },
  imports: {
    columns: ['import', 'heap kept, MB'],
    rows: imports,
    caption:
      'Heap kept by `await import(…)` in a fresh `node --expose-gc` process, gc() before and after.',
  },
};
for (const table of Object.values(tables)) {
  console.table(
    table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c, row[i]]))),
  );
}
writeResults(join(here, 'results/serializer.json'), {
  command: `${process.env.ROUNDS ? `ROUNDS=${ROUNDS} ` : ''}pnpm --filter @ctrlkit/runtime bench:serializer`,
  started,
  tables,
});
