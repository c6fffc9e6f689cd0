// node --expose-gc bench/protobuf-decode.mjs: decoding one LIST of the informer bench's
// 10,000 ConfigMaps (bench/workloads.mjs seed) as protobuf with the runtime's decoder
// against JSON.parse of the same LIST as JSON: ms per decode and the heap the result holds.
//
// Run (build envtest first: pnpm --filter @ctrlkit/envtest build):
//   cd packages/runtime && node --expose-gc bench/protobuf-decode.mjs
// Knobs (environment): N (ConfigMaps, 10000), ROUNDS (timed decodes of each, 15).
// The decoder is internal (not in dist): this script bundles ../client/src/protobuf/decode.ts (in @ctrlkit/client)
// with tsup into node_modules/.cache/protobuf-bench first. The table is written, with the
// run's commit, date and load, to bench/results/protobuf-decode.json (the README's).
import { request } from 'node:https';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startMeasuring, writeResults } from '@ctrlkit/figures';
import { build } from 'tsup';
import { connect } from './kube.mjs';
import { seed } from './workloads.mjs';

const started = startMeasuring();
const here = dirname(fileURLToPath(import.meta.url));
const n = Number(process.env.N ?? 10_000);
const rounds = Number(process.env.ROUNDS ?? 15);
const namespace = 'ctrlkit-bench-informer';
const names = Array.from({ length: n }, (_, i) => `cm-${String(i).padStart(5, '0')}`);

if (typeof globalThis.gc !== 'function') throw new Error('run with node --expose-gc');

async function loadDecoder() {
  const outDir = join(here, '../node_modules/.cache/protobuf-bench');
  await build({
    entry: { decode: join(here, '../../client/src/protobuf/decode.ts') },
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node22',
    config: false,
    silent: true,
    dts: false,
  });
  return import(pathToFileURL(join(outDir, 'decode.js')).href);
}

/** GETs `path` with `accept`, no gzip; resolves the body. */
function get(conn, path, accept) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: conn.server.hostname,
        port: conn.server.port,
        path,
        method: 'GET',
        agent: conn.agent,
        headers: { ...conn.headers, accept },
        auth: conn.auth,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`GET ${path}: ${res.statusCode}`)),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Median and range of `rounds` timed calls of `fn` (after 3 untimed), in ms. */
function time(fn) {
  for (let i = 0; i < 3; i++) fn();
  const ms = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    fn();
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  return { median: ms[Math.floor(ms.length / 2)], min: ms[0], max: ms[ms.length - 1] };
}

/** MB of heap the value `fn` returns holds, after full GCs. */
function retainedMb(fn) {
  globalThis.gc();
  globalThis.gc();
  const before = process.memoryUsage().heapUsed;
  const value = fn();
  globalThis.gc();
  globalThis.gc();
  const after = process.memoryUsage().heapUsed;
  if (value === undefined) throw new Error('unreachable');
  return (after - before) / 1024 / 1024;
}

async function main() {
  const { decodeProtobuf } = await loadDecoder();
  const envtest = await import('@ctrlkit/envtest');
  const plane = await envtest.startControlPlane({
    apiServerFlags: { 'max-requests-inflight': '2000', 'max-mutating-requests-inflight': '1000' },
  });
  const conn = await connect(plane.kubeConfig, 64);
  try {
    const notes = [];
    await seed(conn, { namespace, names, notes });
    const path = `/api/v1/namespaces/${namespace}/configmaps`;
    const json = await get(conn, path, 'application/json');
    const proto = await get(conn, path, 'application/vnd.kubernetes.protobuf');
    const same = JSON.stringify(decodeProtobuf(proto)) === JSON.stringify(JSON.parse(json));
    const rows = [
      ['JSON.parse(body.toString())', () => JSON.parse(json.toString('utf8'))],
      [
        'JSON.parse(string) alone',
        (
          (text) => () =>
            JSON.parse(text)
        )(json.toString('utf8')),
      ],
      ['decodeProtobuf(body)', () => decodeProtobuf(proto)],
    ];
    const what = `one LIST of ${n.toLocaleString('en-US')} ConfigMaps: JSON ${(json.length / 1e6).toFixed(2)} MB, protobuf ${(proto.length / 1e6).toFixed(2)} MB; the decoded protobuf ${same ? 'equals' : 'DIFFERS FROM'} the parsed JSON`;
    console.log(notes.join('\n'));
    console.log(`node ${process.version}; ${what}`);
    const columns = [
      `decode`,
      `ms (median of ${rounds}, min–max)`,
      'MB of heap held by the result',
    ];
    const table = rows.map(([label, fn]) => {
      const t = time(fn);
      return [
        label,
        `${t.median.toFixed(1)} (${t.min.toFixed(1)}–${t.max.toFixed(1)})`,
        retainedMb(fn).toFixed(1),
      ];
    });
    console.table(table.map((row) => Object.fromEntries(columns.map((c, i) => [c, row[i]]))));
    writeResults(join(here, 'results/protobuf-decode.json'), {
      command: `${['N', 'ROUNDS']
        .filter((k) => process.env[k])
        .map((k) => `${k}=${process.env[k]} `)
        .join('')}pnpm --filter @ctrlkit/runtime bench:protobuf`,
      started,
      tables: {
        decode: {
          columns,
          rows: table,
          caption: `Decoding ${what}; each decode timed ${rounds} times after 3 warm-ups.`,
        },
      },
    });
  } finally {
    conn.agent.destroy();
    await plane.stop();
  }
}

await main();
