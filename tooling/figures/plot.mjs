// Plots written by code: one SVG per curve of a results file (x: a size, y: a figure, one line per
// implementation, a bar from the lowest to the highest round at each point), with no dependency.
// The output depends only on the results file, so a check can render it again and compare.

const WIDTH = 640;
/** The plot's frame; the caption's lines go below it, so the SVG's height grows with them. */
const FRAME_HEIGHT = 340;
const MARGIN = { left: 78, right: 150, top: 40, bottom: 72 };
/** Characters a caption line holds (10 px sans-serif over the SVG's width). */
const CAPTION_CHARS = 100;
const COLOURS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#7f7f7f'];

/**
 * Refuses a curve that cannot be drawn, naming it and what is wrong.
 * @param {string} name
 * @param {import('./index.d.ts').FiguresCurve} curve
 */
export function checkCurve(name, curve) {
  const fail = (what) => {
    throw new TypeError(`writeResults: curve "${name}" ${what}`);
  };
  if (typeof curve?.title !== 'string' || curve.title === '') fail('needs a `title`');
  if (typeof curve.x?.label !== 'string' || typeof curve.y?.label !== 'string') {
    fail('needs `x.label` and `y.label`');
  }
  if (curve.x.scale !== undefined && curve.x.scale !== 'linear' && curve.x.scale !== 'log') {
    fail(`has x.scale ${JSON.stringify(curve.x.scale)} (linear or log)`);
  }
  if (!Array.isArray(curve.series) || curve.series.length === 0) fail('needs at least one series');
  for (const series of curve.series) {
    if (typeof series?.name !== 'string' || !Array.isArray(series.points)) {
      fail('has a series without `name` and `points`');
    }
    series.points.forEach((p, i) => {
      const values = [p?.x, p?.y, p?.min ?? p?.y, p?.max ?? p?.y];
      if (!values.every(Number.isFinite)) {
        fail(`series "${series.name}" point ${i} needs finite x, y (and min, max when given)`);
      }
      if (curve.x.scale === 'log' && p.x <= 0)
        fail(`series "${series.name}" point ${i} has x <= 0 on a log scale`);
    });
  }
}

/**
 * The SVG of one curve of a results file, with the run's command, commit and date in a caption.
 * @param {import('./index.d.ts').ResultsFile} results
 * @param {string} name
 * @returns {string}
 */
export function renderPlot(results, name) {
  const curve = results.curves?.[name];
  if (curve === undefined) {
    const known = Object.keys(results.curves ?? {}).join(', ') || 'none';
    throw new Error(`the results file has no curve "${name}" (it has: ${known})`);
  }
  const frame = scales(curve);
  const notes = captionLines(results, curve);
  const height = FRAME_HEIGHT + notes.length * 14 + 8;
  const body = [
    `<title>${escapeXml(curve.title)}</title>`,
    `<rect width="${WIDTH}" height="${height}" fill="#fff"/>`,
    text(WIDTH / 2, 22, curve.title, 'middle', 15, 'bold'),
    ...axes(curve, frame),
    ...curve.series.flatMap((series, i) => line(series, COLOURS[i % COLOURS.length], frame)),
    ...legend(curve.series),
    ...notes.map((line, i) =>
      text(12, FRAME_HEIGHT + 8 + i * 14, line, 'start', 10, 'normal', '#555'),
    ),
  ];
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="sans-serif" role="img">`,
    ...body.map((element) => `  ${element}`),
    '</svg>',
    '',
  ].join('\n');
}

/** Maps data to the plot area: x linear or log over the points, y linear from 0 to a round top. */
function scales(curve) {
  const points = curve.series.flatMap((s) => s.points);
  const xs = [...new Set(points.map((p) => p.x))].sort((a, b) => a - b);
  const log = curve.x.scale === 'log';
  const f = log ? Math.log10 : (v) => v;
  const lo = xs.length > 0 ? f(xs[0]) : 0;
  const hi = xs.length > 0 ? f(xs[xs.length - 1]) : 1;
  const span = hi - lo || 1;
  const pad = xs.length > 1 ? 0 : 0.5;
  const left = MARGIN.left;
  const width = WIDTH - MARGIN.left - MARGIN.right;
  const top = MARGIN.top;
  const height = FRAME_HEIGHT - MARGIN.top - MARGIN.bottom;
  const highest = Math.max(0, ...points.map((p) => p.max ?? p.y));
  // A spread below zero (e.g. heap retained, less than before, in one noisy round) gets an axis
  // below zero in steps of the same size, so its bar stays inside the frame.
  const lowest = Math.min(0, ...points.map((p) => p.min ?? p.y));
  const step = lowest < 0 ? niceTop((highest - lowest) / 5) : niceTop(highest) / 5;
  const yBottom = Math.floor(lowest / step) * step;
  const yTop = lowest < 0 ? Math.ceil(highest / step) * step : niceTop(highest);
  const ticks = Math.round((yTop - yBottom) / step);
  return {
    xs,
    yTicks: Array.from({ length: ticks + 1 }, (_, i) => yBottom + step * i),
    x: (v) => left + width * (xs.length > 1 ? (f(v) - lo) / span : pad),
    y: (v) => top + height * (1 - (v - yBottom) / (yTop - yBottom)),
    left,
    right: left + width,
    top,
    bottom: top + height,
  };
}

function axes(curve, frame) {
  const out = [
    `<line x1="${frame.left}" y1="${frame.bottom}" x2="${frame.right}" y2="${frame.bottom}" stroke="#333"/>`,
    `<line x1="${frame.left}" y1="${frame.top}" x2="${frame.left}" y2="${frame.bottom}" stroke="#333"/>`,
  ];
  for (const v of frame.yTicks) {
    const y = round(frame.y(v));
    out.push(
      `<line x1="${frame.left}" y1="${y}" x2="${frame.right}" y2="${y}" stroke="#ddd"/>`,
      text(frame.left - 6, y + 4, compact(v), 'end', 11),
    );
  }
  for (const v of frame.xs) {
    const x = round(frame.x(v));
    out.push(
      `<line x1="${x}" y1="${frame.bottom}" x2="${x}" y2="${frame.bottom + 5}" stroke="#333"/>`,
      text(x, frame.bottom + 18, compact(v), 'middle', 11),
    );
  }
  const mid = round((frame.top + frame.bottom) / 2);
  const xLabel = `${curve.x.label}${curve.x.scale === 'log' ? ' (log scale)' : ''}`;
  out.push(
    text(round((frame.left + frame.right) / 2), frame.bottom + 38, xLabel, 'middle', 12),
    `<text x="16" y="${mid}" text-anchor="middle" font-size="12" transform="rotate(-90 16 ${mid})">${escapeXml(curve.y.label)}</text>`,
  );
  return out;
}

/** One series: its line through the points, a dot at each, and a bar over the rounds' spread. */
function line(series, colour, frame) {
  const points = [...series.points].sort((a, b) => a.x - b.x);
  const at = (p) => `${round(frame.x(p.x))},${round(frame.y(p.y))}`;
  const out = [];
  if (points.length > 1) {
    out.push(
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${points.map(at).join(' ')}"/>`,
    );
  }
  for (const p of points) {
    const x = round(frame.x(p.x));
    if (p.min !== undefined && p.max !== undefined && p.max > p.min) {
      const [y1, y2] = [round(frame.y(p.min)), round(frame.y(p.max))];
      out.push(
        `<line x1="${x}" y1="${y1}" x2="${x}" y2="${y2}" stroke="${colour}"/>`,
        `<line x1="${x - 4}" y1="${y1}" x2="${x + 4}" y2="${y1}" stroke="${colour}"/>`,
        `<line x1="${x - 4}" y1="${y2}" x2="${x + 4}" y2="${y2}" stroke="${colour}"/>`,
      );
    }
    out.push(`<circle cx="${x}" cy="${round(frame.y(p.y))}" r="3.5" fill="${colour}"/>`);
  }
  return out;
}

function legend(series) {
  const x = WIDTH - MARGIN.right + 14;
  return series.flatMap((s, i) => {
    const y = MARGIN.top + 10 + i * 20;
    const colour = COLOURS[i % COLOURS.length];
    return [
      `<line x1="${x}" y1="${y}" x2="${x + 18}" y2="${y}" stroke="${colour}" stroke-width="2"/>`,
      `<circle cx="${x + 9}" cy="${y}" r="3.5" fill="${colour}"/>`,
      text(x + 24, y + 4, s.name, 'start', 12),
    ];
  });
}

/** Where the figures come from (and what the bars mean), wrapped into lines under the plot. */
function captionLines(results, curve) {
  const load = `load ${results.load.start.join(' / ')} → ${results.load.end.join(' / ')}`;
  return [
    `${results.command}`,
    `at ${results.commit} on ${results.date.slice(0, 10)}, ${load}`,
    curve.caption ?? 'dots: median of the rounds; bars: lowest to highest round',
  ].flatMap(wrap);
}

/** Splits `line` at spaces into lines of at most {@link CAPTION_CHARS} characters (a longer word stays whole). */
function wrap(line) {
  const lines = [];
  let current = '';
  for (const word of line.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > CAPTION_CHARS) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...lines, current];
}

function text(x, y, content, anchor, size, weight = 'normal', fill = '#222') {
  const bold = weight === 'normal' ? '' : ` font-weight="${weight}"`;
  return `<text x="${round(x)}" y="${round(y)}" text-anchor="${anchor}" font-size="${size}" fill="${fill}"${bold}>${escapeXml(content)}</text>`;
}

/** The smallest of 1, 2, 2.5, 5 × 10^k at or above `v` (1 for nothing to show). */
function niceTop(v) {
  if (v <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(v));
  const step = [1, 2, 2.5, 5, 10].find((m) => m * power >= v);
  return step * power;
}

/** 1500 → 1.5k, 2000000 → 2M, 0.25 → 0.25. */
function compact(v) {
  const units = [
    [1e9, 'G'],
    [1e6, 'M'],
    [1e3, 'k'],
  ];
  for (const [size, suffix] of units) {
    if (Math.abs(v) >= size) return `${Number((v / size).toPrecision(3))}${suffix}`;
  }
  return String(Number(v.toPrecision(3)));
}

function round(v) {
  return Math.round(v * 10) / 10;
}

function escapeXml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
