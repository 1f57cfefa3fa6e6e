"""prepare_debug end to end: real torch.compile runs on tiny functions and modules."""
import gc
import json
import os
import re
import sys
import types
import warnings
import weakref

import pytest

torch = pytest.importorskip("torch")
if not hasattr(torch, "compile"):  # tests/python/torch itself, seen as a namespace package
    pytest.skip("torch is not installed", allow_module_level=True)

import unveil.dynamo as ud  # noqa: E402
from unveil.dynamo import compat  # noqa: E402
from unveil.dynamo.dump import MANIFEST  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def files(folder):
    return sorted(p for p in os.listdir(folder) if not p.startswith("."))


def check_dump_contents(folder, load):
    """Every .py written compiles; every full_code file imports."""
    names = files(folder)
    assert MANIFEST in names
    for n in names:
        if n.endswith(".py"):
            with open(os.path.join(folder, n)) as f:
                compile(f.read(), n, "exec")
    return {n: load(os.path.join(folder, n)) for n in names if n.startswith("full_code_for_")}


def guard_fn(mod, fn):
    return [getattr(mod, a) for a in sorted(dir(mod)) if a.startswith("__guard_") and a.endswith("_for_" + fn)]


# --- graph breaks: print and a data-dependent if; resume functions -------------------------

def breaks(x):
    y = x.sin()
    print("graph break")
    z = y * 2
    if z.sum() > 0:
        return z + 1
    return z - 1


def test_graph_breaks_and_resume_functions(tmp_path, fresh_dynamo, load, capsys):
    x = torch.randn(5)
    expected = torch.compile(breaks, backend="eager")(x)
    torch._dynamo.reset()
    compiled = torch.compile(breaks, backend="eager")
    with ud.prepare_debug(tmp_path) as folder:
        got = compiled(x)
    assert torch.equal(got, expected)
    err = capsys.readouterr().err
    assert re.search(r"unveil: compile 0/0 breaks \(test_torch_dump.py:\d+\)", err)
    total = sum(len([f for f in fs if not f.startswith(".")]) for _, _, fs in os.walk(folder))
    assert re.search(rf"unveil: wrote {total} files to {re.escape(str(folder))} \(decompiling [\d.]+ s, writing [\d.]+ s, structured trace [\d.]+ s\)", err), err
    names = files(folder)
    assert "__transformed_code_0_0_for_breaks.py" in names
    resumes = [n for n in names if n.startswith("__transformed_code_") and "torch_dynamo_resume_in_breaks_at_" in n]
    assert len(resumes) == 2, names
    assert "__compiled_fn_0_0.dynamo.py" in names
    graph = open(os.path.join(folder, "__compiled_fn_0_0.dynamo.py")).read()
    assert 'f32[5]' in graph and "sin" in graph
    mods = check_dump_contents(folder, load)
    guards = guard_fn(mods["full_code_for_breaks_0.py"], "breaks")
    assert len(guards) == 1 and guards[0]({"x": x}, globals()) is True
    assert guards[0]({"x": torch.randn(6)}, globals()) is False  # size guard
    assert guards[0]({"x": torch.randn(5, dtype=torch.float64)}, globals()) is False
    # the dispatcher: a guard miss falls back to the original function
    full = mods["full_code_for_breaks_0.py"]
    full.bind_globals(globals())
    x6 = torch.randn(6)
    assert torch.equal(full.transformed_breaks(x6), breaks(x6))
    # the resume function's guards hold for the value it was compiled for
    resume_full = [n for n in mods if "resume_in_breaks_at" in n]
    assert len(resume_full) == 2
    manifest = json.load(open(os.path.join(folder, MANIFEST)))
    assert manifest["files"]["__transformed_code_0_0_for_breaks.py"]["compile_id"] == "0/0"
    # again with the same dump dir: stable names, same set of files
    torch._dynamo.reset()
    with ud.prepare_debug(tmp_path, quiet=True) as folder2:
        torch.compile(breaks, backend="eager")(x)
    assert folder2 == folder and files(folder2) == names


def test_transformed_file_is_source_or_disassembly(tmp_path, fresh_dynamo):
    x = torch.randn(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ud.prepare_debug(tmp_path, quiet=True) as folder:
            torch.compile(breaks, backend="eager")(x)
    text = open(os.path.join(folder, "__transformed_code_0_0_for_breaks.py")).read()
    assert text.startswith("# Dynamo's transformed code of breaks")
    if "could not decompile" in text:
        # the soft-failure path: a warning with the reason, the disassembly in the file
        assert "RESUME" in text and "__compiled_fn" in text
        msgs = [str(w.message) for w in caught if issubclass(w.category, ud.UnveilDumpWarning)]
        assert any("could not decompile breaks" in m for m in msgs)
        assert len([m for m in msgs if "breaks (compile 0/0)" in m]) == 1  # warned once
    else:
        assert "def breaks(x):" in text
        assert re.search(r"# .*test_torch_dump.py:\d+", text)  # user lines annotated


def test_soft_failure_when_decompile_raises(tmp_path, fresh_dynamo, monkeypatch):
    import unveil.dynamo.source as source

    def broken(code):
        raise RuntimeError("simulated decompiler failure")

    monkeypatch.setattr(source, "_decompile_body", broken)
    x = torch.randn(4)
    expected = breaks(x)
    with pytest.warns(ud.UnveilDumpWarning, match="simulated decompiler failure"):
        with ud.prepare_debug(tmp_path, quiet=True) as folder:
            got = torch.compile(breaks, backend="eager")(x)
    assert torch.equal(got, expected)
    text = open(os.path.join(folder, "__transformed_code_0_0_for_breaks.py")).read()
    assert "unveil could not decompile this code: RuntimeError: simulated decompiler failure" in text
    assert "LOAD_GLOBAL" in text


# --- fullgraph, dynamic shapes, closures ------------------------------------------------------

def test_fullgraph_and_dynamic_shapes(tmp_path, fresh_dynamo, load):
    def f(x, y):
        return (x * y).cos().sum(0)

    xs = [torch.randn(3, 4), torch.randn(5, 4), torch.randn(7, 4)]
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        cf = torch.compile(f, backend="eager", fullgraph=True, dynamic=True)
        outs = [cf(x, x) for x in xs]
    for x, o in zip(xs, outs):
        assert torch.equal(o, f(x, x))
    names = files(folder)
    assert [n for n in names if n.startswith("__transformed_code_")] == ["__transformed_code_0_0_for_f.py"]
    graph = open(os.path.join(folder, "__compiled_fn_0_0.dynamo.py")).read()
    assert "Sym(s" in graph or "s77" in graph or "s0" in graph  # a symbolic size
    mod = check_dump_contents(folder, load)["full_code_for_f_0.py"]
    (guard,) = guard_fn(mod, "f")
    for x in xs:
        assert guard({"x": x, "y": x}, globals()) is True


def test_resume_function_with_closure(tmp_path, fresh_dynamo, load):
    scale = torch.tensor(3.0)

    def outer(x):
        def inner(y):
            return y * scale
        a = inner(x).relu()
        torch._dynamo.graph_break()
        return inner(a) + x

    x = torch.randn(4)
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        got = torch.compile(outer, backend="eager")(x)
    assert torch.equal(got, outer(x))
    names = files(folder)
    assert any("resume_in_outer_at" in n for n in names), names
    check_dump_contents(folder, load)


def _closure_forward(kind):
    def forward(x):
        y = x.sin() if kind else x
        print("graph break")
        return y.cos() * 2  # the resume function still carries `kind`, unread
    return forward


def test_resume_function_keeps_unread_closure_variables(tmp_path, fresh_dynamo):
    f = _closure_forward("k")
    x = torch.randn(3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with ud.prepare_debug(tmp_path, quiet=True):
            got = torch.compile(f, backend="eager")(x)
    assert torch.equal(got, f(x))
    ours = [str(w.message) for w in caught if "unveil" in str(w.message)]
    assert ours == [], ours  # every frame, the resume function included, runs from our source


# --- backends and training ------------------------------------------------------------------

class Tiny(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(4, 8)
        self.b = torch.nn.Linear(8, 2)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def train_steps(model, backend, steps=2, dump=None):
    torch.manual_seed(0)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    step_model = torch.compile(model, backend=backend)
    losses = []
    data = [torch.randn(6, 4, generator=torch.Generator().manual_seed(i)) for i in range(steps)]
    for x in data:
        opt.zero_grad()
        loss = step_model(x).pow(2).mean()
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    return losses, [p.detach().clone() for p in model.parameters()]


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_training_bitwise_equal(tmp_path, fresh_dynamo, backend, load):
    torch.manual_seed(1)
    base = Tiny()
    m1 = Tiny(); m1.load_state_dict(base.state_dict())
    m2 = Tiny(); m2.load_state_dict(base.state_dict())
    ref_losses, ref_params = train_steps(m1, backend)
    torch._dynamo.reset()
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        losses, params = train_steps(m2, backend)
    for a, b in zip(ref_losses + ref_params, losses + params):
        assert torch.equal(a, b)
    names = files(folder)
    assert "__compiled_fn_0_0.dynamo.py" in names
    if backend == "aot_eager":
        for stage in ("aot_forward", "aot_backward", "aot_joint"):
            assert f"__compiled_fn_0_0.{stage}.py" in names, names
        fw = open(os.path.join(folder, "__compiled_fn_0_0.aot_forward.py")).read()
        assert "f32[6, 4]" in fw
    mods = check_dump_contents(folder, load)
    (guard,) = guard_fn(mods["full_code_for_forward_0.py"], "forward")
    # the guards of the compiled forward hold for the inputs it compiled for
    assert guard({"self": m2, "x": torch.randn(6, 4)}, {"torch": torch}) is True


def test_inference_inductor(tmp_path, fresh_dynamo):
    torch.manual_seed(2)
    model = Tiny().eval()
    x = torch.randn(3, 4)
    with torch.no_grad():
        expected = model(x)
        with ud.prepare_debug(tmp_path, quiet=True) as folder:
            got = torch.compile(model, backend="inductor")(x)
    torch.testing.assert_close(got, expected)
    names = files(folder)
    outs = [n for n in names if n.startswith("__compiled_fn_0_0.inductor_output")]
    assert outs, names
    code = open(os.path.join(folder, outs[0])).read()
    assert "def call(" in code or "def call (" in code
    assert any(n.startswith("__compiled_fn_0_0.post_grad") for n in names), names


# --- exits, misuse --------------------------------------------------------------------------

def test_exit_removes_hooks_and_keeps_nothing_alive(tmp_path, fresh_dynamo):
    import logging

    trace = logging.getLogger(compat.TRACE_LOGGER_NAME)
    hooks_before, handlers_before = compat.hook_count(), list(trace.handlers)
    refs = []

    def f(x):
        return x.cos() + 1

    with pytest.raises(ValueError, match="boom"):
        with ud.prepare_debug(tmp_path, quiet=True):
            torch.compile(f, backend="eager")(torch.randn(2))
            for entry in compat.cache_entries(f.__code__):
                refs.append(weakref.ref(entry.code))
            assert compat.hook_count() == hooks_before + 1
            raise ValueError("boom")
    assert refs
    assert compat.hook_count() == hooks_before
    assert trace.handlers == handlers_before
    torch._dynamo.reset()
    del f
    gc.collect()
    assert all(r() is None for r in refs), "a transformed code object is still alive"
    with ud.prepare_debug(tmp_path, quiet=True):  # usable again after an exception
        pass


def test_nesting_and_bad_dirs(tmp_path, fresh_dynamo):
    with ud.prepare_debug(tmp_path / "a", quiet=True):
        with pytest.raises(ud.UnveilUsageError, match="inside prepare_debug"):
            with ud.prepare_debug(tmp_path / "b"):
                pass
        with pytest.raises(ud.UnveilUsageError, match="inside prepare_debug"):
            with ud.debug(tmp_path / "a"):
                pass
    with pytest.raises(ud.UnveilUsageError, match="no unveil dump"):
        with ud.debug(tmp_path / "empty"):
            pass
    (tmp_path / "a_file").write_text("")
    with pytest.raises(PermissionError, match="cannot create dump directory"):
        with ud.prepare_debug(tmp_path / "a_file" / "dump"):
            pass
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        if os.access(locked, os.W_OK):
            pytest.skip("running as a user that ignores permissions")
        with pytest.raises(PermissionError, match="not writable"):
            with ud.prepare_debug(locked):
                pass
    finally:
        locked.chmod(0o700)


def test_unknown_torch_version_warns(monkeypatch):
    monkeypatch.setattr(compat, "torch_version", lambda: (9, 1))
    monkeypatch.setattr(compat, "_version_checked", False)
    with pytest.warns(RuntimeWarning, match="supports torch 2.5 to 2.14"):
        assert compat.check_version() is False
    for inside in ((2, 5), (2, 13), (2, 14)):
        monkeypatch.setattr(compat, "torch_version", lambda v=inside: v)
        assert compat.check_version() is True


@pytest.mark.parametrize("backend", ["eager", "aot_eager"])
def test_graph_code_runs_from_dumped_files(tmp_path, fresh_dynamo, backend):
    def h(x, w):
        return (x @ w).relu().sum()

    x, w = torch.randn(4, 3), torch.randn(3, 2)
    ch = torch.compile(h, backend=backend)
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        expected = ch(x, w)
    seen = set()

    def profile(frame, event, arg):
        seen.add(frame.f_code.co_filename)

    sys.setprofile(profile)
    try:
        got = ch(x, w)
    finally:
        sys.setprofile(None)
    assert torch.equal(got, expected) and torch.equal(got, h(x, w))
    ran = [s for s in seen if s.startswith(str(folder / "graph_code"))]
    assert ran, sorted(seen)
    assert "def forward" in open(ran[0]).read()
    # after the context, FX compiles GraphModules under its own names again
    assert torch.fx.graph_module._exec_with_source.__module__ == "torch.fx.graph_module"


def test_stale_files_of_an_earlier_process_are_removed(tmp_path, fresh_dynamo):
    (tmp_path / "__transformed_code_9_9_for_gone.py").write_text("x = 1\n")
    (tmp_path / "keep.txt").write_text("not ours")
    (tmp_path / MANIFEST).write_text(json.dumps(
        {"pid": -1, "files": {"__transformed_code_9_9_for_gone.py": {}}}))
    with ud.prepare_debug(tmp_path, quiet=True):
        torch.compile(lambda x: x + 1, backend="eager")(torch.ones(1))
    names = files(tmp_path)
    assert "__transformed_code_9_9_for_gone.py" not in names and "keep.txt" in names
    assert any(n.startswith("__transformed_code_0_0_for_") for n in names)


def test_global_state_guard_is_rendered_and_checked(tmp_path, fresh_dynamo, load):
    def f(x):
        return x * 2

    x = torch.randn(3)
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        torch.compile(f, backend="eager")(x)
    mod = load(folder / "full_code_for_f_0.py")
    text = open(folder / "full_code_for_f_0.py").read()
    assert "__guard_hit and ___check_global_state({" in text
    (guard,) = guard_fn(mod, "f")
    assert guard({"x": x}, globals()) is True
    with torch.no_grad():  # grad mode is part of the global state Dynamo guards
        assert guard({"x": x}, globals()) is False


def test_a_second_live_process_gets_its_own_folder(tmp_path, fresh_dynamo):
    (tmp_path / ".unveil-owner").write_text(str(os.getppid()))  # a live process that is not us
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        torch.compile(lambda x: x - 1, backend="eager")(torch.ones(1))
    assert folder == tmp_path.resolve() / f"process_{os.getpid()}"
    assert (folder / MANIFEST).exists()
    (tmp_path / ".unveil-owner").write_text("999999999")  # a dead owner: taken over
    with ud.prepare_debug(tmp_path, quiet=True) as folder:
        pass
    assert folder == tmp_path.resolve()
    assert not (tmp_path / ".unveil-owner").exists()  # released at exit
