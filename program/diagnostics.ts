/** Source positions and the located errors every frontend stage throws. */

export interface SourcePos {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

export const showPos = (p: SourcePos): string => `${p.file}:${p.line}:${p.col}`;

/** Source order of two positions in one file: negative when `a` comes first. */
export const comparePos = (a: SourcePos, b: SourcePos): number => a.line - b.line || a.col - b.col;

/**
 * A problem with the user's input. `unsupported` marks constructs that are valid C
 * but outside what rely models; the CLI prints `file:line:col: unsupported: …` and
 * exits with code 2.
 */
export class InputError extends Error {
  constructor(
    readonly pos: SourcePos,
    readonly detail: string,
    readonly kind: 'error' | 'unsupported' = 'error',
  ) {
    super(`${showPos(pos)}: ${kind}: ${detail}`);
    this.name = 'InputError';
  }
}

export const fail = (pos: SourcePos, detail: string): never => {
  throw new InputError(pos, detail);
};
export const unsupported = (pos: SourcePos, detail: string): never => {
  throw new InputError(pos, detail, 'unsupported');
};

/**
 * The run's deadline (performance.now()) passed while the input was being read. The
 * frontend looks at the clock between the pieces it matches and the paths of its
 * blocks; one piece (a single statement) is matched whole.
 */
export class ReadingTimeout extends Error {
  constructor() {
    super('timeout (while reading the input)');
  }
}

/** Where the frontend's stages take the run's deadline (undefined: none). */
export interface DeadlineOption {
  deadline?: number;
}

export function checkDeadline(deadline: number | undefined): void {
  if (deadline !== undefined && performance.now() > deadline) throw new ReadingTimeout();
}

/** Thread creation without a static bound: unsupported as it stands, searchable for bugs with LowerOptions.maxInstances. */
export class UnboundedThreads extends InputError {
  constructor(pos: SourcePos, detail: string) {
    super(pos, detail, 'unsupported');
  }
}
export const unboundedThreads = (pos: SourcePos, detail: string): never => {
  throw new UnboundedThreads(pos, detail);
};

export interface Warning {
  readonly pos: SourcePos;
  readonly message: string;
}
