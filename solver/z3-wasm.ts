/**
 * Embedded back end: z3-solver (WASM) in-process, the zero-install default.
 * z3-solver runs one long call at a time per module, so calls are serialised; its
 * worker threads are terminated on close, or the process would never exit.
 * Horn queries go through the Fixedpoint API with the Spacer engine.
 */
import { init, killThreads } from 'z3-solver';
import { isArrayName, mkVar, smtSortOfName, smtSymbol, type Term, type Value } from './formula.js';
import type { HornResult, HornSystem } from './horn.js';
import { clauseVars, withQuotients } from './horn.js';
import { inlineRelations, parseSExprs, sexprToTerm, sexprToValue, showSmt, withoutArrayExists, type RelationDef, type SExpr } from './sexpr.js';
import { unknownReason, type Backend, type Model, type SatResult } from './smt.js';

type Api = Awaited<ReturnType<typeof init>>;
type Ctx = ReturnType<Api['Context']>;
/**
 * A z3-solver expression. Its typings are generic in the context name and the sort,
 * which does not survive building expressions from our terms at run time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Expr = any;

let api: Promise<Api> | undefined;
let users = 0;
let lock: Promise<unknown> = Promise.resolve();

/** Runs `f` after every earlier z3-solver call has finished. */
function serial<T>(f: () => Promise<T>): Promise<T> {
  const p = lock.then(f, f);
  lock = p.catch(() => undefined);
  return p;
}

export class WasmBackend implements Backend {
  readonly name = 'wasm' as const;
  private ctx?: Ctx;
  private solver?: InstanceType<Ctx['Solver']>;
  private readonly exprs = new Map<number, Expr>();
  private closed = false;

  private async ready(): Promise<{ ctx: Ctx; solver: InstanceType<Ctx['Solver']> }> {
    if (!this.ctx) {
      if (!api) api = init();
      users++;
      const a = await api;
      const ctx = a.Context('rely') as unknown as Ctx;
      this.ctx = ctx;
      this.solver = new ctx.Solver();
    }
    return { ctx: this.ctx, solver: this.solver! };
  }

  /** Translates a formula-IR term into a z3 expression (memoised by term id). */
  private expr(ctx: Ctx, t: Term): Expr {
    const hit = this.exprs.get(t.id);
    if (hit) return hit;
    const e = ((): Expr => {
      switch (t.kind) {
        case 'int':
          return ctx.Int.val(t.value);
        case 'bool':
          return ctx.Bool.val(t.value);
        case 'var':
          return t.sort === 'bool' ? ctx.Bool.const(t.name) : t.sort === 'array' ? ctx.Array.const(t.name, ctx.Int.sort(), ctx.Int.sort()) : ctx.Int.const(t.name);
        case 'app': {
          const a: Expr[] = t.args.map((x) => this.expr(ctx, x));
          switch (t.op) {
            case '+':
              return a.reduce((x, y) => x.add(y));
            case '*':
              return a[0].mul(a[1]);
            case 'cdiv': // truncating division, as C
              return ctx.If(a[0].ge(0), a[0].div(a[1]), a[0].neg().div(a[1]).neg());
            case 'crem':
              return ctx.If(a[0].ge(0), a[0].mod(a[1]), a[0].neg().mod(a[1]).neg());
            case 'ite':
              return ctx.If(a[0], a[1], a[2]);
            case '=':
              return a[0].eq(a[1]);
            case '<=':
              return a[0].le(a[1]);
            case '<':
              return a[0].lt(a[1]);
            case 'and':
              return ctx.And(...a);
            case 'or':
              return ctx.Or(...a);
            case 'not':
              return ctx.Not(a[0]);
            case 'select':
              return a[0].select(a[1]);
            case 'store':
              return a[0].store(a[1], a[2]);
            case 'const':
              return ctx.Array.K(ctx.Int.sort(), a[0]);
          }
        }
      }
    })();
    this.exprs.set(t.id, e);
    return e;
  }

  push(): Promise<void> {
    return serial(async () => (await this.ready()).solver.push());
  }

  pop(): Promise<void> {
    return serial(async () => (await this.ready()).solver.pop());
  }

  assert(t: Term): Promise<void> {
    return serial(async () => {
      const { ctx, solver } = await this.ready();
      solver.add(this.expr(ctx, t));
    });
  }

  check(extra: readonly Term[], vars: readonly string[], timeoutMs?: number): Promise<SatResult & { model?: Model }> {
    return serial(async () => {
      const { ctx, solver } = await this.ready();
      solver.set('timeout', timeoutMs ?? 4294967295);
      solver.push();
      try {
        for (const t of extra) solver.add(this.expr(ctx, t));
        return await this.answer(ctx, solver, vars);
      } finally {
        solver.pop();
      }
    });
  }

  checkFresh(formulas: readonly Term[], vars: readonly string[], timeoutMs?: number): Promise<SatResult & { model?: Model }> {
    return serial(async () => {
      const { ctx } = await this.ready();
      const solver = new ctx.Solver();
      solver.set('timeout', timeoutMs ?? 4294967295);
      for (const t of formulas) solver.add(this.expr(ctx, t));
      return this.answer(ctx, solver, vars);
    });
  }

  /** `solver`'s answer to check-sat, with the values of `vars` when sat. */
  private async answer(ctx: Ctx, solver: InstanceType<Ctx['Solver']>, vars: readonly string[]): Promise<SatResult & { model?: Model }> {
    const r = await solver.check();
    if (r === 'unsat') return { status: 'unsat' };
    if (r === 'unknown') {
      return { status: 'unknown', reason: unknownReason(solver.reasonUnknown()) };
    }
    const model = new Map<string, Value>();
    if (vars.length) {
      const m = solver.model();
      for (const v of vars) {
        const val = m.eval(this.expr(ctx, mkVar(v)), true).sexpr();
        // An array's value is a term (stores over a constant array), read as one; an integer's is read directly.
        model.set(v, isArrayName(v) ? sexprToValue(parseSExprs(val)[0]) : BigInt(val.replace(/^\(- (\d+)\)$/, '-$1')));
      }
    }
    return { status: 'sat', model };
  }

  horn(system: HornSystem, timeoutMs?: number): Promise<HornResult> {
    const sys = withQuotients(system);
    return serial(async () => {
      const { ctx } = await this.ready();
      const fp = new ctx.Fixedpoint();
      fp.set('engine', 'spacer');
      if (timeoutMs !== undefined) fp.set('timeout', timeoutMs);
      const I = ctx.Int.sort();
      const sortOf = (param: string): Expr => (isArrayName(param) ? ctx.Array.sort(I, I) : I);
      const B = ctx.Bool.sort();
      const decls = new Map(sys.relations.map((r) => [r.name, ctx.Function.declare(r.name, ...r.params.map(sortOf), B)] as const));
      for (const d of decls.values()) fp.registerRelation(d);
      const query = ctx.Function.declare('__rely_query', B);
      fp.registerRelation(query);
      const app = (rel: string, args: readonly Term[]): Expr => decls.get(rel)!.call(...args.map((a) => this.expr(ctx, a)));
      for (const c of sys.clauses) {
        const body: Expr = ctx.And(...c.body.map((a) => app(a.rel, a.args)), this.expr(ctx, c.constraint));
        const head = c.head ? app(c.head.rel, c.head.args) : query.call();
        const vs: Expr[] = clauseVars(c).map((v) => this.expr(ctx, mkVar(v)));
        const rule: Expr = vs.length ? ctx.ForAll(vs as [Expr, ...Expr[]], ctx.Implies(body, head)) : ctx.Implies(body, head);
        fp.addRule(rule);
      }
      const goal: Expr = query.call();
      const r = await fp.query(goal);
      // Fixedpoint polarity: the query is reachable (sat) exactly when no solution exists.
      if (r === 'sat') return { status: 'unsat' };
      if (r === 'unknown') {
        return { status: 'unknown', reason: unknownReason(fp.getReasonUnknown()) };
      }
      const answer = fp.getAnswer();
      if (!answer) return { status: 'unknown', reason: 'spacer gave no answer' };
      // Newer Spacer answers can keep existentials (over eliminated clause variables);
      // z3's own quantifier elimination removes them before the IR reads the formula.
      const eliminate = async (body: string, params: readonly string[], sorts: readonly string[]): Promise<string> => {
        const s = new ctx.Solver();
        s.fromString(`${params.map((p, i) => `(declare-const ${smtSymbol(p)} ${sorts[i]})`).join(' ')} (assert ${body})`);
        const goal = new ctx.Goal();
        for (const a of s.assertions()) goal.add(a);
        const out = await new ctx.Tactic('qe').apply(goal);
        return out.length() === 1 ? out.getSubgoal(0).asExpr().sexpr() : 'true';
      };
      return { status: 'sat', solution: await parseAnswer(sys, answer.sexpr(), eliminate) };
    });
  }

  async close(): Promise<void> {
    if (this.closed || !this.ctx) return;
    this.closed = true;
    if (--users === 0 && api) {
      const a = await api;
      api = undefined;
      await serial(() => killThreads(a.em));
    }
  }
}

/**
 * Spacer's answer: `(and (forall (params) (= (R params) body)) …)`, possibly inside
 * lets and with `!` annotations. Relations it leaves out are unreachable: false.
 */
async function parseAnswer(
  sys: HornSystem,
  text: string,
  eliminate: (body: string, params: readonly string[], sorts: readonly string[]) => Promise<string>,
): Promise<Map<string, Term>> {
  const defs = new Map<string, RelationDef>();
  const visit = (e: SExpr, lets: Map<string, SExpr>): void => {
    if (typeof e === 'string') {
      const l = lets.get(e);
      if (l) visit(l, lets);
      return;
    }
    const [h, ...args] = e;
    if (h === 'let') {
      const inner = new Map(lets);
      for (const b of args[0] as SExpr[]) inner.set((b as SExpr[])[0] as string, (b as SExpr[])[1]);
      return visit(args[1], inner);
    }
    if (h === 'and') return args.forEach((a) => visit(a, lets));
    if (h === '!') return visit(args[0], lets);
    if (h === 'forall') {
      const names = (args[0] as SExpr[]).map((b) => (b as SExpr[])[0] as string);
      return defineFrom(args[1], names, lets);
    }
    if (h === '=') defineFrom(e, [], lets);
  };
  const defineFrom = (e: SExpr, bound: string[], lets: Map<string, SExpr>): void => {
    let x = e;
    while (Array.isArray(x) && (x[0] === '!' || x[0] === 'let')) {
      if (x[0] === '!') x = x[1];
      else {
        for (const b of x[1] as SExpr[]) lets = new Map(lets).set((b as SExpr[])[0] as string, (b as SExpr[])[1]);
        x = x[2];
      }
    }
    if (!Array.isArray(x) || x[0] !== '=') return;
    const [, lhs, rhs] = x;
    const relName = Array.isArray(lhs) ? lhs[0] : lhs;
    const rel = sys.relations.find((r) => r.name === relName);
    if (!rel) return;
    const argNames = Array.isArray(lhs) ? (lhs.slice(1) as string[]) : [];
    // Let-bound names inside the body are expanded by the term reader.
    defs.set(rel.name, { params: argNames, body: wrapLets(rhs, lets, new Set(bound)) });
  };
  for (const top of parseSExprs(text)) visit(top, new Map());
  const bodies = inlineRelations(defs, new Set(sys.relations.map((r) => r.name)));
  const sol = new Map<string, Term>();
  for (const r of sys.relations) {
    const params = defs.get(r.name)?.params ?? [];
    const names = new Map<string, Term>(params.map((a, i) => [a, mkVar(r.params[i])] as const));
    const body = bodies.get(r.name) ?? 'false';
    // z3-solver runs one async call at a time: the eliminations go in sequence.
    const open = withoutArrayExists(body);
    const text = JSON.stringify(open).includes('"exists"') ? parseSExprs(await eliminate(showSmt(open), params, r.params.map(smtSortOfName)))[0] : open;
    sol.set(r.name, sexprToTerm(text, names));
  }
  return sol;
}

/** Re-wraps the let-bindings a body uses (transitively) around it, so sexprToTerm can expand them. */
function wrapLets(body: SExpr, lets: Map<string, SExpr>, shadowed: Set<string>): SExpr {
  const used = new Set<string>();
  const scan = (e: SExpr): void => {
    if (typeof e !== 'string') return e.forEach(scan);
    if (lets.has(e) && !shadowed.has(e) && !used.has(e)) {
      used.add(e);
      scan(lets.get(e)!);
    }
  };
  scan(body);
  // Keep the scope's order so a binding precedes the bindings that use it.
  const binds = [...lets].filter(([n]) => used.has(n)).map(([n, v]) => [n, v] as SExpr);
  return binds.reduceRight<SExpr>((acc, b) => ['let', [b], acc], body);
}
