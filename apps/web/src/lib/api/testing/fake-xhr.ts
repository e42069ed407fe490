/** An answer a fake upload gives: the status and a body that is sent as JSON. */
export interface FakeXhrAnswer {
  status?: number;
  statusText?: string;
  body?: unknown;
}

/**
 * A stand-in for XMLHttpRequest with the part the API client's upload uses. The test drives it:
 * `progress()` fires xhr.upload progress events, `finishUpload()` the upload's load event,
 * `respond()` the answer, `fail()` a network error. abort() behaves like the browser's.
 */
export class FakeXhr extends EventTarget {
  readonly upload = new EventTarget();
  method = '';
  url = '';
  readonly headers: Record<string, string> = {};
  body: Document | XMLHttpRequestBodyInit | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  private settled = false;

  constructor(private readonly onSend: (xhr: FakeXhr) => void = () => undefined) {
    super();
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  send(body: Document | XMLHttpRequestBodyInit | null = null): void {
    this.body = body;
    this.onSend(this);
  }

  abort(): void {
    if (this.settled) return;
    this.settled = true;
    this.aborted = true;
    this.dispatchEvent(new ProgressEvent('abort'));
  }

  progress(loaded: number, total: number): void {
    this.upload.dispatchEvent(new ProgressEvent('progress', { loaded, total, lengthComputable: true }));
  }

  finishUpload(total: number): void {
    this.progress(total, total);
    this.upload.dispatchEvent(new ProgressEvent('load', { loaded: total, total, lengthComputable: true }));
  }

  respond({ status = 200, statusText, body }: FakeXhrAnswer = {}): void {
    if (this.settled) return;
    this.settled = true;
    this.status = status;
    this.statusText = statusText ?? (status < 300 ? 'OK' : 'Bad Request');
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.dispatchEvent(new ProgressEvent('load'));
  }

  fail(): void {
    if (this.settled) return;
    this.settled = true;
    this.dispatchEvent(new ProgressEvent('error'));
  }
}

/**
 * A factory of fake XMLHttpRequests that records each one. With `answer`, every sent request reports
 * its whole body as uploaded and then gets that answer (a value, or a function of the request) in a
 * later task, the way a quick server would; without, the test drives each request itself.
 */
export function createFakeXhr(answer?: (xhr: FakeXhr) => FakeXhrAnswer) {
  const requests: FakeXhr[] = [];
  const onSend = answer
    ? (xhr: FakeXhr) => {
        setTimeout(() => {
          xhr.finishUpload(100);
          xhr.respond(answer(xhr));
        }, 0);
      }
    : undefined;
  const create = (): XMLHttpRequest => {
    const xhr = new FakeXhr(onSend);
    requests.push(xhr);
    return xhr as unknown as XMLHttpRequest;
  };
  /** A constructor to stub the global XMLHttpRequest with (vi.stubGlobal). */
  const Constructor = function FakeXMLHttpRequest() {
    return create();
  } as unknown as typeof XMLHttpRequest;
  return { requests, create, Constructor, latest: () => requests[requests.length - 1]! };
}
