"""debugpy (VS Code's debugger) stops at a breakpoint in a dumped file: a small
DAP client over localhost drives it."""
import json
import os
import socket
import subprocess
import sys
import textwrap
import time

import pytest

torch = pytest.importorskip("torch")
if not hasattr(torch, "compile"):  # tests/python/torch itself, seen as a namespace package
    pytest.skip("torch is not installed", allow_module_level=True)
pytest.importorskip("debugpy")

SCRIPT = textwrap.dedent('''
    import sys, types, debugpy
    from unveil.dynamo.dump import DumpDir
    from unveil.dynamo.hooks import DumpHook
    def plain(x, y):
        a = x + y
        b = a * 2
        return b - 1
    hook = DumpHook(DumpDir(sys.argv[1]), quiet=True)
    fn = types.FunctionType(hook(plain.__code__, plain.__code__), globals())
    debugpy.listen(("127.0.0.1", int(sys.argv[2])))
    print("DUMPED", hook.frames[0].file, flush=True)
    debugpy.wait_for_client()
    print("RESULT", fn(20, 1), flush=True)
''')


class Dap:
    def __init__(self, port: int) -> None:
        end = time.time() + 60
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
                break
            except OSError:
                if time.time() > end:
                    raise
                time.sleep(0.2)
        self.sock.settimeout(60)
        self.buf = b""
        self.seq = 0
        self.events = []

    def send(self, command: str, **arguments) -> int:
        self.seq += 1
        body = json.dumps({"seq": self.seq, "type": "request", "command": command,
                           "arguments": arguments}).encode()
        self.sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def _message(self) -> dict:
        while b"\r\n\r\n" not in self.buf:
            self.buf += self._recv()
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        while len(rest) < length:
            rest += self._recv()
        self.buf = rest[length:]
        return json.loads(rest[:length])

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise AssertionError("debugpy closed the connection")
        return chunk

    def response(self, seq: int) -> dict:
        while True:
            msg = self._message()
            if msg["type"] == "event":
                self.events.append(msg)
            elif msg["type"] == "response" and msg["request_seq"] == seq:
                assert msg["success"], msg
                return msg

    def event(self, name: str) -> dict:
        for i, ev in enumerate(self.events):
            if ev["event"] == name:
                return self.events.pop(i)
        while True:
            msg = self._message()
            if msg["type"] == "event" and msg["event"] == name:
                return msg
            if msg["type"] == "event":
                self.events.append(msg)


def _dap_session(script, dump, find):
    """Run ``script`` (prints ``DUMPED`` then waits for a client), attach over DAP, set a
    breakpoint at ``find(dump) -> (path, line)``, and return (top frame, locals, output)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", script, str(dump), str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert line.startswith("DUMPED"), line + proc.stderr.read()
        path, target = find(dump, line.split()[1:])
        dap = Dap(port)
        dap.response(dap.send("initialize", clientID="unveil-test", adapterID="debugpy",
                              linesStartAt1=True, columnsStartAt1=True, pathFormat="path"))
        attach = dap.send("attach", justMyCode=False)
        dap.event("initialized")
        bps = dap.response(dap.send("setBreakpoints", source={"path": path},
                                    breakpoints=[{"line": target}]))
        assert bps["body"]["breakpoints"][0]["verified"], bps
        dap.response(dap.send("configurationDone"))
        dap.response(attach)
        stopped = dap.event("stopped")
        assert stopped["body"]["reason"] == "breakpoint"
        thread = stopped["body"]["threadId"]
        top = dap.response(dap.send("stackTrace", threadId=thread))["body"]["stackFrames"][0]
        assert os.path.realpath(top["source"]["path"]) == os.path.realpath(path)
        assert top["line"] == target
        scopes = dap.response(dap.send("scopes", frameId=top["id"]))["body"]["scopes"]
        ref = scopes[0]["variablesReference"]
        variables = dap.response(dap.send("variables", variablesReference=ref))["body"]["variables"]
        values = {v["name"]: v["value"] for v in variables}
        dap.response(dap.send("continue", threadId=thread))
        dap.response(dap.send("disconnect", terminateDebuggee=False))
        dap.sock.close()
        out, err = proc.communicate(timeout=60)
        return top, values, out + err
    finally:
        if proc.poll() is None:
            proc.kill()


def test_debugpy_stops_in_dumped_file(tmp_path):
    def find(dump, rest):
        path = str(dump / rest[0])
        return path, next(i for i, t in enumerate(open(path).read().splitlines(), 1)
                          if t.strip().startswith("b = a * 2"))

    top, values, out = _dap_session(SCRIPT, tmp_path, find)
    assert top["name"] == "plain"
    assert values.get("a") == "21", values
    assert "RESULT 41" in out


# appended to the compile_f_script fixture's head
GRAPH_TAIL = textwrap.dedent('''
    import debugpy
    debugpy.listen(("127.0.0.1", int(sys.argv[2])))
    print("DUMPED", flush=True)
    debugpy.wait_for_client()
    with ud.debug(pause=False):
        print("RESULT", cf(x).tolist(), flush=True)
''')


def test_debugpy_stops_in_dumped_graph_code(tmp_path, compile_f_script):
    """Real torch.compile (eager backend): stepping into Dynamo's graph code."""
    def find(dump, rest):
        path = str(dump / "graph_code" / "__compiled_fn_0_0.forward.py")
        return path, next(i for i, t in enumerate(open(path).read().splitlines(), 1) if "+ 1" in t)

    top, values, out = _dap_session(compile_f_script + GRAPH_TAIL, tmp_path, find)
    assert top["name"] == "forward"
    assert "tensor([0., 1., 2.])" in values.get("l_x_", ""), values
    assert "RESULT [2.0, 4.0, 6.0]" in out
