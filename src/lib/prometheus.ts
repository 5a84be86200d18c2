// Counters, histograms and gauges in the Prometheus text exposition format (version 0.0.4): the few
// instruments the pod keeps, with label sets that are bounded by whoever records them.

/** The media type of the text format. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8'

type Labels = Readonly<Record<string, string>>

/** Exposition format: label values escape backslash, double quote and newline. */
const escapeLabel = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
const labelText = (labels: Labels) => {
  const entries = Object.entries(labels)
  return entries.length === 0 ? '' : `{${entries.map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',')}}`
}
const keyOf = (labels: Labels) => JSON.stringify(labels)
const header = (name: string, help: string, type: string) => `# HELP ${name} ${help}\n# TYPE ${name} ${type}\n`

export class Counter {
  readonly #values = new Map<string, { labels: Labels; value: number }>()
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = keyOf(labels)
    const entry = this.#values.get(key)
    if (entry) entry.value += by
    else this.#values.set(key, { labels, value: by })
  }

  render(): string {
    let out = header(this.name, this.help, 'counter')
    if (this.#values.size === 0) return `${out}${this.name} 0\n`
    for (const { labels, value } of this.#values.values()) out += `${this.name}${labelText(labels)} ${value}\n`
    return out
  }
}

export class Histogram {
  readonly #series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>()
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[],
  ) {}

  observe(labels: Labels, value: number): void {
    const key = keyOf(labels)
    let s = this.#series.get(key)
    if (!s) {
      s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }
      this.#series.set(key, s)
    }
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) s.counts[i]!++
    s.sum += value
    s.count++
  }

  render(): string {
    let out = header(this.name, this.help, 'histogram')
    for (const s of this.#series.values()) {
      this.buckets.forEach((le, i) => {
        out += `${this.name}_bucket${labelText({ ...s.labels, le: String(le) })} ${s.counts[i]}\n`
      })
      out += `${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}\n`
      out += `${this.name}_sum${labelText(s.labels)} ${s.sum}\n${this.name}_count${labelText(s.labels)} ${s.count}\n`
    }
    return out
  }
}

/** A gauge read when scraped: one sample per label set, or none when the value is unknown. */
export function renderGauge(name: string, help: string, samples: readonly (readonly [Labels, number])[]): string {
  let out = header(name, help, 'gauge')
  for (const [labels, value] of samples) out += `${name}${labelText(labels)} ${value}\n`
  return out
}
