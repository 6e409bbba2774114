// Client for the bashbox HTTP API. The types come from the server's
// OpenAPI document (src/schema.d.ts, made by `npm run generate`).
import type { components } from "./schema.js";

export type RunRequest = components["schemas"]["RunRequest"];
export type RunResult = components["schemas"]["RunResult"];
export type Session = components["schemas"]["Session"];
export type FileWritten = components["schemas"]["FileWritten"];
export type ApiErrorBody = components["schemas"]["Error"];
export type OutputEvent = components["schemas"]["OutputEvent"];

/** One event of a streamed run: output as it is written, then the result. */
export type StreamEvent =
  | { type: "stdout" | "stderr"; data: string | Uint8Array }
  | { type: "result"; result: RunResult };

export interface ClientOptions {
  /** The server's base URL, e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** The profile's bearer token. */
  token: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/** A refusal from the server: its HTTP status, message and the field at fault. */
export class BashboxError extends Error {
  readonly status: number;
  readonly field?: string;
  readonly requestId?: string;
  constructor(status: number, body: ApiErrorBody, requestId?: string) {
    super(`${body.error} (HTTP ${status})`);
    this.name = "BashboxError";
    this.status = status;
    this.field = body.field;
    this.requestId = requestId ?? undefined;
  }
}

export type FileBody = string | Uint8Array | Blob | ReadableStream<Uint8Array>;

export class BashboxClient {
  private readonly base: string;
  private readonly token: string;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: ClientOptions) {
    this.base = opts.baseUrl.replace(/\/+$/, "");
    this.token = opts.token;
    this.fetchImpl = opts.fetch ?? globalThis.fetch.bind(globalThis);
  }

  private async request(method: string, path: string, init: { body?: BodyInit; headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, ...init.headers };
    const opts: RequestInit & { duplex?: "half" } = { method, headers, body: init.body, signal: init.signal };
    if (init.body instanceof ReadableStream) opts.duplex = "half"; // streamed uploads
    const resp = await this.fetchImpl(this.base + path, opts);
    if (!resp.ok) {
      let body: ApiErrorBody;
      try {
        body = (await resp.json()) as ApiErrorBody;
      } catch {
        body = { error: resp.statusText || `HTTP ${resp.status}` };
      }
      throw new BashboxError(resp.status, body, resp.headers.get("X-Request-Id") ?? undefined);
    }
    return resp;
  }

  /** Runs a script and returns its result object. */
  async run(req: RunRequest, signal?: AbortSignal): Promise<RunResult> {
    const resp = await this.request("POST", "/v1/run", {
      body: JSON.stringify(req),
      headers: { "Content-Type": "application/json" },
      signal,
    });
    return (await resp.json()) as RunResult;
  }

  /**
   * Runs a script and yields its output as the script writes it, then the
   * result. Aborting the signal (or leaving the loop early) cancels the run.
   */
  async *stream(req: RunRequest, signal?: AbortSignal): AsyncGenerator<StreamEvent> {
    const ctrl = new AbortController();
    const onAbort = () => ctrl.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort);
    try {
      const resp = await this.request("POST", "/v1/run", {
        body: JSON.stringify(req),
        headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
        signal: ctrl.signal,
      });
      if (!resp.body) throw new Error("bashbox: the response has no body");
      for await (const ev of parseEventStream(resp.body)) {
        switch (ev.event) {
          case "stdout":
          case "stderr": {
            const out = JSON.parse(ev.data) as OutputEvent;
            yield { type: ev.event, data: out.encoding === "base64" ? fromBase64(out.data) : out.data };
            break;
          }
          case "result":
            yield { type: "result", result: JSON.parse(ev.data) as RunResult };
            return;
          case "error":
            throw new BashboxError(200, JSON.parse(ev.data) as ApiErrorBody, resp.headers.get("X-Request-Id") ?? undefined);
        }
      }
      throw new Error("bashbox: the stream ended without a result");
    } finally {
      signal?.removeEventListener("abort", onAbort);
      ctrl.abort(); // a loop left early ends the run
    }
  }

  async createSession(): Promise<Session> {
    return (await (await this.request("POST", "/v1/sessions")).json()) as Session;
  }

  async listSessions(): Promise<Session[]> {
    const list = (await (await this.request("GET", "/v1/sessions")).json()) as components["schemas"]["SessionList"];
    return list.sessions;
  }

  async getSession(id: string): Promise<Session> {
    return (await (await this.request("GET", `/v1/sessions/${encodeURIComponent(id)}`)).json()) as Session;
  }

  async deleteSession(id: string): Promise<void> {
    await this.request("DELETE", `/v1/sessions/${encodeURIComponent(id)}`);
  }

  /** Writes a file (absolute guest path) into a session; parents are created. */
  async writeFile(session: string, path: string, data: FileBody): Promise<FileWritten> {
    const resp = await this.request("PUT", filesPath(session, path), {
      body: data as BodyInit,
      headers: { "Content-Type": "application/octet-stream" },
    });
    return (await resp.json()) as FileWritten;
  }

  /** Reads a file (absolute guest path) of a session. */
  async readFile(session: string, path: string): Promise<Uint8Array> {
    const resp = await this.request("GET", filesPath(session, path));
    return new Uint8Array(await resp.arrayBuffer());
  }

  /** Reads a file as a stream, for large files. */
  async readFileStream(session: string, path: string): Promise<ReadableStream<Uint8Array>> {
    const resp = await this.request("GET", filesPath(session, path));
    if (!resp.body) throw new Error("bashbox: the response has no body");
    return resp.body;
  }

  /** Unpacks a tar archive into a directory of a session. */
  async writeTar(session: string, dir: string, tar: FileBody): Promise<FileWritten> {
    const resp = await this.request("PUT", filesPath(session, dir), {
      body: tar as BodyInit,
      headers: { "Content-Type": "application/x-tar" },
    });
    return (await resp.json()) as FileWritten;
  }

  /** Reads a directory of a session as a tar archive. */
  async readTar(session: string, dir: string): Promise<Uint8Array> {
    return this.readFile(session, dir);
  }

  /** Writes a file into a read-write volume, without a session. */
  async writeVolumeFile(path: string, data: FileBody): Promise<FileWritten> {
    const resp = await this.request("PUT", volumePath(path), {
      body: data as BodyInit,
      headers: { "Content-Type": "application/octet-stream" },
    });
    return (await resp.json()) as FileWritten;
  }

  /** Reads a file of the volumes as a new call sees them (a directory as tar). */
  async readVolumeFile(path: string): Promise<Uint8Array> {
    const resp = await this.request("GET", volumePath(path));
    return new Uint8Array(await resp.arrayBuffer());
  }
}

function volumePath(path: string): string {
  return `/v1/files/${path.split("/").filter((s) => s !== "").map(encodeURIComponent).join("/")}`;
}

function filesPath(session: string, path: string): string {
  const segments = path.split("/").filter((s) => s !== "").map(encodeURIComponent);
  return `/v1/sessions/${encodeURIComponent(session)}/files/${segments.join("/")}`;
}

function fromBase64(s: string): Uint8Array {
  return new Uint8Array(Buffer.from(s, "base64"));
}

/** Parses a text/event-stream body into its events. */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: string }> {
  const decoder = new TextDecoder();
  let buf = "";
  let event = "message";
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl).replace(/\r$/, "");
        buf = buf.slice(nl + 1);
        if (line === "") {
          if (data.length) yield { event, data: data.join("\n") };
          event = "message";
          data = [];
        } else if (line.startsWith(":")) {
          // a comment (keepalive)
        } else {
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") event = value;
          else if (field === "data") data.push(value);
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}
