// Measures how fast a control plane becomes ready with cached binaries, restarts its
// apiserver and stops. Not a timed test: it prints a table and never fails on a number.
//
//   pnpm --filter @ctrlkit/envtest build && pnpm --filter @ctrlkit/envtest bench [runs] [components]
//
// With the word `components`, kube-scheduler and kube-controller-manager start too. The tables
// are written, with the run's commit, date and load, to bench/results/start.json (or
// start-components.json): the runs, and the binaries with the build records of the cache.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPONENTS, noopLogger, startControlPlane } from '@ctrlkit/envtest';
import { resolveBinaries } from '@ctrlkit/envtest/binaries';
import { startMeasuring, writeResults } from '@ctrlkit/figures';

const started = startMeasuring();
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 5);
const components = args.includes('components') ? COMPONENTS : [];
const binaries = await resolveBinaries({ components });
const version = (binary) =>
  execFileSync(binary, ['--version'], { encoding: 'utf8' }).split('\n')[0];
console.log(`kube-apiserver: ${version(binaries.kubeApiServer)}; etcd: ${version(binaries.etcd)}`);
console.log(
  `binaries: ${binaries.directory} (${binaries.source}${binaries.build ? `, built in ${(binaries.build.buildMs / 1000).toFixed(0)} s with ${binaries.build.goVersion}` : ''})\n`,
);

const rows = [];
for (let run = 1; run <= runs; run++) {
  const plane = await startControlPlane({ logger: noopLogger, components });
  const restartStarted = performance.now();
  await plane.restartApiServer();
  const restartMs = performance.now() - restartStarted;
  const stopStarted = performance.now();
  await plane.stop();
  const { etcdMs, apiServerMs, componentsMs, totalMs } = plane.timings;
  rows.push({
    run,
    etcdMs,
    apiServerMs,
    componentsMs,
    totalMs,
    restartMs,
    stopMs: performance.now() - stopStarted,
  });
}

const columns = ['run', 'etcdMs', 'apiServerMs', 'componentsMs', 'totalMs', 'restartMs', 'stopMs'];
const cell = (v) =>
  (typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(0) : String(v)).padStart(14);
console.log(columns.map(cell).join(''));
for (const row of rows) console.log(columns.map((c) => cell(row[c])).join(''));
const median = (key) => rows.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
console.log(['median', ...columns.slice(1).map(median)].map(cell).join(''));
const meaning = `all times in ms; totalMs is startControlPlane() from call to /readyz ok${components.length > 0 ? ` and ${components.join(', ')} /healthz ok` : ''} (aim: under 10 000)`;
console.log(`\n${meaning}`);

const round = (v) => (typeof v === 'number' ? Math.round(v) : null);
const built = (record) =>
  record
    ? [record.goVersion, record.builtAt.slice(0, 10), round(record.buildMs / 1000)]
    : ['-', '-', null];
const madeBy = (build, download) => (build ? 'Go build' : download ? 'download' : '-');
const binaryRows = [
  [
    'kube-apiserver, etcd',
    binaries.source,
    madeBy(binaries.build, binaries.download),
    ...built(binaries.build),
  ],
  ...components.map((name) => [
    name,
    binaries.source,
    madeBy(binaries.componentBuilds[name], binaries.componentDownloads[name]),
    ...built(binaries.componentBuilds[name]),
  ]),
];
writeResults(
  join(
    dirname(fileURLToPath(import.meta.url)),
    `results/start${components.length > 0 ? '-components' : ''}.json`,
  ),
  {
    command: `pnpm --filter @ctrlkit/envtest bench ${runs}${components.length > 0 ? ' components' : ''}`,
    started,
    tables: {
      runs: {
        columns,
        rows: [
          ...rows.map((row) => columns.map((c) => round(row[c]))),
          ['median', ...columns.slice(1).map((c) => round(median(c)))],
        ],
        caption: `${meaning}. ${version(binaries.kubeApiServer)}; ${version(binaries.etcd)}.`,
      },
      binaries: {
        columns: ['binaries', 'found in', 'made by', 'Go', 'built on', 'build s'],
        rows: binaryRows,
        caption:
          'Where resolveBinaries found the binaries; for a Go build, its record in the cache (the Go version, the day, and the wall time of the build on that machine under its load then).',
      },
    },
  },
);
