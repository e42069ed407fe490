import { SaxesParser, type SaxesAttributeNS, type SaxesTagNS } from 'saxes';
import type {
  IntakeFormat,
  ParseItem,
  ParseOptions,
  ParsedTrainRun,
  Problem,
  SourceLocation,
} from '../timeseries/format.js';
import * as check from './trainrun-values.js';

/**
 * Train-run files (docs/formats/train-runs.md, docs/formats/train-runs.xsd): a railway
 * undertaking's input, correction and delete of train runs. Read as a stream with saxes, decoded
 * by a streaming TextDecoder, so a file of any size needs memory for one train run at a time.
 * Every run comes out whole and checked, or not at all with its problems (line, column and the
 * element path); master data (the RU, categories, profiles, EVNs) is the store's business
 * (modules/trainrun). Nothing here throws on bad input.
 */

export const TRAIN_RUN_NAMESPACE = 'urn:railwatt:trainrun:1';
/** Upper bounds that keep one run's memory small; a real train has far fewer. */
export const MAX_VEHICLES = 200;
export const MAX_PLACES = 500;
const DEFAULT_MAX_PROBLEMS = 100;

const RUN_ATTRIBUTES = [
  'action',
  'trainNumber',
  'operatingDay',
  'railwayUndertaking',
  'trafficCategory',
  'trainProfile',
  'departure',
  'arrival',
  'grossTonneKm',
] as const;
type RunAttribute = (typeof RUN_ATTRIBUTES)[number];
/** What an input or a correction must state; a delete needs only the identity. */
const FULL_RUN_REQUIRED: readonly RunAttribute[] = ['trafficCategory', 'departure', 'arrival', 'grossTonneKm'];

type FrameKind = 'root' | 'run' | 'route' | 'place' | 'composition' | 'vehicle' | 'skip';
/** The elements each element may hold (the rest of this namespace is a problem). */
const CHILDREN: Partial<Record<FrameKind, Partial<Record<string, FrameKind>>>> = {
  root: { TrainRun: 'run' },
  run: { Route: 'route', Composition: 'composition' },
  route: { Place: 'place' },
  composition: { Vehicle: 'vehicle' },
};

interface Frame {
  kind: FrameKind;
  path: string;
  location: SourceLocation;
  /** Children seen so far by local name (for the [n] of the path). */
  children: Map<string, number>;
}

interface RunState {
  run: ParsedTrainRun;
  faulty: boolean;
  routeSeen: boolean;
  compositionSeen: boolean;
  positions: Set<number>;
  evns: Set<string>;
  /** Vehicle elements seen: the default position of the next one is this + 1. */
  vehicles: number;
  tooLong: boolean;
}

/** Feeds decoded text to saxes and turns its events into parse items (queued until `drain`). */
class TrainRunReader {
  private readonly parser = new SaxesParser({ xmlns: true, position: true });
  private readonly queue: ParseItem[] = [];
  private readonly stack: Frame[] = [];
  private readonly maxProblems: number;
  private problems = 0;
  private runs = 0;
  private current: RunState | undefined;
  private tagStart: SourceLocation = {};
  /** Set after the first well-formedness error, a refused root or too many problems: read no further. */
  stopped = false;

  constructor(private readonly options: ParseOptions) {
    this.maxProblems = Math.max(1, options.maxProblems ?? DEFAULT_MAX_PROBLEMS);
    const p = this.parser;
    p.on('xmldecl', (decl) => {
      const encoding = decl.encoding?.toLowerCase();
      if (encoding !== undefined && encoding !== 'utf-8' && encoding !== 'utf8')
        this.fatal(`The file must be UTF-8, not ${check.shown(decl.encoding ?? '')}`);
    });
    p.on('doctype', () => this.fatal('A DOCTYPE is not allowed in a train-run file'));
    p.on('opentagstart', (tag) => {
      // saxes has read '<', the name and the character after it: '<' is name + 2 characters back.
      this.tagStart = { line: p.line, column: Math.max(1, p.column - tag.name.length - 1) };
    });
    p.on('opentag', (tag) => this.guard(() => this.open(tag)));
    p.on('closetag', () => this.guard(() => this.close()));
    p.on('error', (error) => {
      const message = error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
      this.fatal(`The file is not well-formed XML: ${message}`, { line: p.line, column: p.column + 1 });
    });
  }

  write(text: string): void {
    if (this.stopped || text === '') return;
    this.parser.write(text);
  }

  end(): void {
    if (this.stopped) return;
    this.parser.close();
    if (!this.stopped && this.runs === 0) this.problem({}, 'The file holds no TrainRun');
  }

  /** Where the reader is now (for a decoding error between events). */
  position(): SourceLocation {
    return { line: this.parser.line, column: this.parser.column + 1, ...this.pathOnly() };
  }

  drain(): ParseItem[] {
    return this.queue.splice(0, this.queue.length);
  }

  /** A problem that ends the reading: nothing after it can be trusted. */
  fatal(message: string, at: SourceLocation = {}): void {
    if (this.stopped) return;
    this.problem({ ...at, ...this.pathOnly() }, message);
    this.stopped = true;
  }

  private guard(work: () => void): void {
    if (!this.stopped) work();
  }

  private pathOnly(): SourceLocation {
    const top = this.stack[this.stack.length - 1];
    return top ? { path: top.path } : {};
  }

  private problem(location: SourceLocation, message: string): void {
    if (this.stopped) return;
    if (this.current) this.current.faulty = true;
    this.queue.push({ kind: 'problem', problem: { location, message } });
    if (++this.problems >= this.maxProblems) {
      this.queue.push({
        kind: 'problem',
        problem: { location: {}, message: `Reading stopped after ${this.problems} problems` },
      });
      this.stopped = true;
    }
  }

  private open(tag: SaxesTagNS): void {
    const parent = this.stack[this.stack.length - 1];
    const count = (parent?.children.get(tag.local) ?? 0) + 1;
    parent?.children.set(tag.local, count);
    const indexed = tag.local === 'TrainRun' || tag.local === 'Place' || tag.local === 'Vehicle';
    const path = `${parent ? `${parent.path}/` : ''}${tag.local}${indexed ? `[${count}]` : ''}`;
    const location: SourceLocation = { ...this.tagStart, path };
    const push = (kind: FrameKind): void => {
      this.stack.push({ kind, path, location, children: new Map() });
    };

    if (!parent) {
      if (tag.local !== 'TrainRuns' || tag.uri !== TRAIN_RUN_NAMESPACE) {
        const found = tag.uri ? `{${tag.uri}}${tag.local}` : tag.local;
        this.fatal(
          `The root element must be TrainRuns in namespace ${TRAIN_RUN_NAMESPACE}, not ${check.shown(found)}`,
          {
            line: location.line,
            column: location.column,
          },
        );
        return;
      }
      this.attributes(tag, ['sender', 'created'], location);
      push('root');
      return;
    }
    // Elements of other namespaces are extensions: skipped with everything inside them.
    if (parent.kind === 'skip' || tag.uri !== TRAIN_RUN_NAMESPACE) {
      push('skip');
      return;
    }
    const allowed = CHILDREN[parent.kind];
    // Own properties only: an element named constructor or __proto__ is no child of anything.
    const kind = allowed && Object.hasOwn(allowed, tag.local) ? allowed[tag.local] : undefined;
    if (!kind) {
      this.problem(location, `Unexpected element ${check.shown(tag.local)} in ${parent.path.split('/').pop()}`);
      push('skip');
      return;
    }
    push(kind);
    if (kind === 'run') this.openRun(tag, location);
    else if (kind === 'route' || kind === 'composition') this.openList(kind, tag, location);
    else if (kind === 'place') this.openPlace(tag, location);
    else if (kind === 'vehicle') this.openVehicle(tag, location);
  }

  private close(): void {
    const frame = this.stack.pop();
    if (frame?.kind === 'run') this.closeRun(frame.location);
  }

  /** The element's attributes of no namespace by name; unknown ones are problems. */
  private attributes(tag: SaxesTagNS, known: readonly string[], location: SourceLocation): Map<string, string> {
    const found = new Map<string, string>();
    for (const attribute of Object.values(tag.attributes) as SaxesAttributeNS[]) {
      if (attribute.uri !== '') continue; // xmlns declarations and attributes of other namespaces
      if (!known.includes(attribute.local))
        this.problem(location, `Unknown attribute ${check.shown(attribute.local)} on ${tag.local}`);
      else found.set(attribute.local, attribute.value);
    }
    return found;
  }

  private openRun(tag: SaxesTagNS, location: SourceLocation): void {
    this.runs++;
    const attributes = this.attributes(tag, RUN_ATTRIBUTES, location);
    const state: RunState = {
      run: {
        action: 'input',
        trainNumber: '',
        operatingDay: '',
        railwayUndertaking: '',
        route: [],
        composition: [],
        location,
      },
      faulty: false,
      routeSeen: false,
      compositionSeen: false,
      positions: new Set(),
      evns: new Set(),
      vehicles: 0,
      tooLong: false,
    };
    this.current = state;
    const read = <T>(name: RunAttribute, rule: (value: string) => check.Checked<T>, required: boolean) => {
      const value = attributes.get(name);
      if (value === undefined) {
        if (required) this.problem(location, `Attribute ${name} is required`);
        return undefined;
      }
      const result = rule(value);
      if (result.ok) return result.value;
      this.problem(location, result.message);
      return undefined;
    };
    const run = state.run;
    const action = read('action', check.action, true);
    run.action = action ?? 'input';
    run.trainNumber = read('trainNumber', check.trainNumber, true) ?? '';
    run.operatingDay = read('operatingDay', (v) => check.calendarDay(v, 'operatingDay'), true) ?? '';
    run.railwayUndertaking = read('railwayUndertaking', (v) => check.name(v, 'railwayUndertaking'), true) ?? '';
    // A delete names only the run; whatever else it carries is not read.
    if (action === 'delete' || action === undefined) return;
    const full = (name: RunAttribute) => FULL_RUN_REQUIRED.includes(name);
    run.trafficCategory = read('trafficCategory', (v) => check.name(v, 'trafficCategory'), full('trafficCategory'));
    run.trainProfile = read('trainProfile', (v) => check.name(v, 'trainProfile'), false);
    run.departure = read('departure', (v) => check.instant(v, 'departure'), true);
    run.arrival = read('arrival', (v) => check.instant(v, 'arrival'), true);
    run.grossTonneKm = read('grossTonneKm', (v) => check.decimal(v, 'grossTonneKm', 'notNegative'), true);
  }

  private openList(kind: 'route' | 'composition', tag: SaxesTagNS, location: SourceLocation): void {
    this.attributes(tag, [], location);
    const state = this.current;
    if (!state || state.run.action === 'delete') return;
    const seen = kind === 'route' ? state.routeSeen : state.compositionSeen;
    if (seen) this.problem(location, `A TrainRun has one ${tag.local}`);
    if (kind === 'route') state.routeSeen = true;
    else state.compositionSeen = true;
  }

  private openPlace(tag: SaxesTagNS, location: SourceLocation): void {
    const attributes = this.attributes(tag, ['name'], location);
    const state = this.current;
    if (!state || state.run.action === 'delete') return;
    const value = attributes.get('name');
    if (value === undefined) return this.problem(location, 'Attribute name is required');
    const place = check.name(value, 'name');
    if (!place.ok) return this.problem(location, place.message);
    if (state.run.route.length >= MAX_PLACES) {
      if (!state.tooLong) this.problem(location, `A route has at most ${MAX_PLACES} places`);
      state.tooLong = true;
      return;
    }
    state.run.route.push(place.value);
  }

  private openVehicle(tag: SaxesTagNS, location: SourceLocation): void {
    const attributes = this.attributes(tag, ['evn', 'grossWeight', 'position'], location);
    const state = this.current;
    if (!state || state.run.action === 'delete') return;
    const composition = state.run.composition;
    state.vehicles++;
    if (composition.length >= MAX_VEHICLES) {
      if (!state.tooLong) this.problem(location, `A composition has at most ${MAX_VEHICLES} vehicles`);
      state.tooLong = true;
      return;
    }
    const required = <T>(name: string, rule: (value: string) => check.Checked<T>): T | undefined => {
      const value = attributes.get(name);
      if (value === undefined) {
        this.problem(location, `Attribute ${name} is required`);
        return undefined;
      }
      const result = rule(value);
      if (!result.ok) this.problem(location, result.message);
      return result.ok ? result.value : undefined;
    };
    const evn = required('evn', check.evn);
    const grossWeight = required('grossWeight', (v) => check.decimal(v, 'grossWeight', 'positive'));
    const stated = attributes.get('position');
    let position = state.vehicles;
    if (stated !== undefined) {
      const result = check.position(stated);
      if (!result.ok) return this.problem(location, result.message);
      position = result.value;
    }
    if (state.positions.has(position)) this.problem(location, `Position ${position} appears twice in the composition`);
    state.positions.add(position);
    if (evn === undefined || grossWeight === undefined) return;
    if (state.evns.has(evn)) return this.problem(location, `Vehicle ${evn} appears twice in the composition`);
    state.evns.add(evn);
    composition.push({ evn, grossWeightTonnes: grossWeight, position });
  }

  private closeRun(location: SourceLocation): void {
    const state = this.current;
    this.current = undefined;
    if (!state) return;
    const run = state.run;
    const fail = (message: string) => {
      this.problem(location, message);
      state.faulty = true;
    };
    if (run.action !== 'delete' && !state.faulty) {
      if (run.route.length < 2) fail('A Route with at least two places (origin and destination) is required');
      if (run.composition.length === 0) fail('A Composition with at least one vehicle is required');
      if (run.departure && run.arrival && run.arrival <= run.departure)
        fail(`Arrival ${run.arrival} is not after departure ${run.departure}`);
      if (run.departure && run.operatingDay) {
        if (!check.departsOnOperatingDay(run.departure, run.operatingDay, this.options.timeZone))
          fail(`Departure ${run.departure} is not on operating day ${run.operatingDay} (or the night after)`);
      }
    }
    if (state.faulty || this.stopped) return;
    run.composition.sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
    this.queue.push({ kind: 'trainrun', run });
  }
}

/** The items of one train-run file, in file order. Never throws on the bytes. */
export async function* parseTrainRuns(input: AsyncIterable<Buffer>, options: ParseOptions): AsyncGenerator<ParseItem> {
  const reader = new TrainRunReader(options);
  // fatal: a byte sequence that is not UTF-8 is a problem of the file, not a silent U+FFFD.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (chunk?: Buffer): string | undefined => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      reader.fatal('The file is not valid UTF-8', reader.position());
      return undefined;
    }
  };
  for await (const chunk of input) {
    const text = decode(chunk);
    if (text !== undefined) reader.write(text);
    yield* reader.drain();
    if (reader.stopped) return;
  }
  const rest = decode();
  if (rest !== undefined) reader.write(rest);
  reader.end();
  yield* reader.drain();
}

/** Whether a file is a train-run file: the namespace or the root element within its first bytes. */
export function detectTrainRuns(fileName: string, head: Buffer): boolean {
  const text = head.subarray(0, 4096).toString('utf8');
  if (text.includes(TRAIN_RUN_NAMESPACE)) return true;
  return /\.xml$/i.test(fileName) && /<(?:[A-Za-z_][\w.-]*:)?TrainRuns[\s>/]/.test(text);
}

export const trainRunFormat: IntakeFormat = {
  name: 'trainrun',
  detect: detectTrainRuns,
  parse: parseTrainRuns,
};

/** All items of a file at once (tests, small files): the runs and the problems. */
export async function readTrainRuns(
  input: AsyncIterable<Buffer>,
  options: ParseOptions,
): Promise<{ runs: ParsedTrainRun[]; problems: Problem[] }> {
  const runs: ParsedTrainRun[] = [];
  const problems: Problem[] = [];
  for await (const item of parseTrainRuns(input, options)) {
    if (item.kind === 'trainrun') runs.push(item.run);
    else if (item.kind === 'problem') problems.push(item.problem);
  }
  return { runs, problems };
}
