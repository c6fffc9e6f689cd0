// Types of parse-prometheus-text-format (a test dependency that ships none): prom2json's shape.

declare module 'parse-prometheus-text-format' {
  /** One sample of a counter, gauge or untyped metric; histograms and summaries add their fields. */
  export interface Sample {
    readonly value?: string;
    /** In the order the labels were written. */
    readonly labels?: Readonly<Record<string, string>>;
    readonly timestamp_ms?: string;
  }
  /** One metric family: its HELP, TYPE and samples. */
  export interface MetricFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly Sample[];
  }
  /** Parses the Prometheus text exposition format; throws on a malformed line. */
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
