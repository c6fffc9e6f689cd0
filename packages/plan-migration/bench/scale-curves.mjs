// The scale bench's curves (issue 36 item 5): one figure per VM against the plan's size, a series
// per build measured (this commit's, and the BASELINE_DIST build's when given), each point the
// median of the rounds with their spread (pointOf). writeResults draws each as an SVG.
import { pointOf } from '@ctrlkit/figures';

const NO_PEER = 'No Go peer: Forklift needs real hypervisors, so nothing runs beside it.';

/**
 * What each curve plots: its title, y label, caption, and the figure of one round of `n` VMs
 * (`round`, a timed round's figures) or, for figures the sizing round gives once, of `sized`.
 */
const FIGURES = {
  'writes-curve': {
    title: 'Plan status writes per VM (flat or falling is the aim)',
    y: 'status writes / VM',
    round: (x, n) => x.statusWrites / n,
    caption: `One Plan status PUT per reconcile that computed a status; dots: median of the rounds, bars: lowest to highest. ${NO_PEER}`,
  },
  'retained-curve': {
    title: 'Heap retained per VM after the run (flat or falling is the aim)',
    y: 'KiB / VM',
    round: (x, n) => (x.heapRetainedMiB * 1024) / n,
    caption: `Used heap after a full GC at the end, above the heap after a full GC before the run (the plan, its status, the simulators), per VM; dots: median of the rounds, bars: lowest to highest. ${NO_PEER}`,
  },
  'status-curve': {
    title: 'Plan status size, largest over the run (aim: under 1 MiB)',
    y: 'status KiB (JSON)',
    sized: (s) => s.statusBytes / 1024,
    caption: `The status as the PUT sends it and etcd stores it (JSON), from one sizing round per size (deterministic). Aim: under 1 MiB (1,024 KiB); etcd refuses a request over 1.5 MiB (1,536 KiB) by default. ${NO_PEER}`,
  },
  'cpu-curve': {
    title: 'CPU time per VM (lower and flatter is better)',
    y: 'CPU ms / VM',
    round: (x, n) => x.cpuMs / n,
    caption: `User + system CPU time of the run (GC included), per VM; dots: median of the rounds, bars: lowest to highest. ${NO_PEER}`,
  },
};

/**
 * The scale curves from what was measured: `measured` holds, per build in the order to draw,
 * its sizes, each with its timed `runs` and its `sized` round.
 * @param {{ build: string, points: { n: number, runs: object[], sized: object }[] }[]} measured
 */
export function scaleCurves(measured) {
  return Object.fromEntries(
    Object.entries(FIGURES).map(([name, figure]) => [
      name,
      {
        title: figure.title,
        x: { label: 'VMs in the Plan', scale: 'log' },
        y: { label: figure.y },
        series: measured.map(({ build, points }) => ({
          name: build,
          points: points.map(({ n, runs, sized }) =>
            pointOf(n, figure.round ? runs.map((x) => figure.round(x, n)) : [figure.sized(sized)]),
          ),
        })),
        caption: figure.caption,
      },
    ]),
  );
}
