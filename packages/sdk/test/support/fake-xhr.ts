/**
 * A browser XMLHttpRequest for Node tests. It reports upload progress at half of the body,
 * then sends the request through fetch (so msw answers it) and reports the result.
 */
export class FakeXhr {
  static instances: FakeXhr[] = [];
  readonly upload: {
    onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;
  } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  statusText = "";
  responseText = "";
  #method = "GET";
  #url = "";
  #headers: Record<string, string> = {};
  #responseHeaders = new Headers();
  #controller = new AbortController();

  constructor() {
    FakeXhr.instances.push(this);
  }

  open(method: string, url: string): void {
    this.#method = method;
    this.#url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.#headers[name] = value;
  }

  getResponseHeader(name: string): string | null {
    return this.#responseHeaders.get(name);
  }

  abort(): void {
    this.#controller.abort();
  }

  send(body: BodyInit): void {
    void this.#run(body);
  }

  async #run(body: BodyInit): Promise<void> {
    const total = await new Response(body).arrayBuffer().then((buffer) => buffer.byteLength);
    this.upload.onprogress?.({ lengthComputable: true, loaded: Math.floor(total / 2), total });
    try {
      const response = await fetch(this.#url, {
        method: this.#method,
        headers: this.#headers,
        body,
        signal: this.#controller.signal,
      });
      this.upload.onprogress?.({ lengthComputable: true, loaded: total, total });
      this.status = response.status;
      this.statusText = response.statusText;
      this.responseText = await response.text();
      this.#responseHeaders = response.headers;
      this.onload?.();
    } catch {
      if (this.#controller.signal.aborted) this.onabort?.();
      else this.onerror?.();
    }
  }
}
