"""The syntax suite (tools/syntax_suite.py) under pytest.

* The runner and the cases are proved without the decompiler: in identity
  mode (the source as the "decompiled" text) every case must pass, and
  deliberately wrong outputs must be caught at the right stage.
* Every case available for the running Python is a test of
  `unveil.decompile`; it must pass unless tests/python/syntax/known_failures.txt
  lists it for this version, and a listed case that passes fails the test so
  that the list cannot rot. These tests skip while unveil has no `decompile`.
"""
import importlib.util
import os
import sys
import types

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load_suite() -> types.ModuleType:
    path = os.path.join(ROOT, "tools", "syntax_suite.py")
    spec = importlib.util.spec_from_file_location("syntax_suite", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("syntax_suite", module)
    spec.loader.exec_module(module)
    return module


suite = _load_suite()


def _has_decompile() -> bool:
    try:
        import unveil
    except ImportError:
        return False
    return hasattr(unveil, "decompile")


HAS_DECOMPILE = _has_decompile()
ALL_CASES = suite.load_cases()
AVAILABLE = [c for c in ALL_CASES if c.available()]
REQUIRED_GROUPS = {
    "conditionals", "boolops", "loops", "exceptions", "with", "async", "generators",
    "comprehensions", "functions", "classes", "scopes", "match", "fstrings", "walrus",
    "unpacking", "assign", "statements", "imports", "docstrings", "typeparams", "realistic",
}


# ------------------------------------------------- the cases themselves


def test_there_are_enough_cases_in_every_group():
    assert len(ALL_CASES) >= 300
    groups = {c.group for c in ALL_CASES}
    assert REQUIRED_GROUPS <= groups, REQUIRED_GROUPS - groups
    ids = [c.id for c in ALL_CASES]
    assert len(ids) == len(set(ids))


def test_every_case_declares_a_version_and_defines_main():
    for case in ALL_CASES:
        assert case.source.startswith("# min: 3."), case.id
        assert (3, 8) <= case.min_version <= (3, 14), case.id
        assert "def main(" in case.source, case.id


def test_cases_need_the_version_they_declare():
    # A case whose syntax is newer than this Python must not compile here
    # (only checked for the version just below its minimum, where the header
    # would otherwise be wrong; parenthesised with-items compile unofficially
    # on 3.9).
    here = sys.version_info[:2]
    for case in ALL_CASES:
        if case.min_version == (here[0], here[1] + 1) and case.id != "with/with_parenthesized":
            with pytest.raises(SyntaxError):
                compile(case.source, case.path, "exec")


# --------------------------------------------- the runner, in identity mode


def test_identity_mode_passes_every_case(capsys):
    status = suite.main(["--identity"])
    out = capsys.readouterr().out
    total = len(AVAILABLE)
    assert status == 0, out
    assert f"| {suite.VERSION} | identity | {total} | {total} (100.0%) | {total} (100.0%) | " \
           f"{total} (100.0%) | {total} (100.0%) |" in out


def test_cases_run_cleanly_and_deterministically():
    # Identity passing would also hold for a case that crashes the same way
    # twice: check that cases finish, and only raise where they mean to.
    meant_to_raise = {"exceptions/raise_uncaught"}
    with suite.package_on_path():
        for case in AVAILABLE:
            code = compile(case.source, case.path, "exec")
            first = suite.observe(code, case)
            assert first == suite.observe(code, case), case.id
            kinds = {e[0] for e in first["events"]}
            assert ("module", "ok") in first["events"], case.id
            assert "timeout" not in kinds and "main" not in kinds, case.id
            assert ("raised" in kinds) == (case.id in meant_to_raise), (case.id, first["events"])


def _case(case_id: str):
    return next(c for c in ALL_CASES if c.id == case_id)


def test_wrong_output_is_caught_by_bytecode_and_behaviour():
    case = _case("conditionals/if_not")
    result = suite.run_case(case, lambda code, c: c.source.replace("if not items:", "if items:"))
    assert result.recompiled
    assert not result.bytecode_equal and not result.behaviour_equal
    assert result.stage == "bytecode+behaviour"
    assert any("/<module>/f: instruction" in p for p in result.problems), result.problems


def test_same_behaviour_different_bytecode_is_caught():
    case = _case("assign/augmented_attribute")
    result = suite.run_case(case, lambda code, c: c.source.replace("c.n += 5", "c.n = c.n + 5"))
    assert result.behaviour_equal and not result.bytecode_equal
    assert result.stage == "bytecode"


def test_printed_output_is_compared():
    case = _case("statements/print_calls")
    result = suite.run_case(case, lambda code, c: c.source.replace('"hello"', '"hullo"'))
    assert not result.behaviour_equal
    assert any("output" in p for p in result.problems), result.problems


def test_output_that_does_not_compile_and_decompiler_errors():
    case = _case("loops/while_basic")
    bad = suite.run_case(case, lambda code, c: "def main(:\n")
    assert bad.stage == "recompile" and not bad.passed

    def broken(code, c):
        raise RuntimeError("unsupported opcode")

    crashed = suite.run_case(case, broken)
    assert crashed.stage == "decompile"
    assert "unsupported opcode" in crashed.problems[0]


def test_endless_output_times_out(monkeypatch):
    monkeypatch.setattr(suite, "TIMEOUT_SECONDS", 0.5)
    case = _case("loops/while_true_break")
    result = suite.run_case(case, lambda code, c: c.source.replace("n > 10", "n < 0"))
    assert not result.behaviour_equal
    assert any("timeout" in p for p in result.problems), result.problems


def test_sabotage_mode_scores_below_identity(monkeypatch):
    monkeypatch.setattr(suite, "TIMEOUT_SECONDS", 0.5)  # swapped comparisons can loop forever
    cases = [c for c in AVAILABLE if c.group in ("boolops", "conditionals")]
    results = suite.run_all(cases, suite.sabotage)
    assert sum(r.passed for r in results) < len(cases) // 2


def test_known_failures_name_existing_cases(tmp_path):
    ids = {c.id for c in ALL_CASES}
    if os.path.exists(suite.KNOWN_FAILURES):
        with open(suite.KNOWN_FAILURES, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                text = line.split("#", 1)[0].split()
                if not text:
                    continue
                assert len(text) == 2, f"known_failures.txt:{number}: want '3.X group/name  # reason'"
                version, case_id = text
                assert version == "*" or version in {f"3.{m}" for m in range(8, 15)}, number
                assert case_id in ids, f"known_failures.txt:{number}: no case {case_id}"
    sample = tmp_path / "known.txt"
    sample.write_text("3.11 loops/a  # why\n3.12 loops/b\n* loops/c  # every version\n# comment\n")
    assert suite.read_known_failures(str(sample), "3.11") == {"loops/a": "why", "loops/c": "every version"}


def test_known_failures_cannot_rot():
    case = _case("loops/while_basic")
    good = suite.run_case(case, suite.identity)
    bad = suite.run_case(case, lambda code, c: c.source.replace("i < 5", "i < 4"))
    assert suite.verdict(good, {}) == ("pass", "")
    outcome, message = suite.verdict(good, {case.id: "was broken"})
    assert outcome == "fail" and "remove it from known_failures.txt" in message
    outcome, message = suite.verdict(bad, {})
    assert outcome == "fail" and "behaviour" in message


def test_a_listed_silent_miscompile_still_fails():
    # Different behaviour is excused by a listing only where unveil said it
    # gave up (its fallback raises); otherwise the output lies.
    case = _case("loops/while_basic")
    silent = suite.run_case(case, lambda code, c: c.source.replace("i < 5", "i < 4"))
    outcome, message = suite.verdict(silent, {case.id: "loops"})
    assert outcome == "fail" and "silent miscompile" in message
    gave_up = suite.run_case(case, lambda code, c: c.source.replace(
        "i < 5", "i < 4") + f"\n# {suite.FALLBACK_MARK} main\n")
    assert suite.verdict(gave_up, {case.id: "loops"})[0] == "xfail"
    bytecode_only = suite.run_case(_case("assign/augmented_attribute"),
                                   lambda code, c: c.source.replace("c.n += 5", "c.n = c.n + 5"))
    assert suite.verdict(bytecode_only, {"assign/augmented_attribute": "bytecode"})[0] == "xfail"



def test_update_known_failures_rewrites_only_this_version(tmp_path):
    case = _case("loops/while_basic")
    failing = suite.run_case(case, lambda code, c: c.source.replace("i < 5", "i < 4"))
    passing = suite.run_case(_case("loops/for_basic"), suite.identity)
    other = "3.8" if suite.VERSION != "3.8" else "3.9"
    path = tmp_path / "known.txt"
    path.write_text(f"# header\n\n{other} loops/x  # kept\n{suite.VERSION} loops/for_basic  # stale\n")
    assert suite.update_known_failures([failing, passing], str(path)) == 1
    lines = path.read_text().splitlines()
    assert lines[0] == "# header"
    assert f"{other} loops/x  # kept" in lines
    assert f"{suite.VERSION} loops/while_basic  # behaviour" in lines or \
        f"{suite.VERSION} loops/while_basic  # bytecode+behaviour" in lines
    assert not any("for_basic" in line for line in lines)
    assert suite.read_known_failures(str(path)) == {"loops/while_basic": failing.stage}


# ------------------------------------------- unveil.verify, the judge


def _code(source: str) -> types.CodeType:
    return compile(source, "<case>", "exec", dont_inherit=True)


def test_verify_ignores_lines_and_positions():
    a = _code("def f(x):\n    if x:\n        return 1\n    return 2\n")
    b = _code("\n\n\ndef f(x):\n\n    if x: return 1\n\n    return 2\n")
    assert suite.verify.compare_code(a, b) == []


def test_verify_compares_constants_exactly():
    diff = suite.verify.compare_code(_code("x = 1\n"), _code("x = 1.0\n"))
    assert diff and diff[0].startswith("/<module>: instruction 0 differs")
    assert suite.verify.compare_code(_code("x = 0.0\n"), _code("x = -0.0\n"))
    assert suite.verify.compare_code(_code("x = (1, 2)\n"), _code("x = (1, True)\n"))


def test_verify_names_the_nested_path_and_the_instruction():
    a = _code("class C:\n    def m(self):\n        return [i for i in self if i]\n")
    b = _code("class C:\n    def m(self):\n        return [i for i in self if not i]\n")
    diff = suite.verify.compare_code(a, b)
    assert len(diff) == 1
    assert diff[0].startswith("/<module>/C/m")
    assert "instruction" in diff[0] and "POP_JUMP" in diff[0]


def test_verify_compares_signatures_flags_docstrings_and_code_objects():
    v = suite.verify
    assert any("argument names" in d for d in v.compare_code(_code("def f(a): pass\n"), _code("def f(b): pass\n")))
    assert any("kwonlyargcount" in d for d in v.compare_code(_code("def f(a, b): pass\n"),
                                                             _code("def f(a, *, b): pass\n")))
    assert any("flags" in d for d in v.compare_code(_code("def f():\n    yield\n"),
                                                    _code("async def f():\n    yield\n")))
    assert any("docstring" in d for d in v.compare_code(_code("def f():\n    'a'\n"), _code("def f():\n    'b'\n")))
    assert any("missing" in d for d in v.compare_code(_code("def f(): pass\ndef g(): pass\n"),
                                                      _code("def f(): pass\ng = 1\n")))
    assert any("not in the original" in d for d in v.compare_code(_code("x = 1\n"), _code("def x(): pass\n")))


def test_verify_compares_exception_handling():
    a = _code("try:\n    f()\nexcept ValueError:\n    pass\n")
    b = _code("try:\n    f()\nexcept TypeError:\n    pass\n")
    c = _code("try:\n    f()\nfinally:\n    pass\n")
    assert suite.verify.compare_code(a, b)
    assert suite.verify.compare_code(a, c)


def test_verify_normalised_drops_bookkeeping_and_indexes_jumps():
    n = suite.verify.normalised(_code("while x:\n    x -= 1\n"))
    names = [op for op, _ in n.ops]
    assert not set(names) & suite.verify.IGNORED_OPNAMES
    jumps = [arg for _, arg in n.ops if isinstance(arg, tuple) and arg and arg[0] == "jump"]
    assert jumps and all(0 <= j[1] <= len(n.ops) for j in jumps)


def test_verify_compare_source_reports_syntax_errors():
    diff = suite.verify.compare_source(_code("x = 1\n"), "x = (\n")
    assert len(diff) == 1 and "does not compile" in diff[0]
    assert suite.verify.compare_source(_code("x = 1\n"), "x = 1\n") == []


# ----------------------------------------------------- the decompiler


@pytest.mark.skipif(not HAS_DECOMPILE, reason="unveil has no attribute 'decompile' yet")
@pytest.mark.parametrize("case", AVAILABLE, ids=[c.id for c in AVAILABLE])
def test_syntax_case(case):
    result = suite.run_case(case, suite.unveil_decompiler)
    outcome, message = suite.verdict(result, suite.read_known_failures())
    if outcome == "xfail":
        pytest.xfail(message)
    if outcome == "fail":
        pytest.fail(message, pytrace=False)
