"""The differential program fuzzer (tools/fuzz_programs.py) checks what it claims to.

CI runs the fuzzer itself against the CLI; these tests check the checker:
the source as its own output scores 100% with no difference, a deliberately
broken output is caught, and the generated programs are valid and end.
"""
import importlib.util
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _fuzzer():
    path = os.path.join(ROOT, "tools", "fuzz_programs.py")
    spec = importlib.util.spec_from_file_location("fuzz_programs", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("fuzz_programs", module)
    spec.loader.exec_module(module)
    return module


fuzz = _fuzzer()


def test_programs_are_deterministic_and_end():
    assert fuzz.program(3, 4) == fuzz.program(3, 4)
    assert fuzz.program(3, 4) != fuzz.program(4, 4)
    for seed in range(8):
        namespace = fuzz.run_module(fuzz.program(seed, 4), "<fuzz>")
        for f in range(4):
            for a, b in fuzz.ARGUMENTS:
                assert fuzz.observe(namespace[f"f{f}"], a, b)[0] in ("return", "raise"), (seed, f, a, b)


def test_expression_programs_differ_compile_everywhere_and_end(tmp_path):
    rich = fuzz.program(3, 4, expressions=True)
    assert rich != fuzz.program(3, 4) and rich == fuzz.program(3, 4, expressions=True)
    for seed in range(8):
        namespace = fuzz.run_module(fuzz.program(seed, 4, expressions=True), "<fuzz>")
        for f in range(4):
            for a, b in fuzz.ARGUMENTS:
                assert fuzz.observe(namespace[f"f{f}"], a, b)[0] in ("return", "raise"), (seed, f, a, b)
    tally = fuzz.Tally()
    for seed in range(4):
        fuzz.check(seed, 4, [], str(tmp_path), tally, "identity", expressions=True)
    assert tally.equal == tally.functions == 16 and tally.behaviour == []


def test_identity_scores_everything(tmp_path):
    tally = fuzz.Tally()
    for seed in range(4):
        fuzz.check(seed, 4, [], str(tmp_path), tally, "identity")
    assert tally.functions == 16 and tally.equal == 16
    assert tally.behaviour == [] and tally.fallback == 0 and tally.not_compiling == 0


def test_sabotage_is_caught(tmp_path):
    tally = fuzz.Tally()
    for seed in range(4):
        fuzz.check(seed, 4, [], str(tmp_path), tally, "sabotage")
    assert tally.behaviour, "a decompiler that changes arithmetic must be caught"
    assert tally.equal < tally.functions


def test_a_call_that_never_ends_is_a_timeout():
    def spins(a, b, log):
        while True:
            log.append(a)

    assert fuzz.observe(spins, 1, 2)[0] == "timeout"
