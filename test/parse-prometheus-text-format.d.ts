// The exposition-format parser the metrics test reads a scrape with (no types of its own).
declare module 'parse-prometheus-text-format' {
  interface Sample {
    value?: string
    labels?: Record<string, string>
    buckets?: Record<string, string>
    count?: string
    sum?: string
  }
  export default function parsePrometheusTextFormat(
    text: string,
  ): { name: string; help: string; type: string; metrics: Sample[] }[]
}
