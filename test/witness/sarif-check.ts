/**
 * What the SARIF tests check of every log `rely verify --sarif` writes: that it is valid
 * against the OASIS SARIF 2.1.0 schema (vendored in test/fixtures/schemas/sarif/, with
 * its source), and for a violation, that its code flow is the trace: one thread flow per
 * thread that takes a step, every step once, executionOrder 1, 2, … across the threads.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

const SCHEMA = 'test/fixtures/schemas/sarif/sarif-schema-2.1.0.json';
// ajv-formats is CommonJS whose default export TypeScript's NodeNext types do not see as callable.
const addFormats = createRequire(import.meta.url)('ajv-formats') as (ajv: Ajv) => Ajv;

let validator: ValidateFunction | undefined;

/** The schema's complaints about `log` (empty: valid). */
export function schemaErrors(log: unknown): string[] {
  if (!validator) {
    // A draft-04 schema: Ajv 8 reads its keywords alike, but refuses draft-04's `id` (the schema's name only; every $ref is local).
    const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
    ajv.removeKeyword('id');
    addFormats(ajv);
    validator = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')) as object);
  }
  return validator(log) ? [] : (validator.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

export interface FlowStep {
  readonly thread: string;
  readonly order: number;
  readonly line: number | undefined;
  readonly text: string;
  readonly state: Record<string, string>;
}

// The parts of a log the checks read.
interface Log {
  runs: { results: { codeFlows: { threadFlows: { id: string; locations: { executionOrder: number; state?: Record<string, { text: string }>; location: { message: { text: string }; physicalLocation: { region?: { startLine: number } } } }[] }[] }[] }[] }[];
}

/** The steps of the log's (first result's) code flow, in executionOrder; throws if a thread appears in two thread flows. */
export function flowSteps(log: unknown): FlowStep[] {
  const [flow] = (log as Log).runs[0].results[0].codeFlows;
  const threads = flow.threadFlows.map((t) => t.id);
  if (new Set(threads).size !== threads.length) throw new Error(`a thread has two thread flows: ${threads.join(', ')}`);
  const steps = flow.threadFlows.flatMap((t) =>
    t.locations.map((l) => ({
      thread: t.id,
      order: l.executionOrder,
      line: l.location.physicalLocation.region?.startLine,
      text: l.location.message.text,
      state: Object.fromEntries(Object.entries(l.state ?? {}).map(([v, x]) => [v, x.text])),
    })),
  );
  return steps.sort((a, b) => a.order - b.order);
}

/** Why the code flow is not the trace as it should be (empty: it is): executionOrder 1..n, each once, increasing within each thread flow. */
export function flowProblems(log: unknown): string[] {
  const [flow] = (log as Log).runs[0].results[0].codeFlows;
  const problems: string[] = [];
  const orders = flowSteps(log).map((s) => s.order);
  if (orders.some((o, i) => o !== i + 1)) problems.push(`executionOrder is not 1..${orders.length} once each: ${orders.join(',')}`);
  for (const t of flow.threadFlows) {
    const own = t.locations.map((l) => l.executionOrder);
    if (own.some((o, i) => i > 0 && o <= own[i - 1])) problems.push(`thread flow ${t.id}: executionOrder not increasing: ${own.join(',')}`);
  }
  return problems;
}
