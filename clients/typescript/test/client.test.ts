// Runs against a live `bashbox serve` (started by clients/clients_test.go):
// BASHBOX_URL, BASHBOX_TOKEN and BASHBOX_OTHER_TOKEN (another profile's).
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes, createHash } from "node:crypto";
import { BashboxClient, BashboxError } from "../src/index.js";

const baseUrl = process.env.BASHBOX_URL;
const token = process.env.BASHBOX_TOKEN;
const otherToken = process.env.BASHBOX_OTHER_TOKEN;
if (!baseUrl || !token || !otherToken) throw new Error("set BASHBOX_URL, BASHBOX_TOKEN and BASHBOX_OTHER_TOKEN");
const client = new BashboxClient({ baseUrl, token });
const other = new BashboxClient({ baseUrl, token: otherToken });

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

test("run returns the result object", async () => {
  const res = await client.run({ script: 'echo "$A"; cat /tmp/in.txt; cat; exit 3', env: { A: "env" }, files: { "/tmp/in.txt": "file\n" }, stdin: "stdin\n", timeout: "10s" });
  assert.equal(res.stdout, "env\nfile\nstdin\n");
  assert.equal(res.exit_code, 3);
  assert.equal(res.budget, null);
  const slow = await client.run({ script: "sleep 5", timeout: 0.3 });
  assert.equal(slow.exit_code, 124);
  assert.equal(slow.budget?.name, "timeout");
});

test("input errors name the field", async () => {
  await assert.rejects(client.run({ script: "true", timeout: "soon" }), (e: unknown) => e instanceof BashboxError && e.status === 400 && e.field === "timeout");
  await assert.rejects(client.run({ script: "" }), (e: unknown) => e instanceof BashboxError && e.field === "script");
});

test("stream yields lines as the script writes them", async () => {
  const start = Date.now();
  const seen: { type: string; at: number; data?: string }[] = [];
  let exit = -1;
  for await (const ev of client.stream({ script: "for i in 1 2 3; do echo line $i; sleep 1; done; echo done >&2" })) {
    if (ev.type === "result") exit = ev.result.exit_code;
    else seen.push({ type: ev.type, at: Date.now() - start, data: String(ev.data) });
  }
  assert.equal(exit, 0);
  assert.deepEqual(seen.map((e) => `${e.type}:${e.data}`), ["stdout:line 1\n", "stdout:line 2\n", "stdout:line 3\n", "stderr:done\n"]);
  assert.ok(seen[0].at < 1000, `first line after ${seen[0].at} ms`);
  assert.ok(seen[2].at - seen[0].at >= 1800, "lines arrived together");
});

test("leaving a stream early cancels the run", async () => {
  const s = await client.createSession();
  try {
    for await (const ev of client.stream({ script: "while :; do echo tick; sleep 0.05; done", session: s.id })) {
      if (ev.type === "stdout") break;
    }
    const deadline = Date.now() + 5000;
    while ((await client.getSession(s.id)).busy) {
      assert.ok(Date.now() < deadline, "the run went on after the client left");
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await client.deleteSession(s.id);
  }
});

test("sessions: create, use, list, scope, delete", async () => {
  const s = await client.createSession();
  assert.match(s.id, /^[0-9a-f]{32}$/);
  const r1 = await client.run({ script: "cd /tmp && export K=v && echo kept > f", session: s.id });
  assert.equal(r1.session, s.id);
  const r2 = await client.run({ script: 'echo "$K $(pwd) $(cat f)"', session: s.id });
  assert.equal(r2.stdout, "v /tmp kept\n");
  const list = await client.listSessions();
  const mine = list.find((x) => x.id === s.id);
  assert.ok(mine && mine.size > 0 && mine.workdir === "/tmp");
  assert.equal((await other.listSessions()).length, 0);
  await assert.rejects(other.getSession(s.id), (e: unknown) => e instanceof BashboxError && e.status === 404);
  await assert.rejects(other.deleteSession(s.id), (e: unknown) => e instanceof BashboxError && e.status === 404);
  await client.deleteSession(s.id);
  await assert.rejects(client.getSession(s.id), (e: unknown) => e instanceof BashboxError && e.status === 404);
});

test("files round-trip byte for byte, tar both ways", async () => {
  const s = await client.createSession();
  try {
    // 50 MiB round trips are in the Go and Python tests; this one keeps CI's load down.
    for (const size of [0, 1000, 16 << 20]) {
      const data = new Uint8Array(randomBytes(size));
      const w = await client.writeFile(s.id, "/work/in/blob.bin", data);
      assert.equal(w.size, size);
      const back = await client.readFile(s.id, "/work/in/blob.bin");
      assert.equal(back.length, size);
      assert.equal(sha(back), sha(data));
    }
    await client.writeFile(s.id, "/tmp/tree/a.txt", "A\n");
    await client.writeFile(s.id, "/tmp/tree/sub/b.bin", new Uint8Array([0, 1, 2, 255]));
    const tar = await client.readTar(s.id, "/tmp/tree");
    const w = await client.writeTar(s.id, "/tmp/copy", tar);
    assert.equal(w.files, 2);
    const res = await client.run({ script: "diff -r /tmp/tree /tmp/copy && echo same", session: s.id });
    assert.equal(res.stdout, "same\n");
    await assert.rejects(client.readFile(s.id, "/tmp/nosuch"), (e: unknown) => e instanceof BashboxError && e.status === 404 && e.field === "path");
  } finally {
    await client.deleteSession(s.id);
  }
});

test("volume files without a session: rw volumes only for writes", async () => {
  const data = new Uint8Array(randomBytes(100_000));
  const w = await client.writeVolumeFile("/out/from-ts.bin", data);
  assert.equal(w.path, "/out/from-ts.bin");
  assert.equal(sha(await client.readVolumeFile("/out/from-ts.bin")), sha(data));
  assert.equal(new TextDecoder().decode(await client.readVolumeFile("/work/README")), "a read-only volume\n");
  await assert.rejects(client.writeVolumeFile("/work/x", "x"), (e: unknown) => e instanceof BashboxError && e.status === 409);
});
