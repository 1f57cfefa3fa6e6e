"""Live code objects, including constants that marshal cannot hold."""
import dis
import functools
import sys

import unveil
from unveil import _core


def sample(x, y=3):
    def inner(z):
        return x + z

    return inner(y) if x else None


class Model:
    def forward(self, t):
        return t * 2

    def __call__(self, t):
        return self.forward(t)


def test_decode_walks_nested_code_objects():
    decoded = unveil.decode(sample)
    assert [c["name"] for c in decoded] == ["sample", "inner"]
    ops = [ins[3] for ins in decoded[0]["instructions"]]
    assert ops == [i.opname for i in dis.get_instructions(sample)]


def test_callables_are_unwrapped():
    model = Model()
    names = {
        unveil.decode(model.forward)[0]["name"],
        unveil.decode(functools.partial(sample, 1))[0]["name"],
        unveil.decode(functools.wraps(sample)(lambda *a: sample(*a)))[0]["name"],
        unveil.decode(model)[0]["name"],
    }
    assert names == {"forward", "sample", "<lambda>", "__call__"}


def test_unmarshallable_constants_become_named_placeholders():
    from unveil._live import marshal_code

    inner = next(c for c in sample.__code__.co_consts if hasattr(c, "co_code"))
    # Dynamo's code holds classes and functions in co_consts, also inside tuples and nested code.
    patched_inner = inner.replace(co_consts=inner.co_consts + (len,))
    consts = tuple(patched_inner if c is inner else c for c in sample.__code__.co_consts)
    patched = sample.__code__.replace(co_consts=consts + (Model, (1, Model)))
    m = marshal_code(patched)
    assert m.placeholder_names == ["len", "test_live.Model", "test_live.Model"]
    assert m.placeholder_objects == [len, Model, Model]
    decoded = unveil.decode(patched)
    assert [c["name"] for c in decoded] == ["sample", "inner"]
    assert "Disassembly of <code object inner" in unveil.disassemble(patched)


def test_placeholder_values_resolve_by_index():
    def g():
        return 1

    body = g.__code__
    const_op = dis.opmap["LOAD_CONST"]
    ret_op = dis.opmap["RETURN_VALUE"]
    code = body.co_code
    # Rewrite g to `return <const 0>` with const 0 = a class.
    prologue = bytes(code[:2]) if sys.version_info >= (3, 11) else b""
    new = prologue + bytes([const_op, 0, ret_op, 0])
    patched = body.replace(co_code=new, co_consts=(Model,), co_linetable=b"", co_exceptiontable=b"") \
        if sys.version_info >= (3, 11) else body.replace(co_code=new, co_consts=(Model,))
    decoded = unveil.decode(patched)
    loads = [ins for ins in decoded[0]["instructions"] if ins[3] == "LOAD_CONST"]
    assert len(loads) == 1
    value = loads[0][5]
    assert isinstance(value, _core.PlaceholderRef)
    assert value.name.endswith("Model") and value.index == 0


def _substituted(code, fn=None):
    """unveil._live's path: placeholders substituted in Python, then marshalled."""
    from unveil._live import is_function_code, marshal_code, marshal_function

    if is_function_code(code):
        m = marshal_function(code, fn)
        return _core.decompile_function_marshal(m.data, m.minor, m.placeholder_prefix, m.placeholder_names)
    m = marshal_code(code)
    return _core.decompile_marshal(m.data, m.minor, m.placeholder_prefix, m.placeholder_names)


def _returns(*values):
    """A module-level code object that returns a tuple of `values` (each a constant)."""
    template = compile("x = (1, 'A', ('B', 2), 'C', 'D')", "<placeholders>", "exec")
    swap = dict(zip("ABCD", values))
    return template.replace(co_consts=tuple(_swap(c, swap) for c in template.co_consts))


def _swap(const, swap):
    if type(const) is tuple:
        return tuple(_swap(c, swap) for c in const)
    return swap.get(const, const) if isinstance(const, str) else const


def test_live_placeholders_match_the_substitution_path(monkeypatch):
    import unveil._live as live

    def annotated(x: int, *, y: Model = None) -> list:
        return [x, y]

    cases = [
        (_returns(Model, len, [Model], {"k": Model}), None),  # a class, a builtin, refused list and dict whole
        (_returns(Model, frozenset({1}), 10**30, "s"), None),  # beside values only marshal writes
        (annotated.__code__, annotated),  # classes in annotations and keyword-only defaults
    ]
    for code, fn in cases:
        expected = _substituted(code, fn)
        assert unveil.decompile(fn or code) == expected
    # The first and last never reach Python's substitution: the core made their placeholders.
    def no_substitution(*args):
        raise AssertionError("placeholders were substituted in Python")

    monkeypatch.setattr(live, "_Substituter", no_substitution)
    monkeypatch.setattr(unveil, "marshal_function", no_substitution)
    monkeypatch.setattr(unveil, "marshal_code", no_substitution)
    assert "test_live.Model" in unveil.decompile(cases[0][0])
    assert unveil.decompile(annotated).startswith("def annotated(x: int, *, y: test_live.Model = None) -> list:")


def _shapes():
    """Code objects of different shapes: cells, frees, long names, nested code, handlers."""

    def big(a, b, *args, a_rather_long_keyword_only_name=1, **kw):
        counter_with_a_long_name = 0

        def bump(step):
            nonlocal counter_with_a_long_name
            counter_with_a_long_name += step + a_rather_long_keyword_only_name
            return counter_with_a_long_name

        try:
            return [bump(x) for x in args], {k: v for k, v in kw.items()}, a
        except (ValueError, KeyError) as error:
            raise RuntimeError("a constant string longer than sixteen bytes") from error

    def tiny():
        pass

    module = compile("import os\nX = os.sep\nclass C:\n    def m(self): return X\n", "<shapes>", "exec")
    nested = [c for c in big.__code__.co_consts if hasattr(c, "co_code")]
    return [big.__code__, tiny.__code__, module, *nested, tiny.__code__, big.__code__]


def test_live_reads_each_code_object_afresh():
    # decompile_live reuses the code objects of earlier calls (their buffers):
    # every call must read as the marshal path does, whatever came before it.
    for code in _shapes() * 2:
        assert _core.decompile_live(code, None, False) == _substituted(code)


def _one_local(name, closure):
    """A function with the one local `name`, held in a cell for a nested function when `closure`."""
    body = f"    def g():\n        return {name}\n    return g\n" if closure else f"    return {name}\n"
    namespace = {}
    exec(compile(f"def f():\n    {name} = 1\n{body}", "<names>", "exec"), namespace)
    return namespace["f"].__code__


def test_live_rewrites_a_name_that_differs_in_one_byte():
    # A recycled code object's name tables are written over: a name of the
    # same length that differs in one byte, at any position, must not be taken
    # for the one read before it. Plain locals, cells and frees are read apart.
    for length in (1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 23, 24, 25, 32, 33, 40, 41):
        same = "a" * length
        for position in range(length):
            other = same[:position] + "b" + same[position + 1:]
            for closure in (False, True):
                for name in (same, other, same):
                    code = _one_local(name, closure)
                    out = _core.decompile_live(code, None, False)
                    assert out == _substituted(code) and f"{name} = 1" in out


def test_live_source_keeps_text_that_is_not_ascii():
    # The result is copied as ASCII when every byte of it is: one byte of a
    # non-ASCII character anywhere (in any of the check's word and vector
    # steps, and its tail) must send it through UTF-8 decoding.
    for length in range(0, 150, 7):
        for char in ("é", "€", "\U0001f600"):
            for at in {0, length // 2, length}:
                text = "a" * at + char + "a" * (length - at)
                code = compile(f"x = {text!r}\n", "<text>", "exec")
                out = _core.decompile_live(code, None, False)
                assert out == _substituted(code) and f"x = {text!r}" in out
    ascii_text = "b" * 200
    out = _core.decompile_live(compile(f"x = {ascii_text!r}\n", "<text>", "exec"), None, False)
    assert out.isascii() and ascii_text in out


def test_live_reads_shared_constants_as_marshal_does():
    # None, bools, Ellipsis and ints from -5 to 256 come from one shared set
    # of objects: each must still read as its own value (the range's ends and
    # the ints just outside it included).
    # (And every other kind of constant the reader builds, each in its place.)
    values = (None, True, False, ..., -6, -5, -1, 0, 1, 2, 100, 255, 256, 257, 2**40, -2**40,
              1.5, 2j, b"by", "s" * 40, ("t", (1.0, b"")))
    for value in values:
        code = _returns(value, value, 0, 1)
        assert _core.decompile_live(code, None, False) == _substituted(code)
    template = compile("x = (" + ", ".join(map(repr, values)) + ")", "<shared>", "exec")
    out = _core.decompile_live(template, None, False)
    assert out == _substituted(template) and "(None, True, False, Ellipsis, -6, -5, -1, 0, 1, 2, 100, 255, 256, 257" in out


def _locals_shape(count, cells, frees, seed):
    """A function with `count` locals (the first `cells` of them captured by a
    nested function, which also has `frees` free variables), and a nested
    function that declares the last of them global."""
    names = [f"v{(i * 7 + seed) % (count + 3)}_{i}" for i in range(count)]
    outer = [f"o{i}" for i in range(frees)]
    captured = names[:cells] + outer
    body = "".join(f"    {n} = {i}\n" for i, n in enumerate(names))
    inner = "    def g():\n        return (" + "".join(f"{n}, " for n in captured) + ")\n" if captured else ""
    # A nested function's `global` of a local here shows only while the name is one of f's own.
    inner += f"    def h():\n        global {names[-1]}\n        return {names[-1]}\n"
    source = "def outer():\n" + "".join(f"    {n} = 0\n" for n in outer) + \
        "    def f(" + ", ".join(names[:2]) + "):\n" + \
        "".join("    " + line + "\n" for line in (body + inner + "    return 1\n").splitlines())
    namespace = {}
    exec(compile(source, "<locals>", "exec"), namespace)
    return next(c for c in namespace["outer"].__code__.co_consts if hasattr(c, "co_code"))


def test_live_local_names_follow_each_code_object():
    # The locals of a recycled code object are written over (and, up to 3.10,
    # the merged view of locals, cells and frees with them, where its start is
    # the locals): growing, shrinking and reordered locals, with and without
    # cells and frees beside them, must each read as the marshal path does.
    shapes = [(count, cells, frees, seed)
              for count in (2, 5, 9, 3, 12, 2)
              for cells in (0, 1, 2)
              for frees in (0, 2)
              for seed in (0, 1)]
    for shape in shapes + shapes[::-1]:
        code = _locals_shape(*shape)
        assert _core.decompile_live(code, None, False) == _substituted(code), shape


def test_live_names_that_are_not_ascii():
    # The names are views of the code object's strs: of the UTF-8 a str that
    # is not ASCII keeps, as for one that is; a name with a lone surrogate
    # has none, and takes the marshal path. Each as the marshal path reads it,
    # with names read before and after it in between.
    for name in ("é", "naïve_name_longer_than_sixteen", "名前", "ascii_after"):
        for closure in (False, True):
            code = _one_local(name, closure)
            out = _core.decompile_live(code, None, False)
            assert out == _substituted(code) and name in out
    code = _one_local("x", False)
    for names in (("\ud800",), ("a\udfffb",), ("é",)):
        for field in ("co_varnames", "co_names"):
            odd = code.replace(**{field: names + getattr(code, field)[1:]})
            # (A surrogate in the source fails its decoding, the same way on both paths.)
            assert _outcome(_core.decompile_live, odd, None, False) == _outcome(_substituted, odd)


def _outcome(f, *args):
    try:
        return f(*args)
    except Exception as e:  # noqa: BLE001 - the failure is the outcome compared
        return type(e), str(e)


def test_live_names_keep_no_reference_to_the_code_object():
    # The views borrow the strs for the call only: the code object and its
    # names are as referenced after the call as before it.
    code = _one_local("a_local_name_nobody_else_holds_" + "x" * 20, True)
    names = code.co_varnames + code.co_cellvars
    before = [sys.getrefcount(code)] + [sys.getrefcount(n) for n in names]
    for _ in range(3):
        _core.decompile_live(code, None, False)
    assert [sys.getrefcount(code)] + [sys.getrefcount(n) for n in names] == before
