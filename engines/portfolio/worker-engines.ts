/**
 * The lanes that run in a worker thread (worker-lane.ts): searches that never yield to
 * the event loop, so in rely's own thread they would hold up the solver lanes. This
 * module imports only them, so a worker starts without loading the SMT engines.
 */
import type { Engine, EngineStats } from '../../core/engine.js';
import { explicitGlobalEngine } from '../explicit/engine.js';

export const WORKER_ENGINES: readonly Engine<Record<string, unknown>, unknown, EngineStats>[] = [explicitGlobalEngine as Engine<Record<string, unknown>, unknown, EngineStats>];
