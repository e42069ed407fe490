import { TextDecoder } from 'node:util';
import type { Problem, SourceLocation } from '../timeseries/format.js';

/**
 * The EDIFACT tokenizer: bytes in, segments out, as the bytes arrive. It reads the UNA service
 * string advice (optional; default `:+.? '`), honours the release character, and ignores line
 * breaks anywhere (files with one segment per line, all on one line, or wrapped at 80 columns read
 * the same) and blanks between segments. Every segment knows its 1-based number (UNA is advice,
 * not a segment) and the line its tag starts on, for the messages.
 */

export interface Separators {
  component: string;
  element: string;
  /** The decimal mark the advice names; numbers are read with either mark, as syntax 4 allows. */
  decimal: string;
  /** Empty when the advice names none (a blank in its place). */
  release: string;
  terminator: string;
}

export const DEFAULT_SEPARATORS: Separators = {
  component: ':',
  element: '+',
  decimal: '.',
  release: '?',
  terminator: "'",
};

export interface Segment {
  number: number;
  line: number;
  tag: string;
  /** The data elements after the tag, each as its components (`QTY+136:12.5` is [['136', '12.5']]). */
  elements: string[][];
}

export type Token = { kind: 'segment'; segment: Segment } | { kind: 'problem'; problem: Problem };

/** One segment (or one of its values) longer than this is not EDIFACT, and must not fill memory. */
const MAX_SEGMENT_CHARS = 100_000;
const [ORDINARY, BLANK, NEWLINE, RETURN, RELEASE, TERMINATOR, ELEMENT, COMPONENT] = [0, 1, 2, 3, 4, 5, 6, 7];

export const segmentLocation = (s: Segment): SourceLocation => ({ segment: s.number, tag: s.tag, line: s.line });

/** Component c of data element e (both 0-based), or '' when absent. */
export const component = (s: Segment, e: number, c = 0): string => s.elements[e]?.[c] ?? '';

/**
 * The character set: UNOC (ISO 8859-1, Nordic Ediel's usual) and the other ISO 8859 levels are read
 * as Latin-1, everything else (UNOA/UNOB are ASCII, UNOW/UNOY UTF-8) as UTF-8.
 */
function chooseEncoding(head: Buffer): string {
  const m = /UNB.UNO([A-Z])/.exec(head.toString('latin1'));
  return m && 'CDEFGHIJK'.includes(m[1] ?? '') ? 'latin1' : 'utf-8';
}

class Splitter {
  readonly tokens: Token[] = [];
  separators: Separators = DEFAULT_SEPARATORS;
  failed = false;
  private adviceRead = false;
  private head = '';
  private line = 1;
  private count = 0;
  private inSegment = false;
  private released = false;
  private segmentLine = 1;
  private elements: string[][] = [];
  private element: string[] = [];
  private text = '';

  push(chunk: string, final: boolean): void {
    if (this.failed) return;
    let input = chunk;
    if (!this.adviceRead) {
      this.head += chunk;
      const trimmed = this.head.replace(/^[\uFEFF\s]+/, '');
      if (trimmed.length < 9 && !final && (trimmed.length === 0 || 'UNA'.startsWith(trimmed.slice(0, 3)))) return;
      this.adviceRead = true;
      input = this.head;
      this.head = '';
      if (trimmed.startsWith('UNA')) {
        const skipped = input.length - trimmed.length;
        this.line += (input.slice(0, skipped).match(/\n/g) ?? []).length;
        if (!this.readAdvice(trimmed.slice(3, 9))) return;
        input = trimmed.slice(9);
      }
    }
    this.scan(input);
  }

  private readAdvice(a: string): boolean {
    const [component = '', element = '', decimal = '', release = '', , terminator = ''] = a;
    const used = [component, element, release === ' ' ? '' : release, terminator].filter((c) => c !== '');
    const bad =
      a.length < 6 ||
      new Set(used).size !== used.length ||
      used.length < 3 ||
      !['.', ','].includes(decimal) ||
      used.some((c) => /[A-Za-z0-9\s]/.test(c) || c.charCodeAt(0) > 126);
    if (bad) {
      this.fail({ line: this.line }, `The UNA service string advice "UNA${a}" is invalid`);
      return false;
    }
    this.separators = { component, element, decimal, release: release === ' ' ? '' : release, terminator };
    return true;
  }

  private fail(location: SourceLocation, message: string): void {
    this.tokens.push({ kind: 'problem', problem: { location, message } });
    this.failed = true;
  }

  private scan(input: string): void {
    const kinds = this.kinds();
    let { inSegment, released, text, element, elements, line } = this;
    let run = 0;
    for (let i = 0; i < input.length; i++) {
      const code = input.charCodeAt(i);
      const kind = code < 128 ? (kinds[code] as number) : code === 0xfeff ? BLANK : ORDINARY;
      if (kind === ORDINARY || (kind === BLANK && inSegment)) {
        if (!inSegment) {
          inSegment = true;
          this.segmentLine = line;
          elements = [];
          element = [];
          text = '';
          run = i;
        }
        released = false;
        continue;
      }
      if (kind === NEWLINE || kind === RETURN) {
        if (inSegment) text += input.slice(run, i);
        if (kind === NEWLINE) line++;
        run = i + 1;
        continue;
      }
      if (!inSegment) {
        if (kind === BLANK) {
          run = i + 1;
          continue;
        }
        inSegment = true;
        this.segmentLine = line;
        elements = [];
        element = [];
        text = '';
        run = i;
      }
      if (released) {
        released = false;
        continue;
      }
      text += input.slice(run, i);
      run = i + 1;
      if (kind === RELEASE) {
        released = true;
        continue;
      }
      if (text.length > MAX_SEGMENT_CHARS) break;
      element.push(text);
      text = '';
      if (kind === COMPONENT) continue;
      elements.push(element);
      element = [];
      if (kind === TERMINATOR) {
        inSegment = false;
        this.endSegment(elements);
      }
    }
    if (inSegment && text.length <= MAX_SEGMENT_CHARS) text += input.slice(run);
    Object.assign(this, { inSegment, released, text, element, elements, line });
    if (inSegment && text.length + element.length + elements.length > MAX_SEGMENT_CHARS) {
      this.fail(
        { segment: this.count + 1, line: this.segmentLine },
        `Segment ${this.count + 1} is longer than ${MAX_SEGMENT_CHARS} characters (is the segment terminator right?)`,
      );
    }
  }

  /** What each ASCII character is under the current separators. */
  private kinds(): Uint8Array {
    const kinds = new Uint8Array(128);
    for (const c of ' \t\f\v') kinds[c.charCodeAt(0)] = BLANK;
    kinds[10] = NEWLINE;
    kinds[13] = RETURN;
    const { component, element, release, terminator } = this.separators;
    kinds[component.charCodeAt(0)] = COMPONENT;
    kinds[element.charCodeAt(0)] = ELEMENT;
    kinds[terminator.charCodeAt(0)] = TERMINATOR;
    if (release) kinds[release.charCodeAt(0)] = RELEASE;
    return kinds;
  }

  private endSegment(elements: string[][]): void {
    this.count++;
    const [first = [''], ...rest] = elements;
    this.tokens.push({
      kind: 'segment',
      segment: { number: this.count, line: this.segmentLine, tag: (first[0] ?? '').trim(), elements: rest },
    });
  }

  end(): void {
    if (this.failed) return;
    if (!this.adviceRead) this.push('', true);
    if (this.inSegment) {
      const tag = (this.elements[0]?.[0] ?? this.element[0] ?? this.text).trim().slice(0, 3);
      this.fail(
        { segment: this.count + 1, tag, line: this.segmentLine },
        `The file ends inside segment ${this.count + 1}${tag ? ` (${tag})` : ''}: the segment terminator ${this.separators.terminator} is missing`,
      );
    }
  }
}

/**
 * The segments of an EDIFACT file as they arrive, in batches (one per chunk read: an await per
 * segment would cost more than the tokenizing); a broken advice or an unterminated segment is a problem.
 */
export async function* readSegments(input: AsyncIterable<Buffer>): AsyncGenerator<Token[]> {
  const splitter = new Splitter();
  let decoder: TextDecoder | undefined;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const drain = function* (): Generator<Token[]> {
    if (splitter.tokens.length > 0) yield splitter.tokens.splice(0);
  };
  for await (const chunk of input) {
    if (!decoder) {
      // The character set is named in UNB, so wait for the first few hundred bytes before decoding.
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < 512) continue;
      const head = Buffer.concat(pending);
      pending = [];
      decoder = new TextDecoder(chooseEncoding(head));
      splitter.push(decoder.decode(head, { stream: true }), false);
    } else {
      splitter.push(decoder.decode(chunk, { stream: true }), false);
    }
    yield* drain();
    if (splitter.failed) return;
  }
  if (!decoder) {
    const head = Buffer.concat(pending);
    decoder = new TextDecoder(chooseEncoding(head));
    splitter.push(decoder.decode(head, { stream: true }), false);
  }
  splitter.push(decoder.decode(), false);
  splitter.end();
  yield* drain();
}
