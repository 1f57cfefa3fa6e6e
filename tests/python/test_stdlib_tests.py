"""tools/stdlib_tests.py tells the three outcomes apart (checked with stand-in
decompilers: the source itself, a broken copy, and a copy that gives up)."""
import importlib.util
import os
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = importlib.util.spec_from_file_location("stdlib_tests", os.path.join(ROOT, "tools", "stdlib_tests.py"))
stdlib_tests = importlib.util.module_from_spec(spec)
spec.loader.exec_module(stdlib_tests)

# A stand-in CLI: prints the module's own source for the .pyc it is given,
# changed by MODE.
FAKE = textwrap.dedent('''
    import os, sys, sysconfig
    name = os.path.basename(sys.argv[-1]).split(".")[0]
    text = open(os.path.join(sysconfig.get_paths()["stdlib"], name + ".py"), encoding="utf-8").read()
    if MODE == "broken":
        text = text.replace("self.width = width", "self.width = width + 1")
    if MODE == "gives-up":
        text = text.replace("self.width = width", "self.width = width + 1") + "\\ndef _gave_up():\\n    raise RuntimeError('{mark} _gave_up')\\n"
    sys.stdout.write(text)
''')


def fake_cli(tmp_path, mode):
    path = tmp_path / f"fake_{mode.replace('-', '_')}.py"
    path.write_text(f"MODE = {mode!r}\n" + FAKE.replace("{mark}", stdlib_tests.FALLBACK_MARK))
    return [sys.executable, str(path)]


def run(tmp_path, mode):
    work = tmp_path / mode
    work.mkdir()
    lib = stdlib_tests.sysconfig.get_paths()["stdlib"]
    return stdlib_tests.check("textwrap", fake_cli(tmp_path, mode), lib, str(work), 120)


def test_the_source_itself_behaves_the_same(tmp_path):
    verdict, theirs, ours, fallbacks = run(tmp_path, "same")
    assert verdict == "same" and theirs == ours and theirs.startswith("OK") and fallbacks == 0


def test_a_wrong_module_is_a_silent_difference(tmp_path):
    verdict, theirs, ours, fallbacks = run(tmp_path, "broken")
    assert verdict == "SILENT" and ours.startswith("FAILED") and fallbacks == 0


def test_differences_where_unveil_gave_up_are_its_fallbacks(tmp_path):
    verdict, theirs, ours, fallbacks = run(tmp_path, "gives-up")
    assert verdict == "fallback" and fallbacks == 1
