"""Client for the bashbox HTTP API, using only the standard library.

    from bashbox_client import Client
    c = Client("http://127.0.0.1:8080", token="...")
    res = c.run("grep -rn TODO . | head", timeout="10s")
    for ev in c.stream("for i in 1 2 3; do echo $i; sleep 1; done"):
        print(ev)

Field names and the result object follow the server's OpenAPI document
(GET /v1/openapi.json).
"""

from __future__ import annotations

import base64
import json
import ssl
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, BinaryIO, Dict, Iterator, Optional, Union

__all__ = ["Client", "BashboxError", "OutputEvent", "ResultEvent"]

_CHUNK = 1 << 20


class BashboxError(Exception):
    """A refusal from the server: HTTP status, message, and the field at fault."""

    def __init__(self, status: int, message: str, field: Optional[str] = None, request_id: Optional[str] = None):
        super().__init__(f"{message} (HTTP {status})")
        self.status = status
        self.message = message
        self.field = field
        self.request_id = request_id


@dataclass
class OutputEvent:
    """Output as the script wrote it: stream is "stdout" or "stderr"; data is
    str, or bytes when the chunk was not valid UTF-8."""

    stream: str
    data: Union[str, bytes]


@dataclass
class ResultEvent:
    """The last event of a stream: the result object."""

    result: Dict[str, Any]


class Client:
    """A profile's view of one bashbox server."""

    def __init__(self, base_url: str, token: str, timeout: float = 300.0, ssl_context: Optional[ssl.SSLContext] = None):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.ssl_context = ssl_context

    # -- plumbing -------------------------------------------------------

    def _open(self, method: str, path: str, body: Any = None, headers: Optional[Dict[str, str]] = None):
        h = {"Authorization": f"Bearer {self.token}"}
        h.update(headers or {})
        req = urllib.request.Request(self.base_url + path, data=body, method=method, headers=h)
        try:
            return urllib.request.urlopen(req, timeout=self.timeout, context=self.ssl_context)
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                doc = json.loads(raw)
                msg, field = doc.get("error", ""), doc.get("field")
            except ValueError:
                msg, field = raw.decode("utf-8", "replace") or e.reason, None
            raise BashboxError(e.code, msg, field, e.headers.get("X-Request-Id")) from None

    def _json(self, method: str, path: str, payload: Any = None) -> Any:
        body = None if payload is None else json.dumps(payload).encode()
        headers = {"Content-Type": "application/json"} if body is not None else {}
        with self._open(method, path, body, headers) as resp:
            raw = resp.read()
        return json.loads(raw) if raw else None

    @staticmethod
    def _request(script: str, **fields: Any) -> Dict[str, Any]:
        req = {"script": script}
        for k, v in fields.items():
            if v is not None:
                req[k] = v
        return req

    # -- runs -----------------------------------------------------------

    def run(self, script: str, *, stdin: Optional[str] = None, env: Optional[Dict[str, str]] = None,
            timeout: Union[str, float, None] = None, volume: Optional[str] = None, session: Optional[str] = None,
            files: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
        """Runs a script; returns the result object (stdout, stderr, exit_code, ...)."""
        req = self._request(script, stdin=stdin, env=env, timeout=timeout, volume=volume, session=session, files=files)
        return self._json("POST", "/v1/run", req)

    def stream(self, script: str, *, stdin: Optional[str] = None, env: Optional[Dict[str, str]] = None,
               timeout: Union[str, float, None] = None, volume: Optional[str] = None, session: Optional[str] = None,
               files: Optional[Dict[str, str]] = None) -> Iterator[Union[OutputEvent, ResultEvent]]:
        """Runs a script and yields OutputEvents as it writes, then one
        ResultEvent. Closing the iterator early closes the connection, which
        cancels the run."""
        req = self._request(script, stdin=stdin, env=env, timeout=timeout, volume=volume, session=session, files=files)
        resp = self._open("POST", "/v1/run", json.dumps(req).encode(),
                          {"Content-Type": "application/json", "Accept": "text/event-stream"})
        try:
            for event, data in _events(resp):
                if event in ("stdout", "stderr"):
                    out = json.loads(data)
                    chunk = out["data"]
                    if out.get("encoding") == "base64":
                        chunk = base64.b64decode(chunk)
                    yield OutputEvent(event, chunk)
                elif event == "result":
                    yield ResultEvent(json.loads(data))
                    return
                elif event == "error":
                    doc = json.loads(data)
                    raise BashboxError(200, doc.get("error", ""), doc.get("field"), resp.headers.get("X-Request-Id"))
            raise BashboxError(200, "the stream ended without a result")
        finally:
            resp.close()

    # -- sessions -------------------------------------------------------

    def create_session(self) -> Dict[str, Any]:
        return self._json("POST", "/v1/sessions")

    def list_sessions(self) -> list:
        return self._json("GET", "/v1/sessions")["sessions"]

    def get_session(self, session_id: str) -> Dict[str, Any]:
        return self._json("GET", "/v1/sessions/" + urllib.parse.quote(session_id, safe=""))

    def delete_session(self, session_id: str) -> None:
        with self._open("DELETE", "/v1/sessions/" + urllib.parse.quote(session_id, safe="")):
            pass

    # -- files ----------------------------------------------------------

    @staticmethod
    def _files_path(session_id: str, path: str) -> str:
        parts = [urllib.parse.quote(p, safe="") for p in path.split("/") if p]
        return "/v1/sessions/%s/files/%s" % (urllib.parse.quote(session_id, safe=""), "/".join(parts))

    def write_file(self, session_id: str, path: str, data: Union[bytes, str, BinaryIO]) -> Dict[str, Any]:
        """Writes a file (absolute guest path) into a session; parents are
        created. A file object is streamed."""
        return self._put(session_id, path, data, "application/octet-stream")

    def read_file(self, session_id: str, path: str) -> bytes:
        with self._open("GET", self._files_path(session_id, path)) as resp:
            return resp.read()

    def download(self, session_id: str, path: str, out: BinaryIO) -> int:
        """Streams a file (or a directory, as tar) into out; returns the bytes copied."""
        n = 0
        with self._open("GET", self._files_path(session_id, path)) as resp:
            while True:
                chunk = resp.read(_CHUNK)
                if not chunk:
                    return n
                out.write(chunk)
                n += len(chunk)

    def write_tar(self, session_id: str, directory: str, tar: Union[bytes, BinaryIO]) -> Dict[str, Any]:
        """Unpacks a tar archive into a directory of a session."""
        return self._put(session_id, directory, tar, "application/x-tar")

    def read_tar(self, session_id: str, directory: str) -> bytes:
        """A directory of a session as a tar archive."""
        return self.read_file(session_id, directory)

    def write_volume_file(self, path: str, data: Union[bytes, str, BinaryIO]) -> Dict[str, Any]:
        """Writes a file into a read-write volume, without a session."""
        return self._put_url(self._volume_path(path), data, "application/octet-stream")

    def read_volume_file(self, path: str) -> bytes:
        """Reads a file of the volumes as a new call sees them (a directory as tar)."""
        with self._open("GET", self._volume_path(path)) as resp:
            return resp.read()

    @staticmethod
    def _volume_path(path: str) -> str:
        return "/v1/files/" + "/".join(urllib.parse.quote(p, safe="") for p in path.split("/") if p)

    def _put(self, session_id: str, path: str, data: Any, content_type: str) -> Dict[str, Any]:
        return self._put_url(self._files_path(session_id, path), data, content_type)

    def _put_url(self, url_path: str, data: Any, content_type: str) -> Dict[str, Any]:
        if isinstance(data, str):
            data = data.encode()
        headers = {"Content-Type": content_type}
        if not isinstance(data, (bytes, bytearray)):
            data = _chunks(data)
            headers["Transfer-Encoding"] = "chunked"
        with self._open("PUT", url_path, data, headers) as resp:
            return json.loads(resp.read())


def _chunks(f: BinaryIO) -> Iterator[bytes]:
    while True:
        b = f.read(_CHUNK)
        if not b:
            return
        yield b


def _events(resp) -> Iterator[tuple]:
    """Parses a text/event-stream response into (event, data) pairs."""
    event, data = "message", []
    while True:
        raw = resp.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
        elif line.startswith(":"):
            continue  # keepalive
        else:
            field, _, value = line.partition(":")
            if value.startswith(" "):
                value = value[1:]
            if field == "event":
                event = value
            elif field == "data":
                data.append(value)
