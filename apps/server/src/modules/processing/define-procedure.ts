import type { ConfigProcedure, EntityRef, ProcedureName, ProcedureRunOptions } from '@railwatt/contracts';
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
 * The `concurrency` of the procedures whose area days are independent: each chunk deletes and writes
 * only rows of its own period (cebd-preprocessing, train-preprocessing by operating day, combine,
 * shunting-and-stabling, energy-outside-train-run and their delayed tasks, price-and-supply by hour,
 * settlement by day) and reads nothing another chunk of the same run writes. Two: each chunk's
 * statements run in one backend on one core, and the server has two (bench/settlement.ts).
 */
export const DAYS_AT_ONCE = 2;

/**
 * A procedure, declared once (ARCHITECTURE.md "Processing"): what it is called, which configuration
 * it reads, the chunk's work, the event codes it may record and the procedures the system runs after
 * it succeeded. Every procedure module exports its definitions; src/procedures.ts ALL_PROCEDURES lists
 * them, and the app hands that list to the `procedure-run` job (the engine in this folder imports
 * no procedure).
 */
export interface ProcedureDefinition {
  readonly name: ProcedureName;
  /** The processing configurations its run reads (processing-config), the procedure's own first. */
  readonly configuration: readonly ConfigProcedure[];
  /**
   * One chunk's work on `ctx.db`, the chunk's own transaction (area-bound): it commits with the
   * chunk's done-mark or not at all. It must be idempotent for its chunk: running the same chunk
   * again (a retry, a resumed run, a new run of the same period) replaces what the chunk wrote before
   * (delete the chunk's range, then insert), as set-based SQL over the chunk. A throw fails the run
   * (the job retries it, then dead-letters it).
   */
  run(ctx: ServiceContext, scope: ChunkScope, report: ChunkReport): Promise<void>;
  /** The codes of the processing events it may record (`report.event`); another code fails the chunk. */
  readonly events: readonly string[];
  /**
   * The procedures the system runs after a successful run of this one, for the same period
   * (chain.ts, the `procedure-follow-up` job). Empty: a person starts what comes next.
   */
  readonly followers: readonly ProcedureName[];
  /** Further followers its configuration names at the run's start (read when the run succeeded). */
  configuredFollowers?(ctx: ServiceContext, periodStart: string): Promise<readonly ProcedureName[]>;
  /**
   * Keeps due days (due-days.ts): the engine marks a day for it whenever a step it follows processed
   * the day, and a run with option onlyDue skips the days neither marked nor processed before (the
   * nightly allocation, jobs/nightly-allocation.ts, and the month-end re-check's chain).
   */
  readonly keepsDueDays?: boolean;
  /**
   * Whether a run with option onlyDue processes the chunk, when the procedure decides it itself
   * (cebd-preprocessing: a re-check mark or an unchecked record). A day found not due is done with
   * no records and marks nothing.
   */
  isDue?(ctx: ServiceContext, scope: ChunkScope): Promise<boolean>;
  /**
   * How many chunks run at once (default 1). On PostgreSQL a month of a large area may run a few
   * days side by side; embedded PGlite has one session, so more than 1 only queues there.
   */
  readonly concurrency: number;
}

/** What a procedure module writes: a definition whose lists and concurrency may be left to their defaults. */
export type ProcedureDeclaration = Omit<ProcedureDefinition, 'configuration' | 'events' | 'followers' | 'concurrency'> &
  Partial<Pick<ProcedureDefinition, 'configuration' | 'events' | 'followers' | 'concurrency'>>;

/** Declares a procedure (defaults: no configuration, no events, no followers, one day at a time). */
export function defineProcedure(declaration: ProcedureDeclaration): ProcedureDefinition {
  return {
    configuration: [],
    events: [],
    followers: [],
    concurrency: 1,
    ...declaration,
  };
}

/** The procedures a process runs, by name: what the `procedure-run` job and the chain are given. */
export type Procedures = ReadonlyMap<ProcedureName, ProcedureDefinition>;

/** The table of a list of definitions; a name listed twice is a programming error. */
export function procedureTable(list: readonly ProcedureDefinition[]): Procedures {
  const table = new Map<ProcedureName, ProcedureDefinition>();
  for (const definition of list) {
    if (table.has(definition.name)) throw new Error(`Procedure ${definition.name} is defined twice`);
    table.set(definition.name, definition);
  }
  return table;
}
