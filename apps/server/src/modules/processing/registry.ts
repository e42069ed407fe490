import type { EntityRef, ProcedureName, ProcedureRunOptions } from '@railwatt/contracts';
import type { ServiceContext } from '../../context.js';
import type { NewEvent } from './repository.js';

/** What one chunk of a run covers: an area day of the run's period (clipped to the period). */
export interface ChunkScope {
  /** The chunk's start and end (exclusive), ISO instants: what the procedure reads and writes. */
  start: string;
  end: string;
  chunk: {
    /** 0-based position in the run, and how many chunks the run has. */
    index: number;
    count: number;
    /** The area day ('YYYY-MM-DD', in the area's time zone). */
    day: string;
  };
  /** The whole run: its period, the entities it is limited to (empty: all), its reference time. */
  run: {
    procedureResultId: number;
    period: { start: string; end: string };
    refs: readonly EntityRef[];
    refTime: string | null;
    /** The run's extra params (metered-energy-aggregation's aggregation); empty for most. */
    options: ProcedureRunOptions;
  };
}

/** What a chunk reports besides its own writes. */
export interface ChunkReport {
  /** Records a processing event (severity default HIGH, incidents default 1) in the chunk's transaction. */
  event(event: NewEvent): void;
  /**
   * Work to run once the chunk's transaction has committed, given the run's context (its area-bound
   * executor, not the chunk's transaction, which is over by then):
   * what must not hold the transaction open or be undone by its rollback (queueing the delivery of
   * files the chunk wrote). Its failure is logged; the chunk stays done.
   */
  afterCommit(work: (ctx: ServiceContext) => Promise<void>): void;
  /**
   * Counts records the chunk processed (added up when called more than once): the run's progress
   * shows them beside its days ("12 of 31 days, 40,000 records"). A procedure that never calls it
   * shows days alone.
   */
  records(count: number): void;
}

/**
 * A procedure's implementation. `run` does one chunk's work on `ctx.db`, which is the chunk's own
 * transaction (area-bound): it commits with the chunk's done-mark or not at all. It must be
 * idempotent for its chunk: running the same chunk again (a retry, a resumed run, a new run of the
 * same period) replaces what the chunk wrote before (delete the chunk's range, then insert), as
 * set-based SQL over the chunk. A throw fails the run (the job retries it, then dead-letters it).
 */
export interface ProcedureImplementation {
  run(ctx: ServiceContext, scope: ChunkScope, report: ChunkReport): Promise<void>;
  /**
   * How many chunks run at once (default 1). On PostgreSQL a month of a large area may run a few
   * days side by side; embedded PGlite has one session, so more than 1 only queues there.
   */
  concurrency?: number;
}

/**
 * The `concurrency` of the procedures whose area days are independent: each chunk deletes and writes
 * only rows of its own period (cebd-preprocessing, train-preprocessing by operating day, combine,
 * shunting-and-stabling, energy-outside-train-run and their delayed tasks, price-and-supply by hour,
 * settlement by day) and reads nothing another chunk of the same run writes. Two: each chunk's
 * statements run in one backend on one core, and the server has two (bench/settlement.ts).
 */
export const DAYS_AT_ONCE = 2;

const PROCEDURES = new Map<ProcedureName, ProcedureImplementation>();

/**
 * Registers the implementation of a procedure (one module per procedure calls this when it is
 * imported). Answers a function that removes it again (tests). A second registration of the same
 * name is a programming error.
 */
export function registerProcedure(name: ProcedureName, implementation: ProcedureImplementation): () => void {
  if (PROCEDURES.has(name)) throw new Error(`Procedure ${name} is already registered`);
  PROCEDURES.set(name, implementation);
  return () => {
    if (PROCEDURES.get(name) === implementation) PROCEDURES.delete(name);
  };
}

/**
 * The implementation of a procedure, or undefined when none is registered yet. Issue 9 registers
 * the real procedures one by one; until then a run of the others is "nothing to do yet"
 * (run.ts NOTHING_TO_DO_YET): a success with a message that says so, never a silent no-op.
 */
export function procedureImplementation(name: ProcedureName): ProcedureImplementation | undefined {
  return PROCEDURES.get(name);
}

/**
 * Tests only: puts `implementation` in place of the procedure's (registered or not; null: none, so
 * a run finishes as "nothing to do yet") and answers a function that puts the earlier one back.
 */
export function overrideProcedure(name: ProcedureName, implementation: ProcedureImplementation | null): () => void {
  const earlier = PROCEDURES.get(name);
  if (implementation) PROCEDURES.set(name, implementation);
  else PROCEDURES.delete(name);
  return () => {
    if ((PROCEDURES.get(name) ?? null) !== implementation) return;
    if (earlier) PROCEDURES.set(name, earlier);
    else PROCEDURES.delete(name);
  };
}
