// The bench's tables: medians over the rounds with their spread, the ratios of each round
// (ctrlkit ÷ client-go of the same round, whose runs share the machine's state), the
// variants side by side, the aims, the memory per cached object, and the notes. Each table
// is printed and returned as a figures table (bench/results/informer.json, the README's).

import { GO_VARIANTS } from './children.mjs';
import { BASELINE, BASELINE_STREAM, CTRLKIT_VARIANTS } from './ctrlkit-informer.mjs';

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const format = (value, digits = 0) =>
  value === undefined || Number.isNaN(value)
    ? '-'
    : value.toLocaleString('en-US', { maximumFractionDigits: digits });
const ratio = (a, b) => (a === undefined || b === undefined ? '-' : (a / b).toFixed(2));

/** `median (min–max)` of `values`, or '-'. */
function spread(values, digits = 0) {
  const defined = values.filter((v) => v !== undefined && !Number.isNaN(v));
  if (defined.length === 0) return '-';
  const text = format(median(defined), digits);
  if (defined.length === 1) return text;
  return `${text} (${format(Math.min(...defined), digits)}–${format(Math.max(...defined), digits)})`;
}

/** CPU per watch event of `which` in the events run, in µs. */
function cpuPerEvent(events, which) {
  const r = events.results[which];
  return r?.events ? (r.cpuMs * 1000) / r.events : undefined;
}

/** The figures of the sync runs: medians, per-run values, per-round ratios. */
function syncFigures(runs) {
  const values = (which, field) => (runs[which] ?? []).map((run) => run[field]);
  const med = (which, field) => {
    const v = values(which, field).filter((x) => x !== undefined);
    return v.length ? median(v) : undefined;
  };
  /** The ratio a ÷ b of each round in which both ran. */
  const perRound = (a, b, field = 'syncedMs') =>
    (runs[a] ?? []).flatMap((run) => {
      const other = (runs[b] ?? []).find((r) => r.round === run.round);
      return other ? [run[field] / other[field]] : [];
    });
  return { values, med, perRound };
}

function mainTable({ runs }, events, compactBytes, n, rounds) {
  const { values, med, perRound } = syncFigures(runs);
  const rate = (which) => {
    const r = events.results[which];
    return r && r.seconds > 0 ? r.events / r.seconds : undefined;
  };
  const syncRow = (workload, unit, field, aim, digits = 0) => ({
    workload,
    unit,
    cell: (which) => spread(values(which, field), digits),
    get: (which) => med(which, field),
    floor: (which) => med(which, field),
    digits,
    aim,
  });
  const rows = [
    syncRow(
      `time to synced, ${format(n)} ConfigMaps (median of ${rounds} (min–max))`,
      'ms',
      'syncedMs',
      '≤ 1.0× client-go and ≤ 1.15× bare LIST',
    ),
    syncRow('CPU of the informer process until synced', 'ms', 'cpuMs', 'all threads'),
    syncRow('apiserver CPU per sync', 'ms', 'apiServerCpuMs', 'the server’s share'),
    syncRow(
      'heap per cached object (Go: HeapAlloc)',
      'B',
      'heapPerObject',
      `≤ 1.1× the compact JSON without managedFields (${format(compactBytes)} B)`,
    ),
    syncRow(
      'heap freed when the synced informer is dropped, per object',
      'B',
      'freedPerObject',
      'the cache itself, no compiled code (Node); floor: LIST items w/o managedFields',
    ),
    {
      workload: 'watch events handled/s (the informers at once, same stream)',
      unit: 'events/s',
      cell: (which) => format(rate(which)),
      get: rate,
      floor: () => events.writer.writes / events.writer.seconds,
      aim: 'keep up with the writer (floor column)',
    },
    {
      workload: 'CPU per watch event (same stream)',
      unit: 'µs',
      cell: (which) => format(cpuPerEvent(events, which), 1),
      get: (which) => cpuPerEvent(events, which),
      floor: () => undefined,
      aim: '≤ 1.0× client-go',
    },
  ];
  const table = rows.map((row) => {
    const ours = row.get('ctrlkit');
    return {
      workload: row.workload,
      unit: row.unit,
      ctrlkit: row.cell('ctrlkit'),
      'client-node': row.cell('client-node'),
      'client-go': row.cell('client-go'),
      'bare LIST / writer': row.unit === 'events/s' ? format(row.floor()) : row.cell('bare'),
      'ck÷node': ratio(ours, row.get('client-node')),
      'ck÷go': ratio(ours, row.get('client-go')),
      'ck÷floor': ratio(ours, row.floor('bare')),
      aim: row.aim,
    };
  });
  console.table(table);
  const goRatios = perRound('ctrlkit', 'client-go');
  const bareRatios = perRound('ctrlkit', 'bare');
  const perRoundLine = `Time to synced, ratio of each round: ctrlkit ÷ client-go ${goRatios.map((r) => r.toFixed(2)).join(' / ') || '-'} (median ${spread(goRatios, 2)}); ctrlkit ÷ bare LIST ${bareRatios.map((r) => r.toFixed(2)).join(' / ') || '-'} (median ${spread(bareRatios, 2)}).`;
  console.log(perRoundLine);
  return {
    med,
    perRound,
    cpuPerEvent: (which) => cpuPerEvent(events, which),
    table: figuresTable(table, perRoundLine),
  };
}

/** The figures table (columns and rows) of console.table's `records`, with a caption. */
function figuresTable(records, caption) {
  const columns = Object.keys(records[0] ?? {});
  return { columns, rows: records.map((r) => columns.map((c) => r[c])), caption };
}

function variantsTable({ runs }, events, variants) {
  const { values, med, perRound } = syncFigures(runs);
  const rows = [
    'ctrlkit',
    BASELINE,
    ...variants.ctrlkit,
    BASELINE_STREAM,
    'client-go',
    ...variants.go,
  ]
    .filter((which) => runs[which]?.length)
    .map((which) => ({
      variant: which,
      options:
        which in GO_VARIANTS
          ? GO_VARIANTS[which].join(' ') || '(defaults: protobuf, streaming list)'
          : which === BASELINE || which === BASELINE_STREAM
            ? `${which === BASELINE_STREAM ? `${JSON.stringify(CTRLKIT_VARIANTS['ctrlkit stream'])} on ` : ''}BASELINE_DIST=${process.env.BASELINE_DIST}`
            : JSON.stringify(CTRLKIT_VARIANTS[which]),
      'synced ms': spread(values(which, 'syncedMs')),
      'CPU ms': format(med(which, 'cpuMs')),
      'apiserver CPU ms': format(med(which, 'apiServerCpuMs')),
      '÷ bare LIST': spread(perRound(which, 'bare'), 2),
      '÷ client-go': spread(perRound(which, 'client-go'), 2),
      'heap B/object': format(med(which, 'heapPerObject')),
      'CPU µs/watch event': format(cpuPerEvent(events, which), 1),
    }));
  if (rows.length <= 2) return undefined;
  const caption = 'Settings side by side, in the same rounds: medians (min–max); ratios per round.';
  console.log(`\n${caption}`);
  console.table(rows);
  return figuresTable(rows, caption);
}

/** Heap per cached object: the parsed LIST, its floor without managedFields, the informers. */
function memoryTable({ runs }, compactBytes) {
  const { med } = syncFigures(runs);
  const rows = [
    ['the parsed LIST items (`JSON.parse`, managedFields kept)', med('bare', 'heapPerObject')],
    [
      'the same without managedFields, no cache around them (the V8 floor)',
      med('bare', 'strippedPerObject'),
    ],
    ['`SharedIndexInformer`, default transform', med('ctrlkit', 'heapPerObject')],
    ['`SharedIndexInformer`, `metadataOnly: true`', med('ctrlkit metadata', 'heapPerObject')],
  ]
    .filter(([, bytes]) => bytes !== undefined)
    .map(([what, bytes]) => ({
      what,
      'heap B/object': format(bytes),
      '÷ compact JSON w/o managedFields': ratio(bytes, compactBytes),
    }));
  const caption = `Heap after sync (gc() before and after) ÷ objects, median of the rounds; the compact JSON of one ConfigMap without managedFields is ${format(compactBytes)} B.`;
  console.log(`\n${caption}`);
  console.table(rows);
  return figuresTable(rows, caption);
}

function aims(figures, compactBytes) {
  const { med, perRound, cpuPerEvent } = figures;
  const verdict = (value, aim) =>
    value === undefined || Number.isNaN(value) ? 'not measured' : value <= aim ? 'MET' : 'NOT met';
  const goRatios = perRound('ctrlkit', 'client-go');
  const bareRatios = perRound('ctrlkit', 'bare');
  const lines = [
    ['time to synced ÷ client-go (median of the rounds)', goRatios, 1.0],
    ['time to synced ÷ bare LIST (median of the rounds)', bareRatios, 1.15],
    ['CPU per watch event ÷ client-go', [cpuPerEvent('ctrlkit') / cpuPerEvent('client-go')], 1.0],
    [
      'heap per cached object ÷ compact JSON w/o managedFields',
      [med('ctrlkit', 'heapPerObject') / compactBytes],
      1.1,
    ],
    [
      'metadata-only heap ÷ full informer heap',
      [med('ctrlkit metadata', 'heapPerObject') / med('ctrlkit', 'heapPerObject')],
      0.25,
    ],
  ];
  console.log('\naims (ratio, aim, verdict):');
  const rows = lines.map(([name, values, aim]) => {
    const defined = values.filter((v) => v !== undefined && !Number.isNaN(v));
    const value = defined.length ? median(defined) : undefined;
    console.log(
      `  ${name}: ${spread(defined, 2)} (aim ≤ ${aim.toFixed(2)}) ${verdict(value, aim)}`,
    );
    return [name, spread(defined, 2), `≤ ${aim.toFixed(2)}`, verdict(value, aim)];
  });
  return {
    columns: ['ratio', 'measured', 'aim', 'verdict'],
    rows,
    caption: 'Ratios are medians (min–max) of the per-round ratios where the rounds give one each.',
  };
}

function runNotes({ runs }, events, informers, notes) {
  const all = (which, field, digits = 0) =>
    runs[which]?.length ? runs[which].map((r) => format(r[field], digits)).join(' / ') : '-';
  for (const which of informers) {
    if (!runs[which]?.length) continue;
    const go = which in GO_VARIANTS;
    notes.push(
      `${which}: synced ${all(which, 'syncedMs')} ms; CPU ${all(which, 'cpuMs')} ms; apiserver CPU ${all(which, 'apiServerCpuMs')} ms; heap ${all(which, 'heapPerObject')} B/object${go ? '' : ` (freed when dropped${which === 'bare' ? ', managedFields stripped first' : ''}: ${all(which, 'freedPerObject')})`}; RSS +${all(which, 'rssPerObject')} B/object (RSS ${all(which, 'rssMB')} MB).`,
    );
  }
  if (runs.bare?.length) {
    notes.push(
      `bare LIST (node:https, one GET, no gzip, JSON.parse, ${format(runs.bare[0].bytes / 1e6, 1)} MB): headers at ${all('bare', 'headersMs')} ms, body in at ${all('bare', 'receivedMs')} ms, parsed at ${all('bare', 'syncedMs')} ms (no overlap of transfer and parsing, which a streaming informer can have). Its parsed items hold ${all('bare', 'heapPerObject')} B/object of heap; without managedFields (metadata rebuilt) ${all('bare', 'strippedPerObject')} B/object: the Node heap floor for a cache with the default transform.`,
    );
  }
  if (runs['client-go']?.length) {
    notes.push(
      `client-go: HasSynced polled every 1 ms; a controller's cache.WaitForCacheSync (100 ms poll) returns at ${all('client-go', 'waitForCacheSyncMs')} ms. Defaults of v0.37: protobuf for built-in types (ConfigMaps), WatchListClient (streaming list, gzipped by the apiserver's WatchListCompression), no transform.`,
    );
  }
  if (runs['client-node']?.length) {
    notes.push(
      `client-node: synced = its last 'add' callback of the list; start() resolves (watch open) at ${all('client-node', 'startResolvedMs')} ms.`,
    );
  }
  const w = events.writer;
  notes.push(
    `events: one writer, merge patches: ${format(w.writes)} updates in ${w.seconds.toFixed(1)} s (${w.failures} failed); handled per informer: ${Object.entries(
      events.results,
    )
      .map(([which, r]) => `${which} ${format(r.events)} in ${r.seconds.toFixed(2)} s`)
      .join(', ')}.`,
  );
}

/** Prints every table and the notes; returns the tables as figures tables, by name. */
export function printReport({ sync, events, compactBytes, n, rounds, variants, notes, header }) {
  console.log(`\n${header.join('\n')}`);
  const figures = mainTable(sync, events, compactBytes, n, rounds);
  const about = header.filter((line) => !line.startsWith('at the ')).join('; ');
  const tables = { sync: { ...figures.table, caption: `${about}. ${figures.table.caption}` } };
  const side = variantsTable(sync, events, variants);
  if (side) tables.variants = side;
  if (sync.runs.ctrlkit?.length) tables.aims = aims(figures, compactBytes);
  tables.memory = memoryTable(sync, compactBytes);
  const informers = Object.keys(sync.runs);
  runNotes(sync, events, informers, notes);
  console.log(notes.map((note) => `- ${note}`).join('\n'));
  return tables;
}
