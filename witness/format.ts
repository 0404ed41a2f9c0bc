/**
 * SV-COMP's YAML witness format (https://gitlab.com/sosy-lab/benchmarking/sv-witnesses,
 * "Software Verification Witnesses 2.0", SPIN 2024): a witness is a list of entries,
 * each with `entry_type`, `metadata` and `content`.
 *
 * Which version we write, and why:
 * - a violation witness is one `violation_sequence` entry of format **2.2**: segments
 *   of waypoints, each segment ending in one `follow` waypoint, the last one a
 *   `target`. 2.2 is 2.0's violation format with the concurrency extension: a waypoint
 *   may name the thread that passes it (`thread_id`), and the order of the segments is
 *   the order of the steps across threads. Without thread ids (2.0) a witness of a
 *   multi-threaded program does not say who runs when, which is all that matters here;
 * - a correctness witness is one `invariant_set` entry of format **2.0**:
 *   `location_invariant`s with `format: c_expression`. 2.1 adds ghost variables and
 *   their updates, which rely does not write; its reading of an invariant in a
 *   concurrent program (evaluated atomically, whenever the thread is at the location)
 *   is the one we mean, and 2.0 is what every validator of invariant sets reads.
 *
 * This module writes entries and reads them back with every field checked; a
 * malformed file is an InputError located at `FILE:line:col` of the YAML.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { LineCounter, isMap, isScalar, isSeq, parseDocument, stringify, type Node } from 'yaml';
import { InputError, type SourcePos } from '../program/diagnostics.js';
import type { DataModel } from '../frontend/types.js';

export const VIOLATION_FORMAT = '2.2';
export const CORRECTNESS_FORMAT = '2.0';
/** The property rely checks, as SV-COMP states it. */
export const UNREACH_CALL_SPEC = 'G ! call(reach_error())';

export interface Location {
  readonly file_name: string;
  readonly line: number;
  readonly column: number;
  readonly function: string;
}

export interface Waypoint {
  readonly type: 'assumption' | 'target';
  readonly action: 'follow';
  readonly location: Location;
  readonly constraint?: { readonly value: string; readonly format: 'c_expression' };
  /** Format 2.2: the thread that passes the waypoint (rely's thread index, main = 0). */
  readonly thread_id: number;
}

export interface LocationInvariant {
  readonly type: 'location_invariant';
  readonly location: Location;
  readonly value: string;
  readonly format: 'c_expression';
}

/** Who wrote the witness, for which task. */
export interface Producer {
  readonly version: string;
  /** The input file as the command line named it, and its data model. */
  readonly file: string;
  readonly dataModel: DataModel;
}

function metadata(formatVersion: string, by: Producer): Record<string, unknown> {
  return {
    format_version: formatVersion,
    uuid: randomUUID(),
    creation_time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    producer: { name: 'rely', version: by.version },
    task: {
      input_files: [by.file],
      input_file_hashes: { [by.file]: sha256(by.file) },
      specification: UNREACH_CALL_SPEC,
      data_model: by.dataModel,
      language: 'C',
    },
  };
}

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** A violation witness: one segment per waypoint, in order. */
export function violationYaml(waypoints: readonly Waypoint[], by: Producer): string {
  const content = waypoints.map((waypoint) => ({ segment: [{ waypoint }] }));
  return stringify([{ entry_type: 'violation_sequence', metadata: metadata(VIOLATION_FORMAT, by), content }], { lineWidth: 0 });
}

/** A correctness witness (an empty set of invariants is a valid one). */
export function correctnessYaml(invariants: readonly LocationInvariant[], by: Producer): string {
  const content = invariants.map((invariant) => ({ invariant }));
  return stringify([{ entry_type: 'invariant_set', metadata: metadata(CORRECTNESS_FORMAT, by), content }], { lineWidth: 0 });
}

// ---------------------------------------------------------------------------
// Reading.

/** A location as read: the line and column it names, and where the witness says so. */
export interface ReadLocation {
  readonly line: number;
  readonly column?: number;
  readonly at: SourcePos;
}

/** A C expression as read, with where its text starts in the witness (for messages about it). */
export interface ReadExpression {
  readonly text: string;
  readonly at: SourcePos;
}

export interface ReadWaypoint {
  readonly type: string;
  readonly action: string;
  readonly location: ReadLocation;
  readonly constraint?: ReadExpression;
  readonly threadId?: number;
  readonly at: SourcePos;
}

export interface ReadInvariant {
  readonly location: ReadLocation;
  readonly value: ReadExpression;
}

export type ReadWitness = (
  | { readonly kind: 'violation'; readonly segments: readonly (readonly ReadWaypoint[])[] }
  | { readonly kind: 'correctness'; readonly invariants: readonly ReadInvariant[] }
) & { readonly dataModel?: DataModel };

/** The YAML of one witness file with every node's position, and checked access to its fields. */
class Reader {
  private readonly lines = new LineCounter();

  constructor(readonly file: string) {}

  parse(text: string): Node {
    const doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false });
    const e = doc.errors[0];
    if (e) throw new InputError(this.pos(e.pos[0]), `not YAML: ${e.message.split('\n')[0]}`);
    if (!doc.contents) throw new InputError(this.pos(0), 'empty witness');
    return doc.contents;
  }

  pos(offset: number): SourcePos {
    const { line, col } = this.lines.linePos(offset);
    return { file: this.file, line, col };
  }

  at(n: Node): SourcePos {
    return this.pos(n.range?.[0] ?? 0);
  }

  fail(n: Node, message: string): never {
    throw new InputError(this.at(n), message);
  }

  /** The value under `key` of mapping `n`. */
  field(n: Node, key: string): Node | undefined {
    if (!isMap(n)) this.fail(n, `expected a mapping with '${key}'`);
    const pair = n.items.find((p) => isScalar(p.key) && p.key.value === key);
    return pair?.value as Node | undefined;
  }

  need(n: Node, key: string): Node {
    return this.field(n, key) ?? this.fail(n, `missing '${key}'`);
  }

  string(n: Node, key: string): string {
    const v = this.need(n, key);
    if (!isScalar(v) || (typeof v.value !== 'string' && typeof v.value !== 'number')) this.fail(v, `'${key}' must be a string`);
    return String(v.value);
  }

  natural(n: Node | undefined, key: string): number | undefined {
    if (n === undefined) return undefined;
    if (!isScalar(n) || typeof n.value !== 'number' || !Number.isInteger(n.value) || n.value < 0) this.fail(n, `'${key}' must be a non-negative integer`);
    return n.value;
  }

  list(n: Node, key: string): Node[] {
    const v = this.need(n, key);
    if (!isSeq(v)) this.fail(v, `'${key}' must be a list`);
    return v.items as Node[];
  }

  /** A string's text and where it starts (after an opening quote). */
  expression(n: Node, key: string): ReadExpression {
    const v = this.need(n, key);
    const text = this.string(n, key);
    const quoted = isScalar(v) && (v.type === 'QUOTE_DOUBLE' || v.type === 'QUOTE_SINGLE');
    const at = this.at(v);
    return { text, at: quoted ? { ...at, col: at.col + 1 } : at };
  }
}

/**
 * Reads a witness for `cfile`: violation_sequence or invariant_set entries (not both),
 * metadata checked (a format 2.x version, and the hash of the input file if given).
 */
export function readWitness(file: string, text: string, cfile: string): ReadWitness {
  const r = new Reader(file);
  const root = r.parse(text);
  if (!isSeq(root) || root.items.length === 0) return r.fail(root, 'a witness is a non-empty list of entries');
  const entries = root.items as Node[];
  const types = entries.map((e) => r.string(e, 'entry_type'));
  const models = entries.map((e) => checkMetadata(r, r.need(e, 'metadata'), cfile));
  const dataModel = models.find((m) => m !== undefined);
  const kinds = new Set(types);
  const unknown = entries.find((_, k) => types[k] !== 'violation_sequence' && types[k] !== 'invariant_set');
  if (unknown) r.fail(r.need(unknown, 'entry_type'), `unknown entry_type '${r.string(unknown, 'entry_type')}' (violation_sequence or invariant_set)`);
  if (kinds.size > 1) r.fail(root, 'a witness has violation_sequence or invariant_set entries, not both');
  if (kinds.has('violation_sequence')) {
    if (entries.length > 1) r.fail(entries[1], 'one violation_sequence per witness');
    return { kind: 'violation', segments: r.list(entries[0], 'content').map((s) => readSegment(r, s)), dataModel };
  }
  return { kind: 'correctness', invariants: entries.flatMap((e) => r.list(e, 'content').map((i) => readInvariant(r, r.need(i, 'invariant')))), dataModel };
}

/** Checks an entry's metadata against the input file; returns its data model, if it names one. */
function checkMetadata(r: Reader, m: Node, cfile: string): DataModel | undefined {
  const version = r.string(m, 'format_version');
  if (!/^2\.[0-2]$/.test(version)) r.fail(r.need(m, 'format_version'), `format_version '${version}' is not 2.0, 2.1 or 2.2`);
  const task = r.need(m, 'task');
  const model = r.field(task, 'data_model') === undefined ? undefined : r.string(task, 'data_model');
  if (model !== undefined && model !== 'ILP32' && model !== 'LP64') r.fail(r.need(task, 'data_model'), `unknown data_model '${model}' (ILP32 or LP64)`);
  const hashes = r.field(task, 'input_file_hashes');
  if (hashes === undefined) return model;
  if (!isMap(hashes) || hashes.items.length === 0) r.fail(hashes, "'input_file_hashes' must map the input file to its SHA-256");
  const given = hashes.items[0].value as Node;
  const actual = sha256(cfile);
  if (!isScalar(given) || String(given.value).toLowerCase() !== actual) r.fail(given, `the witness is for another file: ${cfile} has SHA-256 ${actual}`);
  return model;
}

function readLocation(r: Reader, n: Node): ReadLocation {
  const line = r.natural(r.need(n, 'line'), 'line')!;
  return { line, column: r.natural(r.field(n, 'column'), 'column'), at: r.at(n) };
}

function readSegment(r: Reader, s: Node): ReadWaypoint[] {
  const items = r.list(s, 'segment');
  if (items.length === 0) r.fail(s, 'an empty segment');
  return items.map((item) => {
    const w = r.need(item, 'waypoint');
    const constraint = r.field(w, 'constraint');
    return {
      type: r.string(w, 'type'),
      action: r.string(w, 'action'),
      location: readLocation(r, r.need(w, 'location')),
      constraint: constraint === undefined ? undefined : r.expression(constraint, 'value'),
      threadId: r.natural(r.field(w, 'thread_id'), 'thread_id'),
      at: r.at(w),
    };
  });
}

function readInvariant(r: Reader, n: Node): ReadInvariant {
  const type = r.string(n, 'type');
  if (type !== 'location_invariant' && type !== 'loop_invariant') r.fail(r.need(n, 'type'), `unknown invariant type '${type}'`);
  const format = r.field(n, 'format');
  if (format !== undefined && r.string(n, 'format') !== 'c_expression') r.fail(format, "only format 'c_expression' is read");
  return { location: readLocation(r, r.need(n, 'location')), value: r.expression(n, 'value') };
}
