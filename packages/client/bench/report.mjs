// The bench's tables: per measure, each client's median over the rounds with its range, the
// ratio ctrlkit ÷ client-node of each round (runs of one round share the machine's state, so
// the per-round ratio is steadier than the ratio of medians) as median and range, and the
// issue's aim with its verdict; then client-go's informer sync beside. Each table is printed
// and returned as a figures table (bench/results/client.json, the README's).

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const format = (value, digits) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `median (min–max)` of `values`, or '-' when there are none. */
function spread(values, digits) {
  if (values.length === 0) return '-';
  const text = format(median(values), digits);
  if (values.length === 1) return text;
  return `${text} (${format(Math.min(...values), digits)}–${format(Math.max(...values), digits)})`;
}

/**
 * The measures: title, how to read a run's figure, its digits, and the aim (ctrlkit ÷
 * client-node at most, from issue 33), if any.
 */
const MEASURES = [
  ['import: heap (MB)', (r) => r.importHeapBytes / 1e6, 1, 0.2],
  ['import: time (ms)', (r) => r.importMs, 0],
  ['CPU per GET of a ConfigMap (µs)', (r) => r.getCpuUs, 0, 0.7],
  ['CPU per PUT of a ConfigMap (µs)', (r) => r.putCpuUs, 0, 0.7],
  ['LIST of N, decoded: CPU (ms)', (r) => r.listCpuMs, 0, 0.7],
  ['LIST of N, decoded: time (ms)', (r) => r.listMs, 0],
  ['CPU per watch event (µs)', (r) => r.watchEventCpuUs, 1, 0.7],
  ['streaming list of N: CPU per object (µs)', (r) => r.streamedObjectCpuUs, 1],
  ['heap held by 10 idle watches (KB)', (r) => r.idleWatchesHeapBytes / 1e3, 0],
];

/** The side-by-side table of `runs` (per client, one entry per round). */
function sideBySide(runs) {
  const rows = MEASURES.map(([title, read, digits, aim]) => {
    const node = runs['client-node'].map(read);
    const ours = runs.ctrlkit.map(read);
    const ratios = ours.map((value, round) => value / node[round]);
    const ratio = median(ratios);
    const verdict = aim === undefined ? '' : `≤ ${aim}: ${ratio <= aim ? 'met' : 'missed'}`;
    return [title, spread(node, digits), spread(ours, digits), spread(ratios, 2), verdict];
  });
  return {
    columns: ['measure', 'client-node', '@ctrlkit/client', 'ratio (per round)', 'aim'],
    rows,
    caption:
      'Medians over the rounds (min–max); the ratio is @ctrlkit/client ÷ client-node of each round, median (min–max). ' +
      'Each client runs in a fresh process per round: heap is live heap after gc(); CPU is process.cpuUsage() (user + system) ' +
      'over sequential requests after a warm-up. A watch event is one of the N ConfigMaps a plain watch from ' +
      'resourceVersion 0 gets from the apiserver’s watch cache (ADDED, uncompressed, as every plain watch); the ' +
      'streaming list is a watch with sendInitialEvents to its closing BOOKMARK, which the apiserver gzips, as it ' +
      'does the LIST. The idle watches are plain watches, each past the one ADDED of its namespace. @ctrlkit/client runs with its defaults (protobuf for ' +
      'built-in kinds, HTTP/2 watches) but qps Infinity, as client-node has no limiter; client-node is the ' +
      'CoreV1Api (readNamespacedConfigMap, replaceNamespacedConfigMap, listNamespacedConfigMap) and its Watch.',
  };
}

/** client-go's informer sync of the same N, when it ran. */
function clientGoTable(goRuns) {
  const list = goRuns.map((r) => r.list.cpuMs);
  const stream = goRuns.map((r) => (r.stream.cpuMs * 1000) / r.stream.objects);
  return {
    columns: ['client-go v0.37.2 shared informer', 'CPU'],
    rows: [
      ['sync by LIST + WATCH: CPU until synced (ms)', spread(list, 0)],
      ['sync by the streaming list: CPU per object until synced (µs)', spread(stream, 1)],
    ],
    caption:
      'tooling/go-bench/informer -mode sync on the same N ConfigMaps (protobuf), once per round: the nearest ' +
      'client-go figures to the LIST and streaming-list rows above. They include the informer’s start and its ' +
      'cache (the rows above decode only), so they bound client-go’s decode cost from above.',
  };
}

/** Prints the tables (with `header` and `notes`) and returns them as figures tables. */
export function reportTables({ runs, notes, header }) {
  const tables = { client: sideBySide(runs) };
  tables.client = { ...tables.client, caption: `${header[1]}. ${tables.client.caption}` };
  if (runs['client-go'].length > 0) tables['client-go'] = clientGoTable(runs['client-go']);
  for (const line of header) console.log(line);
  for (const table of Object.values(tables)) {
    console.log();
    console.log(`| ${table.columns.join(' | ')} |`);
    for (const row of table.rows) console.log(`| ${row.join(' | ')} |`);
    console.log(table.caption);
  }
  for (const note of notes) console.log(`note: ${note}`);
  console.log('\nper run:');
  for (const [which, list] of Object.entries(runs)) {
    for (const run of list) console.log(`  ${which} ${JSON.stringify(run)}`);
  }
  return tables;
}
