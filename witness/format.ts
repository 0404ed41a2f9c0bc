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
 * - a correctness witness is one `invariant_set` entry: `location_invariant`s with
 *   `format: c_expression`, evaluated atomically whenever the thread is at the
 *   location. When the proof needs state that C cannot name (who holds a mutex,
 *   whether a thread was started or has ended) it is format **2.1**: a
 *   `ghost_instrumentation` entry first declares ghost variables (global `int`s with
 *   an initial value) and their updates at locations (ghosts.ts), and the invariants
 *   may name them; without ghosts it is format **2.0**, which every validator of
 *   invariant sets reads.
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
/** The correctness format with ghost variables. */
export const GHOST_FORMAT = '2.1';
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

/** A ghost variable as format 2.1 declares it (rely's are global ints). */
export interface GhostVariable {
  readonly name: string;
  readonly scope: 'global';
  readonly type: 'int';
  readonly initial: { readonly value: string; readonly format: 'c_expression' };
}

/** The ghost updates at one location, done atomically with the step that starts there. */
export interface GhostUpdates {
  readonly location: Location;
  readonly updates: readonly { readonly variable: string; readonly value: string; readonly format: 'c_expression' }[];
}

export interface GhostInstrumentation {
  readonly ghost_variables: readonly GhostVariable[];
  readonly ghost_updates: readonly GhostUpdates[];
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

/** A correctness witness (an empty set of invariants is a valid one): format 2.1 with its ghosts, 2.0 without any. */
export function correctnessYaml(invariants: readonly LocationInvariant[], by: Producer, ghosts?: GhostInstrumentation): string {
  const content = invariants.map((invariant) => ({ invariant }));
  const version = ghosts && ghosts.ghost_variables.length > 0 ? GHOST_FORMAT : CORRECTNESS_FORMAT;
  const ghostEntry = version === GHOST_FORMAT ? [{ entry_type: 'ghost_instrumentation', metadata: metadata(version, by), content: ghosts }] : [];
  return stringify([...ghostEntry, { entry_type: 'invariant_set', metadata: metadata(version, by), content }], { lineWidth: 0 });
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

export interface ReadGhostVariable {
  readonly name: string;
  readonly type: string;
  readonly scope: string;
  readonly initial: ReadExpression;
  readonly at: SourcePos;
}

export interface ReadGhostUpdate {
  readonly location: ReadLocation;
  readonly variable: string;
  readonly value: ReadExpression;
  readonly at: SourcePos;
}

export interface ReadGhosts {
  readonly variables: readonly ReadGhostVariable[];
  readonly updates: readonly ReadGhostUpdate[];
}

export type ReadWitness = (
  | { readonly kind: 'violation'; readonly segments: readonly (readonly ReadWaypoint[])[] }
  | { readonly kind: 'correctness'; readonly invariants: readonly ReadInvariant[]; readonly ghosts: ReadGhosts }
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

const CORRECTNESS_ENTRIES = new Set(['invariant_set', 'ghost_instrumentation']);

/**
 * Reads a witness for `cfile`: a violation_sequence entry, or invariant_set entries
 * with ghost_instrumentation entries (2.1) declaring the ghosts they name; metadata
 * checked (a format 2.x version, and the hash of the input file if given).
 */
export function readWitness(file: string, text: string, cfile: string): ReadWitness {
  const r = new Reader(file);
  const root = r.parse(text);
  if (!isSeq(root) || root.items.length === 0) return r.fail(root, 'a witness is a non-empty list of entries');
  const entries = root.items as Node[];
  const types = entries.map((e) => r.string(e, 'entry_type'));
  const models = entries.map((e) => checkMetadata(r, r.need(e, 'metadata'), cfile));
  const dataModel = models.find((m) => m !== undefined);
  const unknown = entries.find((_, k) => types[k] !== 'violation_sequence' && !CORRECTNESS_ENTRIES.has(types[k]));
  if (unknown) r.fail(r.need(unknown, 'entry_type'), `unknown entry_type '${r.string(unknown, 'entry_type')}' (violation_sequence, invariant_set or ghost_instrumentation)`);
  if (types.includes('violation_sequence')) {
    if (entries.length > 1) r.fail(entries[1], 'one violation_sequence per witness, and no other entry');
    return { kind: 'violation', segments: r.list(entries[0], 'content').map((s) => readSegment(r, s)), dataModel };
  }
  const of = (type: string): Node[] => entries.filter((_, k) => types[k] === type);
  const invariants = of('invariant_set').flatMap((e) => r.list(e, 'content').map((i) => readInvariant(r, r.need(i, 'invariant'))));
  const ghosts = of('ghost_instrumentation').map((e) => readGhosts(r, r.need(e, 'content')));
  return { kind: 'correctness', invariants, ghosts: { variables: ghosts.flatMap((g) => g.variables), updates: ghosts.flatMap((g) => g.updates) }, dataModel };
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
  return { location: readLocation(r, r.need(n, 'location')), value: cExpression(r, n) };
}

/** A ghost_instrumentation entry's content: its variables and their updates (read as given; ghosts.ts checks what they mean). */
function readGhosts(r: Reader, n: Node): ReadGhosts {
  const variables = r.list(n, 'ghost_variables').map((v) => ({
    name: r.string(v, 'name'),
    type: r.string(v, 'type'),
    scope: r.string(v, 'scope'),
    initial: cExpression(r, r.need(v, 'initial')),
    at: r.at(v),
  }));
  const updates = (r.field(n, 'ghost_updates') === undefined ? [] : r.list(n, 'ghost_updates')).flatMap((u) => {
    const location = readLocation(r, r.need(u, 'location'));
    return r.list(u, 'updates').map((x) => ({ location, variable: r.string(x, 'variable'), value: cExpression(r, x), at: r.at(x) }));
  });
  return { variables, updates };
}

/** The `value` of a node whose `format`, if given, is c_expression. */
function cExpression(r: Reader, n: Node): ReadExpression {
  const format = r.field(n, 'format');
  if (format !== undefined && r.string(n, 'format') !== 'c_expression') r.fail(format, "only format 'c_expression' is read");
  return r.expression(n, 'value');
}
