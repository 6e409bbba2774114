"""Runs against a live `bashbox serve` (started by clients/clients_test.go):
BASHBOX_URL, BASHBOX_TOKEN and BASHBOX_OTHER_TOKEN (another profile's)."""

import hashlib
import io
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from bashbox_client import BashboxError, Client, OutputEvent, ResultEvent  # noqa: E402

URL = os.environ["BASHBOX_URL"]
client = Client(URL, os.environ["BASHBOX_TOKEN"])
other = Client(URL, os.environ["BASHBOX_OTHER_TOKEN"])


class RunTest(unittest.TestCase):
    def test_run(self):
        res = client.run('echo "$A"; cat /tmp/in.txt; cat; exit 3', env={"A": "env"}, files={"/tmp/in.txt": "file\n"},
                         stdin="stdin\n", timeout="10s")
        self.assertEqual(res["stdout"], "env\nfile\nstdin\n")
        self.assertEqual(res["exit_code"], 3)
        self.assertIsNone(res["budget"])
        slow = client.run("sleep 5", timeout=0.3)
        self.assertEqual(slow["exit_code"], 124)
        self.assertEqual(slow["budget"]["name"], "timeout")

    def test_input_errors_name_the_field(self):
        with self.assertRaises(BashboxError) as cm:
            client.run("true", timeout="soon")
        self.assertEqual((cm.exception.status, cm.exception.field), (400, "timeout"))
        with self.assertRaises(BashboxError) as cm:
            client.run("true", volume="/nosuch")
        self.assertEqual(cm.exception.field, "volume")
        self.assertTrue(cm.exception.request_id)

    def test_stream(self):
        start = time.monotonic()
        seen, result = [], None
        for ev in client.stream("for i in 1 2 3; do echo line $i; sleep 1; done; printf '\\xff' >&2"):
            if isinstance(ev, OutputEvent):
                seen.append((ev.stream, ev.data, time.monotonic() - start))
            elif isinstance(ev, ResultEvent):
                result = ev.result
        self.assertEqual([(s, d) for s, d, _ in seen],
                         [("stdout", "line 1\n"), ("stdout", "line 2\n"), ("stdout", "line 3\n"), ("stderr", b"\xff")])
        self.assertLess(seen[0][2], 1.0)
        self.assertGreaterEqual(seen[2][2] - seen[0][2], 1.8)
        self.assertEqual(result["exit_code"], 0)

    def test_closing_a_stream_cancels_the_run(self):
        s = client.create_session()
        try:
            events = client.stream("while :; do echo tick; sleep 0.05; done", session=s["id"])
            for ev in events:
                if isinstance(ev, OutputEvent):
                    break
            events.close()
            deadline = time.monotonic() + 5
            while client.get_session(s["id"])["busy"]:
                self.assertLess(time.monotonic(), deadline, "the run went on after the client left")
                time.sleep(0.05)
        finally:
            client.delete_session(s["id"])


class SessionTest(unittest.TestCase):
    def test_sessions(self):
        s = client.create_session()
        self.assertRegex(s["id"], r"^[0-9a-f]{32}$")
        client.run("cd /tmp && export K=v && echo kept > f", session=s["id"])
        self.assertEqual(client.run('echo "$K $(pwd) $(cat f)"', session=s["id"])["stdout"], "v /tmp kept\n")
        mine = [x for x in client.list_sessions() if x["id"] == s["id"]]
        self.assertEqual(len(mine), 1)
        self.assertGreater(mine[0]["size"], 0)
        self.assertEqual(other.list_sessions(), [])
        for call in (lambda: other.get_session(s["id"]), lambda: other.delete_session(s["id"]),
                     lambda: other.read_file(s["id"], "/tmp/f")):
            with self.assertRaises(BashboxError) as cm:
                call()
            self.assertEqual(cm.exception.status, 404)
        client.delete_session(s["id"])
        with self.assertRaises(BashboxError) as cm:
            client.run("true", session=s["id"])
        self.assertEqual(cm.exception.status, 404)


class FilesTest(unittest.TestCase):
    def test_round_trips(self):
        s = client.create_session()["id"]
        try:
            for size in (0, 1000, 50 << 20):
                data = os.urandom(size)
                self.assertEqual(client.write_file(s, "/work/in/blob.bin", data)["size"], size)
                self.assertEqual(hashlib.sha256(client.read_file(s, "/work/in/blob.bin")).digest(),
                                 hashlib.sha256(data).digest())
            # Streamed both ways.
            data = os.urandom(3 << 20)
            client.write_file(s, "/tmp/streamed.bin", io.BytesIO(data))
            out = io.BytesIO()
            self.assertEqual(client.download(s, "/tmp/streamed.bin", out), len(data))
            self.assertEqual(out.getvalue(), data)
            client.write_file(s, "/tmp/tree/a.txt", "A\n")
            client.write_file(s, "/tmp/tree/sub/b.bin", b"\x00\x01\xff")
            tar = client.read_tar(s, "/tmp/tree")
            self.assertEqual(client.write_tar(s, "/tmp/copy", tar)["files"], 2)
            self.assertEqual(client.run("diff -r /tmp/tree /tmp/copy && echo same", session=s)["stdout"], "same\n")
            with self.assertRaises(BashboxError) as cm:
                client.read_file(s, "/tmp/nosuch")
            self.assertEqual((cm.exception.status, cm.exception.field), (404, "path"))
        finally:
            client.delete_session(s)

    def test_volume_files(self):
        data = os.urandom(100_000)
        self.assertEqual(client.write_volume_file("/out/from-py.bin", data)["path"], "/out/from-py.bin")
        self.assertEqual(client.read_volume_file("/out/from-py.bin"), data)
        self.assertEqual(client.read_volume_file("/work/README"), b"a read-only volume\n")
        with self.assertRaises(BashboxError) as cm:
            client.write_volume_file("/work/x", b"x")
        self.assertEqual(cm.exception.status, 409)


if __name__ == "__main__":
    unittest.main()
