"""debug(), pdb driven through stdin, install()/uninstall(), several processes."""
import logging
import os
import re
import select
import signal
import subprocess
import sys
import textwrap
import time
import types

import pytest

torch = pytest.importorskip("torch")
if not hasattr(torch, "compile"):  # tests/python/torch itself, seen as a namespace package
    pytest.skip("torch is not installed", allow_module_level=True)

import unveil.dynamo as ud  # noqa: E402
from unveil.dynamo import compat  # noqa: E402
from unveil.dynamo.dump import DumpDir  # noqa: E402
from unveil.dynamo.hooks import DumpHook  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def plain(x, y):
    a = x + y
    b = a * 2
    return b - 1


def test_hook_returns_code_compiled_from_the_dumped_file(tmp_path):
    """The hook Dynamo calls, fed a code object the decompiler handles."""
    hook = DumpHook(DumpDir(tmp_path), quiet=True)
    out = hook(plain.__code__, plain.__code__)
    assert out is not None, hook.warn.seen
    (rec,) = hook.frames
    path = str(tmp_path / rec.file)
    assert out.co_filename == path
    assert out.co_varnames[:2] == ("x", "y") and out.co_name == "plain"
    fn = types.FunctionType(out, globals())
    assert fn(3, 4) == plain(3, 4)
    text = open(path).read()
    assert re.search(r"a = x \+ y  # .*test_torch_debug.py:\d+  a = x \+ y", text), text
    assert "# Dynamo runs the code compiled from this file" in text
    # a constant marshal cannot hold (a dtype) is bound back into the recompiled code
    tricky = (lambda x: (x, 5)).__code__
    tricky = tricky.replace(co_consts=tuple(torch.float32 if c == 5 else c for c in tricky.co_consts))
    out2 = hook(tricky, tricky)
    assert out2 is not None, hook.warn.seen
    assert types.FunctionType(out2, globals())(7) == (7, torch.float32)
    assert "torch.float32" in open(str(tmp_path / hook.frames[-1].file)).read()


def test_hook_keeps_dynamo_code_when_checks_fail(tmp_path):
    def other(a, b):
        return a

    hook = DumpHook(DumpDir(tmp_path), quiet=True)
    with pytest.warns(ud.UnveilDumpWarning, match="argument names differ"):
        assert hook(plain.__code__, other.__code__.replace(co_name="plain")) is None


class _Reader:
    """Reads a child's output until a marker appears after what was already consumed."""

    def __init__(self, proc):
        self.proc, self.buf, self.pos = proc, b"", 0

    def until(self, marker, timeout=60.0):
        end = time.time() + timeout
        fd = self.proc.stdout.fileno()
        while marker not in self.buf[self.pos:]:
            left = end - time.time()
            if left <= 0:
                self.proc.send_signal(signal.SIGABRT)  # PYTHONFAULTHANDLER prints where it hangs
                more = self.proc.communicate(timeout=30)[0]
                raise AssertionError(f"timed out waiting for {marker!r}; got:\n"
                                     f"{(self.buf + more).decode(errors='replace')}")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 4096)
                if not chunk:
                    raise AssertionError(f"process ended before {marker!r}:\n{self.buf.decode(errors='replace')}")
                self.buf += chunk
        self.pos = self.buf.index(marker, self.pos) + len(marker)
        return self.buf.decode(errors="replace")


def _pdb_session(script, dump, find_line):
    """Run ``script`` (which stops at breakpoint()), set a breakpoint in a dumped
    file chosen by ``find_line(dump) -> (path, line, local)``, continue, print a local."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1")
    env.pop("PYTHONBREAKPOINT", None)
    proc = subprocess.Popen([sys.executable, "-c", script, str(dump)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    try:
        reader = _Reader(proc)
        reader.until(b"(Pdb) ")
        path, line, local = find_line(dump)
        proc.stdin.write(f"b {path}:{line}\nc\n".encode())
        proc.stdin.flush()
        reader.until(f"{os.path.basename(path)}({line})".encode())
        reader.until(b"(Pdb) ")
        proc.stdin.write(f"p {local}\nc\n".encode())
        proc.stdin.flush()
        rest, _ = proc.communicate(timeout=120)
        return reader.buf.decode(errors="replace") + rest.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()


DIRECT = textwrap.dedent('''
    import sys, types
    from unveil.dynamo.dump import DumpDir
    from unveil.dynamo.hooks import DumpHook
    def plain(x, y):
        a = x + y
        b = a * 2
        return b - 1
    hook = DumpHook(DumpDir(sys.argv[1]), quiet=True)
    fn = types.FunctionType(hook(plain.__code__, plain.__code__), globals())
    breakpoint()
    print("RESULT", fn(20, 1))
''')


def test_pdb_stops_in_dumped_file(tmp_path):
    def find(dump):
        (name,) = [n for n in os.listdir(dump) if n.startswith("__transformed_code_")]
        path = os.path.join(dump, name)
        lines = open(path).read().splitlines()
        line = next(i for i, t in enumerate(lines, 1) if t.strip().startswith("b = a * 2"))
        return path, line, "a"

    out = _pdb_session(DIRECT, tmp_path, find)
    assert re.search(r"__transformed_code_\w+\.py\(\d+\)plain\(\)", out), out
    assert "\n21\n" in out.replace("(Pdb) ", "\n"), out
    assert "RESULT 41" in out


# appended to the compile_f_script fixture's head
DEBUG_TAIL = textwrap.dedent('''
    with ud.debug(pause=False):
        breakpoint()
        print("RESULT", cf(x).tolist())
''')


STAND_IN = textwrap.dedent('''
    import unveil.dynamo.source as source
    def stand_in(code):  # what a correct decompile of this torch 2.13 code reads like
        (graph,) = [n for n in code.co_names if n.startswith("__compiled_fn")]
        u = "__import_torch_dot__dynamo_dot_utils"
        return (f"{u}.record_pregraph_bytecode_exit({u}.record_pregraph_bytecode_enter())\\n"
                f"graph_out_0 = {graph}(x)\\nreturn graph_out_0[0]\\n"), {}
    source._decompile_body = stand_in
''')


@pytest.mark.parametrize("decompiler", ["unveil", "stand_in"])
def test_pdb_stops_in_dumped_dynamo_code(tmp_path, decompiler, compile_f_script):
    """pdb through stdin stops in __transformed_code_*.py of a real torch.compile.
    Both the real decompiler and a stand-in (unveil's side alone) must rebuild
    Dynamo 2.13's code so that the breakpoint is in code that runs."""
    def find(dump):
        path = os.path.join(dump, "__transformed_code_0_0_for_f.py")
        text = open(path).read()
        if "could not decompile" in text or "NOT what runs" in text:
            reason = next(ln for ln in text.splitlines() if "could not decompile" in ln or "NOT what runs" in ln)
            pytest.fail(f"the decompiler did not rebuild this Dynamo code: {reason}")
        lines = text.splitlines()
        line = next(i for i, t in enumerate(lines, 1) if "__compiled_fn" in t and "=" in t)
        return path, line, "x"

    script = compile_f_script + DEBUG_TAIL
    if decompiler == "stand_in":
        script = script.replace("import unveil.dynamo as ud\n", "import unveil.dynamo as ud\n" + STAND_IN)
    out = _pdb_session(script, tmp_path, find)
    assert "__transformed_code_0_0_for_f.py(" in out, out
    assert "tensor([0., 1., 2.])" in out
    assert "RESULT [2.0, 4.0, 6.0]" in out


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_pdb_steps_into_dumped_graph_code(tmp_path, backend, compile_f_script):
    def find(dump):
        def order(name):  # __compiled_fn_0_0.forward[.<n>].py, in the order written
            parts = name.split(".")
            return int(parts[2]) if len(parts) == 4 else 0

        names = sorted(os.listdir(os.path.join(dump, "graph_code")), key=order)
        # eager runs Dynamo's graph (the first written); aot_eager the last AOT graph
        path = os.path.join(dump, "graph_code", names[0] if backend == "eager" else names[-1])
        lines = open(path).read().splitlines()
        line, local = next((i, m.group(1)) for i, t in enumerate(lines, 1)
                           for m in [re.search(r"(?:\+ 1|add\.Tensor\(\w+, 1\));\s+(\w+) = None", t)] if m)
        return path, line, local

    script = (compile_f_script + DEBUG_TAIL).replace('backend="eager"', f'backend="{backend}"')
    out = _pdb_session(script, tmp_path, find)
    assert "forward()" in out, out
    assert "tensor([0., 1., 2.])" in out, out
    assert "RESULT [2.0, 4.0, 6.0]" in out


def test_debug_runs_cached_code_without_compiling(tmp_path, fresh_dynamo):
    def f(x):
        return x.sin() * 3

    cf = torch.compile(f, backend="eager")
    x = torch.randn(4)
    with ud.prepare_debug(tmp_path, quiet=True):
        expected = cf(x)
    frames_before = torch._dynamo.utils.counters["frames"]["total"]
    with ud.debug(tmp_path, pause=False) as folder:
        assert torch.equal(cf(x), expected)
        other = torch.ones(9, 2)  # would need a recompile: runs eagerly instead
        assert torch.equal(cf(other), f(other))
    assert folder == tmp_path.resolve()
    assert torch._dynamo.utils.counters["frames"]["total"] == frames_before  # nothing compiled


LATER = textwrap.dedent('''
    import sys, torch
    import unveil.dynamo as ud
    def g(x):
        return (x * 2).cos()
    x = torch.arange(4.0)
    cg = torch.compile(g, backend="aot_eager")
    if sys.argv[2] == "prepare":
        with ud.prepare_debug(sys.argv[1], quiet=True):
            print("RESULT", cg(x).tolist())
    else:
        ran = set()
        sys.setprofile(lambda frame, event, arg: ran.add(frame.f_code.co_filename))
        with ud.debug(sys.argv[1], pause=False):
            print("RESULT", cg(x).tolist())
        sys.setprofile(None)
        print("GRAPH_CODE_FROM_DUMP", any("/graph_code/__compiled_fn_" in f for f in ran))
''')


def test_debug_in_a_later_process(tmp_path):
    runs = [subprocess.run([sys.executable, "-c", LATER, str(tmp_path), mode], capture_output=True,
                           text=True, timeout=300) for mode in ("prepare", "debug")]
    for r in runs:
        assert r.returncode == 0, r.stderr
    results = [ln for r in runs for ln in r.stdout.splitlines() if ln.startswith("RESULT")]
    assert len(results) == 2 and results[0] == results[1]
    assert "GRAPH_CODE_FROM_DUMP True" in runs[1].stdout
    assert "__transformed_code_0_0_for_g.py" in os.listdir(tmp_path)


def test_install_adds_decompiled_source_to_bytecode_log(fresh_dynamo):
    records = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    logger = compat.bytecode_logger()
    handler = Keep(level=logging.DEBUG)
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    before = compat.hook_count()
    try:
        ud.install()
        ud.install()  # idempotent
        assert compat.hook_count() == before + 1

        def h(x):
            return x.exp() - 1

        torch.compile(h, backend="eager")(torch.randn(2))
    finally:
        ud.uninstall()
        logger.removeHandler(handler)
        logger.setLevel(old_level)
    assert compat.hook_count() == before
    ours = [r for r in records if "by unveil" in r]
    assert len(ours) == 1
    assert ("DECOMPILED SOURCE for h" in ours[0] and "def h(x):" in ours[0]) or \
        ("DISASSEMBLY (decompile failed) for h" in ours[0] and "LOAD_GLOBAL" in ours[0])


RANK = textwrap.dedent('''
    import datetime, os, sys, time, torch
    import torch.distributed as dist
    import unveil.dynamo as ud
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    # Rank 0 hosts the store, so it must leave last: a host that exits while another
    # rank still uses the store or its gloo pairs aborts ("terminate called without an
    # active exception"). Hence a store of our own and a leaving handshake on it.
    store = dist.TCPStore(os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"]), world,
                          is_master=rank == 0, timeout=datetime.timedelta(seconds=120))
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world)
    def f(x):
        return x * (dist.get_rank() + 1)
    with ud.prepare_debug(sys.argv[1], quiet=True) as folder:
        y = torch.compile(f, backend="eager")(torch.ones(2))
    t = y.clone(); dist.all_reduce(t)
    print("FOLDER", folder, t.tolist(), flush=True)
    dist.barrier()  # no rank tears down while another still runs a collective
    dist.destroy_process_group()
    store.add("left", 1)
    end = time.monotonic() + 120
    while rank == 0 and store.add("left", 0) < world and time.monotonic() < end:
        time.sleep(0.05)
''')


def test_two_gloo_ranks_get_their_own_folders(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    procs = []
    try:
        for rank in (0, 1):
            env = dict(os.environ, RANK=str(rank), WORLD_SIZE="2", MASTER_ADDR="127.0.0.1",
                       MASTER_PORT=str(port), PYTHONFAULTHANDLER="1")
            procs.append(subprocess.Popen([sys.executable, "-c", RANK, str(tmp_path)], env=env,
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        outs = [p.communicate(timeout=300) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
    for rank, (p, (o, e)) in enumerate(zip(procs, outs)):
        assert p.returncode == 0, f"rank {rank}:\n{e}"
        assert f"FOLDER {tmp_path.resolve() / f'rank_{rank}'} [3.0, 3.0]" in o, o
    for rank in (0, 1):
        folder = tmp_path / f"rank_{rank}"
        names = os.listdir(folder)
        assert "__transformed_code_0_0_for_f.py" in names and "unveil_dump.json" in names


def test_install_with_torch_logs_env():
    script = textwrap.dedent('''
        import torch, unveil.dynamo as ud
        ud.install()
        def k(x):
            return x.tanh() * 2
        torch.compile(k, backend="eager")(torch.ones(2))
        ud.uninstall()
    ''')
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, TORCH_LOGS="+bytecode"))
    assert r.returncode == 0, r.stderr
    assert "MODIFIED BYTECODE" in r.stderr  # torch's own log
    assert re.search(r"(DECOMPILED SOURCE|DISASSEMBLY \(decompile failed\)) for k .*by unveil", r.stderr)


def test_hook_recompiles_code_with_free_and_cell_variables(tmp_path):
    scale = 3

    def closure(x):
        def inner(y):
            return y * x
        return inner(x) + scale

    hook = DumpHook(DumpDir(tmp_path), quiet=True)
    out = hook(closure.__code__, closure.__code__)
    assert out is not None, hook.warn.seen
    assert out.co_freevars == closure.__code__.co_freevars == ("scale",)
    assert out.co_cellvars == closure.__code__.co_cellvars == ("x",)
    fn = types.FunctionType(out, globals(), "closure", None, closure.__closure__)
    assert fn(4) == closure(4) == 19


def test_dynamo_runs_code_compiled_from_the_dumped_file(tmp_path, fresh_dynamo, monkeypatch):
    """Real torch.compile; the decompiler is replaced by a stand-in that returns the
    source a correct decompile of this Dynamo 2.13 code reads like, so this checks
    unveil's half: Dynamo accepts the recompiled code, caches it, runs it under
    debug(), and the frame that runs is the dumped file's."""
    import unveil.dynamo.source as source

    def stand_in(code):
        (graph,) = [n for n in code.co_names if n.startswith("__compiled_fn")]
        utils = "__import_torch_dot__dynamo_dot_utils"
        if utils not in code.co_names:
            pytest.skip("this torch emits other transformed code than the stand-in knows")
        return (f"{utils}.record_pregraph_bytecode_exit({utils}.record_pregraph_bytecode_enter())\n"
                f"graph_out_0 = {graph}(x)\n"
                "return graph_out_0[0]\n"), {}

    monkeypatch.setattr(source, "_decompile_body", stand_in)

    def f(x):
        y = x + 1
        return y * 2

    cf = torch.compile(f, backend="eager", fullgraph=True)
    x = torch.arange(3.0)
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        first = cf(x)
    path = str(folder / "__transformed_code_0_0_for_f.py")
    text = open(path).read()
    assert "# Dynamo runs the code compiled from this file" in text, text
    (entry,) = compat.cache_entries(f.__code__)
    assert entry.code.co_filename == path  # what Dynamo cached is the recompiled code
    seen = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == path:
            seen.append((frame.f_code.co_name, dict(frame.f_locals)))

    with ud.debug(pause=False):
        sys.setprofile(profile)
        try:
            again = cf(x)
        finally:
            sys.setprofile(None)
    assert torch.equal(first, f(x)) and torch.equal(again, first)
    assert seen and seen[0][0] == "f" and torch.equal(seen[0][1]["x"], x)
