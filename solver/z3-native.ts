/**
 * Native back end: a long-lived `z3 -in` process spoken to in SMT-LIB 2 over pipes.
 * A trivial check costs ~0.15 ms this way against ~2-3 ms through the WASM build
 * (DESIGN.md, "Measured here"). The process is restarted after a crash (replaying
 * declarations and the push/assert stack) and killed on close or process exit.
 * Horn queries use a second process, since `(set-logic HORN)` must start a session.
 *
 * Limits (NativeLimits): z3 runs with `-memory:MB` (past it z3 prints `(error "out of
 * memory")` and exits with code 101), and while a request is in flight the run's
 * memory (rely's process and its z3s) is watched against the same limit. Every request
 * has a time bound: its query's limit, else the run's deadline, plus GRACE_MS; a z3
 * that does not answer by then is killed. A z3 that dies, or is killed at a limit,
 * fails its request with SolverFailed (the engines' UNKNOWN), never a hang.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { setPriority } from 'node:os';
import { delimiter, join } from 'node:path';
import { mkVar, smtSortOfName, smtSymbol, toSmt, varsOf, type Term, type Value } from './formula.js';
import { hornToSmtLib, type HornResult, type HornSystem } from './horn.js';
import { inlineRelations, parseSExprs, sexprToTerm, sexprToValue, showSmt, withoutArrayExists, type RelationDef, type SExpr } from './sexpr.js';
import { SolverFailed, unknownReason, type Backend, type Model, type SatResult } from './smt.js';
import { MB, runMemory, solverPids } from './memory.js';

/** The z3 binary: $RELY_Z3 if set, else `z3` on PATH; undefined when there is none. */
export function findZ3(): string | undefined {
  const explicit = process.env.RELY_Z3;
  if (explicit) return explicit;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, 'z3');
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not here
    }
  }
  return undefined;
}

const GRACE_MS = 2000;
/** How often the run's memory is looked at while a request is in flight. */
const MEMORY_POLL_MS = 200;
/** z3's exit code when it runs out of memory (ERR_MEMOUT). */
const Z3_MEMOUT = 101;
const live = new Set<Z3Process>();

/** The bounds of a native back end's processes. */
export interface NativeLimits {
  /** The run's memory limit in MB (--max-memory): each z3's own (-memory), and rely's process with its z3s together while a request waits. */
  readonly memoryMb?: number;
  /** performance.now() of the run's deadline: a request without a time limit of its own waits no longer (plus a grace). */
  readonly deadline?: number;
}
process.on('exit', () => {
  for (const p of live) void p.kill();
});

/** One z3 child process with a request/response protocol based on echo markers. */
class Z3Process {
  private child?: ChildProcessWithoutNullStreams;
  private buffer = '';
  private waiting?: { marker: string; resolve: (out: string) => void; reject: (e: Error) => void };
  private queue: Promise<unknown> = Promise.resolve();
  private seq = 0;
  /** Closed for good: requests fail instead of restarting the process. */
  private closed = false;
  /** Called after a (re)start, before any request, to restore state. */
  onStart: () => string = () => '';

  constructor(
    private readonly binary: string,
    /** Niceness of the process (0: as rely's own): a background lane's solver yields the cores. */
    private readonly nice = 0,
    private readonly limits: NativeLimits = {},
  ) {}

  private start(): void {
    const memory = this.limits.memoryMb === undefined ? [] : [`-memory:${Math.max(1, Math.floor(this.limits.memoryMb))}`];
    const child = spawn(this.binary, ['-in', '-smt2', ...memory], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    live.add(this);
    if (child.pid !== undefined) solverPids.add(child.pid);
    if (this.nice && child.pid !== undefined) {
      try {
        setPriority(child.pid, this.nice);
      } catch {
        // already gone: its 'exit' reports it
      }
    }
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      this.buffer += d;
      const w = this.waiting;
      if (!w) return;
      const at = this.buffer.indexOf(w.marker);
      if (at >= 0) {
        const out = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + w.marker.length);
        this.waiting = undefined;
        w.resolve(out);
      }
    });
    child.stderr.resume();
    const gone = (why: string): void => {
      if (child.pid !== undefined) solverPids.delete(child.pid);
      if (this.child !== child) return;
      this.child = undefined;
      live.delete(this);
      this.waiting?.reject(new SolverFailed(why));
      this.waiting = undefined;
    };
    child.on('error', (e) => gone(`solver: cannot run z3 (${this.binary}): ${e.message}`));
    child.on('exit', (code, sig) => {
      const memout = code === Z3_MEMOUT || this.buffer.includes('(error "out of memory")');
      const limit = this.limits.memoryMb === undefined ? '' : ` (limit ${this.limits.memoryMb} MB)`;
      gone(memout ? `solver: z3 out of memory${limit}` : `solver: z3 exited (${sig ? `signal ${sig}` : `code ${code}`}) during a query`);
    });
    child.stdin.on('error', () => {}); // reported through 'exit'
    this.buffer = '';
    const preamble = this.onStart();
    if (preamble) child.stdin.write(preamble);
  }

  /**
   * Sends commands; resolves with everything z3 printed for them. A function is
   * evaluated only once the process runs (after a restart has replayed the state).
   */
  request(commands: string | (() => string), timeoutMs?: number): Promise<string> {
    const run = (): Promise<string> =>
      new Promise<string>((resolve, reject) => {
        if (this.closed) return reject(new CrashError('z3 closed'));
        if (!this.child) this.start();
        const text = typeof commands === 'function' ? commands() : commands;
        const marker = `<<rely:${++this.seq}>>`;
        // A request without a limit of its own (push, assert, a model's values) waits until the run's deadline.
        const deadline = this.limits.deadline;
        const bound = timeoutMs ?? (deadline === undefined ? undefined : Math.max(0, deadline - performance.now()));
        let timer: NodeJS.Timeout | undefined;
        let watch: NodeJS.Timeout | undefined;
        const settle = (): void => {
          clearTimeout(timer);
          clearInterval(watch);
        };
        const fail = (e: Error): void => {
          // Stop it; the next request restarts it.
          settle();
          this.waiting = undefined;
          void this.kill();
          reject(e);
        };
        timer =
          bound === undefined
            ? undefined
            : setTimeout(
                () =>
                  // A query past its own limit is a timeout (z3 did not honour it); any other request is overdue.
                  fail(timeoutMs !== undefined ? new TimeoutError() : new SolverFailed(`solver: z3 did not answer within ${Math.round(bound + GRACE_MS)} ms (the run's time left and a ${GRACE_MS / 1000} s grace): killed`)),
                bound + GRACE_MS,
              );
        const memoryMb = this.limits.memoryMb;
        watch =
          memoryMb === undefined
            ? undefined
            : setInterval(() => {
                const m = runMemory();
                if (m.total > memoryMb * MB) fail(new SolverFailed(`solver: z3 stopped: ${memoryNote(m, memoryMb)}`));
              }, MEMORY_POLL_MS);
        this.waiting = {
          marker,
          resolve: (out) => {
            settle();
            resolve(out);
          },
          reject: (e) => {
            settle();
            reject(e);
          },
        };
        this.child!.stdin.write(`${text}\n(echo "${marker}")\n`);
      });
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** The running process, if any (for diagnostics). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /**
   * Stops the process; the next request starts a new one. Resolves once it has exited:
   * a signal is delivered asynchronously, and a run that ends must leave no z3 behind.
   */
  kill(): Promise<void> {
    const c = this.child;
    this.child = undefined;
    live.delete(this);
    if (c?.pid !== undefined) solverPids.delete(c.pid);
    const exited = c?.pid !== undefined && c.exitCode === null && c.signalCode === null ? new Promise<void>((resolve) => c.once('exit', () => resolve())) : Promise.resolve();
    c?.kill('SIGKILL');
    // kill() does not reach 'exit' (the child is already forgotten): fail the request under way here.
    this.waiting?.reject(new CrashError('z3 closed'));
    this.waiting = undefined;
    return exited;
  }

  /** Stops the process for good; resolves once it has exited. */
  close(): Promise<void> {
    this.closed = true;
    return this.kill();
  }
}

export class TimeoutError extends Error {
  constructor() {
    super('timeout');
  }
}

/** The process was closed by rely (the run stopped) while a request was in flight. */
export class CrashError extends Error {}

/** The run's memory past its limit, as the reasons say it. */
export function memoryNote(m: { rely: number; solvers: number; total: number }, limitMb: number): string {
  const mb = (b: number): number => Math.round(b / MB);
  return `out of memory: ${mb(m.total)} MB in use (rely ${mb(m.rely)} MB, z3 ${mb(m.solvers)} MB), past the run's limit of ${limitMb} MB (--max-memory)`;
}

/** A failed query as an answer: unknown with the reason, when the solver gave up or was closed; a failed solver (SolverFailed) is thrown. */
function failedQuery(e: unknown): { status: 'unknown'; reason: string } {
  if (e instanceof TimeoutError) return { status: 'unknown', reason: 'timeout' };
  if (e instanceof CrashError) return { status: 'unknown', reason: e.message };
  throw e;
}

/**
 * z3 cancelled a command. A query's timer that fires just as its check-sat ends can
 * cancel the next command too (a push, an assert): then the assertion stack is not what
 * rely thinks it is.
 */
function cancelled(out: string): boolean {
  return /\(error "[^"]*\bcanceled\b[^"]*"\)/.test(out);
}

function checkErrors(out: string): void {
  const m = /\(error "([^"]*)"\)/.exec(out);
  if (m?.[1] === 'out of memory') throw new SolverFailed('solver: z3 out of memory');
  if (m) throw new Error(`z3: ${m[1]}`);
}

/** Why `proc`'s last check-sat answered unknown. */
async function reasonUnknown(proc: Z3Process): Promise<string> {
  const why = await proc.request('(get-info :reason-unknown)');
  const reason = unknownReason(/:reason-unknown "?([^")]*)"?/.exec(why)?.[1] ?? 'unknown');
  // z3 stopped at its memory limit (-memory) with an answer: the solver is spent, not the query undecided.
  if (/memout|out of memory/.test(reason)) throw new SolverFailed(`solver: z3 out of memory (${reason})`);
  return reason;
}

/** z3's answer `out` to a check-sat, with the values of `vars` when sat (asked of the same process). */
async function answer(proc: Z3Process, out: string, vars: readonly string[]): Promise<SatResult & { model?: Model }> {
  checkErrors(out);
  const status = out.trim().split(/\s+/).pop();
  if (status === 'unsat') return { status: 'unsat' };
  if (status === 'sat') {
    if (!vars.length) return { status: 'sat' };
    const vals = await proc.request(`(get-value (${vars.map(smtSymbol).join(' ')}))`);
    checkErrors(vals);
    return { status: 'sat', model: parseValues(vals) };
  }
  return { status: 'unknown', reason: await reasonUnknown(proc) };
}

/** A variable's declaration, by the sort its name gives it. */
const declaration = (v: string): string => `(declare-const ${smtSymbol(v)} ${smtSortOfName(v)})`;

export class NativeBackend implements Backend {
  readonly name = 'native' as const;
  private readonly smt: Z3Process;
  /** Horn queries and fresh checks: each request starts with (reset). */
  private readonly oneShot: Z3Process;
  private readonly declared = new Set<string>();
  /** Assertions per push level, replayed after a restart. */
  private levels: string[][] = [];
  private timeoutSet = 0;
  private pendingPop = false;

  constructor(binary = findZ3(), nice = 0, limits: NativeLimits = {}) {
    if (!binary) throw new Error('native z3 not found: install z3 (e.g. apt-get install z3) or set RELY_Z3 to its path');
    this.smt = new Z3Process(binary, nice, limits);
    this.smt.onStart = () => {
      this.timeoutSet = 0;
      this.pendingPop = false; // the restarted process never saw the check's push
      const decls = [...this.declared].map(declaration);
      const stack = this.levels.flatMap((l) => ['(push 1)', ...l]);
      return ['(set-option :global-declarations true)', '(set-option :produce-models true)', ...decls, ...stack].join('\n') + '\n';
    };
    this.oneShot = new Z3Process(binary, nice, limits);
  }

  private declare(t: Term): string {
    const out: string[] = [];
    for (const v of varsOf(t))
      if (!this.declared.has(v)) {
        this.declared.add(v);
        out.push(declaration(v));
      }
    return out.join('\n');
  }

  /**
   * z3's output of a request that changed the stack: a cancelled command restarts the
   * process, which replays the declarations and `levels` (already updated), so the
   * stack is as rely thinks it is.
   */
  private stackChanged(out: string): void {
    if (cancelled(out)) void this.smt.kill();
    else checkErrors(out);
  }

  // State changes happen inside the request closures, after any restart's replay.
  async push(): Promise<void> {
    this.stackChanged(await this.smt.request(() => (this.levels.push([]), `${this.owed()}(push 1)`)));
  }

  async pop(): Promise<void> {
    this.stackChanged(await this.smt.request(() => (this.levels.pop(), `${this.owed()}(pop 1)`)));
  }

  async assert(t: Term): Promise<void> {
    const a = `(assert ${toSmt(t)})`;
    this.stackChanged(
      await this.smt.request(() => {
        this.levels[this.levels.length - 1]?.push(a);
        return `${this.owed()}${this.declare(t)}\n${a}`;
      }),
    );
  }

  /** A check whose commands z3 cancelled (a late timer): a fresh process restores the stack, and the answer is a timeout. */
  private cancelledCheck(): { status: 'unknown'; reason: string } {
    void this.smt.kill();
    return { status: 'unknown', reason: 'timeout' };
  }

  /** What z3 must hear before a check of `terms`: the pop it is owed, new declarations, the time limit. */
  private prelude(terms: readonly Term[], timeoutMs: number | undefined): string {
    const decls = [this.owed(), ...terms.map((t) => this.declare(t))];
    const limit = timeoutMs ?? 0;
    if (limit !== this.timeoutSet) decls.push(`(set-option :timeout ${(this.timeoutSet = limit)})`);
    return decls.join('\n');
  }

  async check(extra: readonly Term[], vars: readonly string[], timeoutMs?: number): Promise<SatResult & { model?: Model }> {
    const asserts = extra.map((t) => `(assert ${toSmt(t)})`).join('\n');
    let out: string;
    try {
      out = await this.smt.request(() => `${this.prelude([...extra, ...vars.map((v) => mkVar(v))], timeoutMs)}\n(push 1)\n${asserts}\n(check-sat)`, timeoutMs);
    } catch (e) {
      return failedQuery(e);
    }
    if (cancelled(out)) return this.cancelledCheck();
    const result = await answer(this.smt, out, vars);
    // The pop needs no answer: it goes out in front of the next request, saving a round trip.
    this.pendingPop = true;
    return result;
  }

  /** In the one-shot process (the Horn queries' too): each request starts with (reset). */
  async checkFresh(formulas: readonly Term[], vars: readonly string[], timeoutMs?: number): Promise<SatResult & { model?: Model }> {
    const decls = [...new Set([...formulas.flatMap((t) => [...varsOf(t)]), ...vars])].map(declaration);
    const limit = timeoutMs === undefined ? '' : `(set-option :timeout ${timeoutMs})\n`;
    const asserts = formulas.map((t) => `(assert ${toSmt(t)})`);
    let out: string;
    try {
      out = await this.oneShot.request(`(reset)\n(set-option :produce-models true)\n${limit}${decls.join('\n')}\n${asserts.join('\n')}\n(check-sat)`, timeoutMs);
    } catch (e) {
      return failedQuery(e);
    }
    return answer(this.oneShot, out, vars);
  }

  /** One request: the base asserted once, then a push, assert, check-sat and pop per extra. */
  async checkEach(base: Term, extras: readonly Term[], timeoutMs?: number): Promise<SatResult[]> {
    const checks = extras.map((e) => `(push 1)\n(assert ${toSmt(e)})\n(check-sat)\n(pop 1)`).join('\n');
    let out: string;
    try {
      out = await this.smt.request(
        () => `${this.prelude([base, ...extras], timeoutMs)}\n(push 1)\n(assert ${toSmt(base)})\n${checks}\n(pop 1)`,
        timeoutMs === undefined ? undefined : timeoutMs * extras.length,
      );
    } catch (e) {
      const failed = failedQuery(e);
      return extras.map(() => failed);
    }
    if (cancelled(out)) {
      const failed = this.cancelledCheck();
      return extras.map(() => failed);
    }
    checkErrors(out);
    const answers = out.split(/\s+/).filter((w) => w !== '');
    if (answers.length !== extras.length || answers.some((a) => a !== 'sat' && a !== 'unsat' && a !== 'unknown'))
      throw new Error(`internal: z3 answered ${answers.length} checks of ${extras.length}: ${out.slice(0, 200)}`);
    // The reason of an unknown would cost a request of its own; α takes any unknown as "not implied".
    return answers.map((a) => (a === 'unknown' ? { status: 'unknown', reason: 'unknown' } : { status: a as 'sat' | 'unsat' }));
  }

  /** Commands owed to z3 before the next request (the pop that closes a check). */
  private owed(): string {
    const s = this.pendingPop ? '(pop 1)\n' : '';
    this.pendingPop = false;
    return s;
  }

  async horn(sys: HornSystem, timeoutMs?: number): Promise<HornResult> {
    const limit = timeoutMs === undefined ? '' : `(set-option :timeout ${timeoutMs})\n`;
    let out: string;
    try {
      out = await this.oneShot.request(`(reset)\n${limit}${hornToSmtLib(sys)}(check-sat)`, timeoutMs);
    } catch (e) {
      return failedQuery(e);
    }
    try {
      checkErrors(out);
      const status = out.trim().split(/\s+/).pop();
      if (status === 'unsat') return { status: 'unsat' };
      if (status !== 'sat') return { status: 'unknown', reason: await reasonUnknown(this.oneShot) };
      const model = await this.oneShot.request('(get-model)');
      checkErrors(model);
      return { status: 'sat', solution: await parseHornModel(sys, model, (body, params, sorts) => this.eliminate(body, params, sorts)) };
    } catch (e) {
      // The requests after the answer (its reason, the model, the quantifier elimination)
      // run under the query's time limit too, and end when the run stops and closes the
      // solver: unknown, not an answer that could not be read.
      if (e instanceof TimeoutError || e instanceof CrashError) return failedQuery(e);
      if (e instanceof Error && /^z3: .*\b(canceled|timeout)\b/.test(e.message)) return { status: 'unknown', reason: 'timeout' };
      throw e;
    }
  }

  /**
   * Spacer's answers can keep existentials (over clause variables it eliminated, e.g.
   * the quotients of withQuotients): z3's quantifier elimination removes them before
   * the IR reads the formula, as the wasm back end does. `sorts`: the parameters' SMT sorts.
   */
  private async eliminate(body: SExpr, params: readonly string[], sorts: readonly string[]): Promise<SExpr> {
    const out = await this.oneShot.request(`(reset)\n${params.map((p, i) => `(declare-const ${smtSymbol(p)} ${sorts[i]})`).join('\n')}\n(assert ${showSmt(body)})\n(apply qe)`);
    checkErrors(out);
    const [goals] = parseSExprs(out) as SExpr[][];
    const goal = goals?.[1];
    if (!Array.isArray(goal) || goals.length !== 2) return 'true'; // no subgoal left: the formula is valid
    const end = goal.findIndex((x, i) => i > 0 && typeof x === 'string' && x.startsWith(':'));
    const parts = goal.slice(1, end < 0 ? undefined : end);
    return parts.length === 0 ? 'true' : parts.length === 1 ? parts[0] : ['and', ...parts];
  }

  /** Process id of the SMT session's z3, if it is running. */
  get pid(): number | undefined {
    return this.smt.pid;
  }

  async close(): Promise<void> {
    await Promise.all([this.smt.close(), this.oneShot.close()]);
  }
}

/**
 * A get-value answer: integers, and arrays as z3 4.8 prints them for quantifier-free
 * queries (stores over a constant array; it resolves `as-array` itself). A value the IR
 * cannot hold (a lambda) is a SyntaxError.
 */
function parseValues(text: string): Model {
  const m = new Map<string, Value>();
  for (const top of parseSExprs(text))
    for (const pair of top as SExpr[]) {
      const [name, value] = pair as [string, SExpr];
      m.set(name, sexprToValue(value));
    }
  return m;
}

/** `(define-fun R ((x!0 Int) …) Bool body)` entries → solution over R's parameters. */
async function parseHornModel(
  sys: HornSystem,
  text: string,
  eliminate: (body: SExpr, params: readonly string[], sorts: readonly string[]) => Promise<SExpr>,
): Promise<Map<string, Term>> {
  const defs = new Map<string, RelationDef>();
  const tops = parseSExprs(text).flatMap((top) => (Array.isArray(top) && top[0] !== 'define-fun' ? top : [top])) as SExpr[][];
  for (const d of tops) {
    if (!Array.isArray(d) || d[0] !== 'define-fun') continue;
    const [, name, params, , body] = d as [string, string, SExpr[][], SExpr, SExpr];
    defs.set(name, { params: params.map((p) => p[0] as string), body });
  }
  for (const r of sys.relations) if (!defs.has(r.name)) throw new Error(`z3: Horn model lacks relation '${r.name}'`);
  const bodies = inlineRelations(defs, new Set(sys.relations.map((r) => r.name)));
  const sol = new Map<string, Term>();
  for (const r of sys.relations) {
    const params = defs.get(r.name)!.params;
    const names = new Map(params.map((p, i) => [p, mkVar(r.params[i])] as const));
    const body = bodies.get(r.name)!;
    const open = withoutArrayExists(body);
    sol.set(r.name, sexprToTerm(JSON.stringify(open).includes('"exists"') ? await eliminate(open, params, r.params.map(smtSortOfName)) : open, names));
  }
  return sol;
}
