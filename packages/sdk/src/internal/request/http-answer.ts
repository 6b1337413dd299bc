/**
 * What the SDK reads of an HTTP answer: a fetch Response has it, and so does the small object
 * xhr-transport.ts makes of an XMLHttpRequest (no Response to build, no header parsing).
 */
export interface HttpAnswer {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}
