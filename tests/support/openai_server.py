"""A small real OpenAI-compatible HTTP server on loopback whose chat replies are scripted by the test."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "test-model"


@dataclass(frozen=True)
class Call:
    """A tool call to reply with; ``arguments`` is sent as given (it may be malformed); ``id=None`` omits it."""

    name: str
    arguments: str
    id: str | None = "auto"


@dataclass(frozen=True)
class Reply:
    """One scripted answer to ``POST /v1/chat/completions``, streamed or not as the request asks."""

    content: str = ""
    tool_calls: Sequence[Call] = ()
    reasoning: str | None = None
    reasoning_field: str = "reasoning_content"  # older vLLM; vLLM now sends "reasoning" (its PR 27752)
    usage: tuple[int, int, int | None] = (12, 5, None)  # prompt, completion, cached (None: not reported)
    finish_reason: str | None = None  # default: "tool_calls" when there are calls, else "stop"
    piece: int = 4  # characters per streamed content, reasoning or arguments delta
    status: int = 200
    error: str = "scripted failure"  # the message of an error reply (status >= 400)
    raw: bytes | None = None  # send these bytes as the whole body instead (malformed replies)
    delay: float = 0.0  # seconds to wait before answering
    cut_after: int | None = None  # streamed: drop the connection after this many events, mid-body


Script = Sequence[Reply] | Callable[[dict[str, Any]], Reply]


class OpenAIServer:
    """What a test sees of the server: its URL and every request it received, in order."""

    def __init__(self, script: Script, *, tokenize: bool) -> None:
        self.base_url = ""
        self.requests: list[dict[str, Any]] = []  # chat request bodies
        self.headers: list[dict[str, str]] = []  # their HTTP headers
        self.tokenize_requests: list[dict[str, Any]] = []
        self.tokenize = tokenize  # False: no /tokenize route, like a server that is not vLLM
        self._script, self._replies = script, iter(script) if not callable(script) else None
        self._lock, self._numbers = threading.Lock(), itertools.count(1)

    def next_reply(self, request: dict[str, Any], headers: dict[str, str]) -> tuple[Reply | None, int]:
        with self._lock:
            self.requests.append(request)
            self.headers.append(headers)
            if self._replies is None:
                return self._script(request), next(self._numbers)  # type: ignore[operator]
            return next(self._replies, None), next(self._numbers)


def _pieces(text: str, size: int) -> list[str]:
    return [text[start : start + size] for start in range(0, len(text), size)]


def _calls(reply: Reply, number: int) -> list[dict[str, Any]]:
    calls = []
    for index, call in enumerate(reply.tool_calls):
        wire: dict[str, Any] = {"type": "function", "function": {"name": call.name, "arguments": call.arguments}}
        if call.id is not None:
            wire["id"] = f"chatcmpl-tool-{number}-{index}" if call.id == "auto" else call.id
        calls.append(wire)
    return calls


def _usage(reply: Reply) -> dict[str, Any]:
    prompt, completion, cached = reply.usage
    details = None if cached is None else {"cached_tokens": cached}
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
        "prompt_tokens_details": details,
    }


def _finish(reply: Reply) -> str:
    return reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")


def completion_body(reply: Reply, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.content or None}
    if reply.tool_calls:
        message["tool_calls"] = _calls(reply, number)
    if reply.reasoning is not None:
        message[reply.reasoning_field] = reply.reasoning
    choice = {"index": 0, "message": message, "finish_reason": _finish(reply)}
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "model": MODEL,
        "choices": [choice],
        "usage": _usage(reply),
    }


def stream_events(reply: Reply, number: int, include_usage: bool) -> list[dict[str, Any]]:
    """The chunks vLLM would send: role, reasoning, content, tool-call fragments, finish, then usage."""
    deltas: list[dict[str, Any]] = [{"role": "assistant", "content": ""}]
    deltas += [{reply.reasoning_field: piece} for piece in _pieces(reply.reasoning or "", reply.piece)]
    deltas += [{"content": piece} for piece in _pieces(reply.content, reply.piece)]
    for index, call in enumerate(_calls(reply, number)):
        opening = {key: value for key, value in call.items() if key != "function"}
        deltas.append({"tool_calls": [{"index": index, **opening, "function": {"name": call["function"]["name"]}}]})
        for piece in _pieces(call["function"]["arguments"], reply.piece):
            deltas.append({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
    chunks: list[dict[str, Any]] = [{"index": 0, "delta": delta, "finish_reason": None} for delta in deltas]
    chunks.append({"index": 0, "delta": {}, "finish_reason": _finish(reply)})
    events: list[dict[str, Any]] = [
        {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "model": MODEL, "choices": [choice]}
        for choice in chunks
    ]
    if include_usage:
        events.append(
            {"id": f"chatcmpl-{number}", "object": "chat.completion.chunk", "choices": [], "usage": _usage(reply)}
        )
    return events


class _Httpd(ThreadingHTTPServer):
    daemon_threads = True
    fake: OpenAIServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # streamed bodies are chunked, as uvicorn sends them
    server: _Httpd

    def do_GET(self) -> None:
        if self.path == "/v1/models":
            self._json(200, {"object": "list", "data": [{"id": MODEL, "object": "model"}]})
        else:
            self._json(404, {"detail": "Not Found"})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"null")
        fake = self.server.fake
        if self.path == "/tokenize" and fake.tokenize:
            fake.tokenize_requests.append(body)
            words = sum(len(str(m.get("content") or "").split()) for m in body.get("messages", []))
            return self._json(200, {"count": words, "max_model_len": 32768, "tokens": list(range(words))})
        if self.path != "/v1/chat/completions":
            return self._json(404, {"detail": "Not Found"})
        reply, number = fake.next_reply(body, dict(self.headers.items()))
        if reply is None:
            return self._json(418, {"error": {"message": f"no scripted reply left for request {number}"}})
        time.sleep(reply.delay)
        return self._answer(reply, body, number)

    def _answer(self, reply: Reply, request: dict[str, Any], number: int) -> None:
        if reply.status >= 400:
            error = {"message": reply.error, "type": "ScriptedError", "code": reply.status}
            return self._bytes(reply.status, reply.raw or json.dumps({"error": error}).encode())
        if not request.get("stream"):
            return self._bytes(200, reply.raw or json.dumps(completion_body(reply, number)).encode())
        if reply.raw is not None:
            return self._stream([reply.raw], reply.cut_after)
        include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
        events = [f"data: {json.dumps(event)}\n\n".encode() for event in stream_events(reply, number, include_usage)]
        return self._stream([*events, b"data: [DONE]\n\n"], reply.cut_after)

    def _json(self, status: int, body: Any) -> None:
        self._bytes(status, json.dumps(body).encode())

    def _bytes(self, status: int, payload: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self._write(payload)

    def _stream(self, events: list[bytes], cut_after: int | None) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for event in events[:cut_after]:
            self._write(b"%x\r\n%s\r\n" % (len(event), event))
        if cut_after is None:
            self._write(b"0\r\n\r\n")
        else:
            self.close_connection = True  # the chunked body is left incomplete: a broken stream

    def _write(self, payload: bytes) -> None:
        try:
            self.wfile.write(payload)
            self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
            self.close_connection = True

    def log_message(self, *args: Any) -> None:
        pass


@contextmanager
def serve_openai(script: Script, *, tokenize: bool = True) -> Iterator[OpenAIServer]:
    """Serve ``script`` on a free loopback port: replies used in order, or a function of the request body."""
    fake = OpenAIServer(script, tokenize=tokenize)
    httpd = _Httpd(("127.0.0.1", 0), _Handler)
    httpd.fake, fake.base_url = fake, f"http://127.0.0.1:{httpd.server_address[1]}"
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        httpd.shutdown()
        httpd.server_close()
