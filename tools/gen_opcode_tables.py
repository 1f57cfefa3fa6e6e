"""Generate core/opcodes/tables/python_3X.inc from each CPython's own opcode tables,
and core/opcodes/tables/ops.inc, the Op enum of every opname they hold.

    python tools/gen_opcode_tables.py            # regenerate every table
    python tools/gen_opcode_tables.py --check    # fail if a committed table is stale

For 3.8-3.13 the script runs itself (``--dump``) under each pyenv Python and
reads that interpreter's ``opcode``/``dis``/``importlib``/``marshal`` modules;
3.14, which has no local interpreter, comes from
/work/shared/reference/opcodes/opcodes_314.json (``--json314`` to override).

What the interpreters cannot tell (or tell inconsistently across versions) is
kept below as data: the magic ranges, the locals and line-table layouts, the
jump unit, the COMPARE_OP shift, which opcodes need a special ArgKind and which
jumps go backward. The facts that a live interpreter can confirm (jump unit,
compare shift, backward jumps, final magic number) are checked against it.

This file must stay runnable by Python 3.8: the ``--dump`` half runs there.
"""
from __future__ import annotations

import argparse
import difflib
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLES_DIR = os.path.join(ROOT, "core", "opcodes", "tables")
DEFAULT_JSON_314 = "/work/shared/reference/opcodes/opcodes_314.json"
MINORS = [8, 9, 10, 11, 12, 13, 14]
FROM_JSON = {14}  # versions without a local interpreter

# ---------------------------------------------------------------------------
# Per-version facts that are not in the opcode module (bytecode.md §1).
# magic_first: lowest magic number of the version's alphas; the last one is
# read from the interpreter (or the JSON).
VERSION_FACTS = {
    8: dict(magic_first=3400, locals="Split", line_table="Lnotab", jump_unit=1, compare_shift=0),
    9: dict(magic_first=3420, locals="Split", line_table="Lnotab", jump_unit=1, compare_shift=0),
    10: dict(magic_first=3430, locals="Split", line_table="LineTable310", jump_unit=2, compare_shift=0),
    11: dict(magic_first=3450, locals="LocalsPlus", line_table="Locations", jump_unit=2, compare_shift=0),
    12: dict(magic_first=3500, locals="LocalsPlus", line_table="Locations", jump_unit=2, compare_shift=4),
    13: dict(magic_first=3550, locals="LocalsPlus", line_table="Locations", jump_unit=2, compare_shift=5),
    14: dict(magic_first=3600, locals="LocalsPlus", line_table="Locations", jump_unit=2, compare_shift=5),
}

# Opcodes whose oparg is not read the way their dis list suggests:
# (name, first minor, last minor or None, ArgKind). Every rule must name an
# opcode that exists, with an argument, in each version it covers.
ARG_KIND_RULES = [
    ("LOAD_GLOBAL", 11, None, "NameShift1"),
    ("LOAD_ATTR", 12, None, "NameShift1"),
    ("LOAD_SUPER_ATTR", 12, None, "NameShift2"),
    ("LOAD_FAST_LOAD_FAST", 13, None, "LocalPair"),
    ("STORE_FAST_LOAD_FAST", 13, None, "LocalPair"),
    ("STORE_FAST_STORE_FAST", 13, None, "LocalPair"),
    ("LOAD_FAST_BORROW_LOAD_FAST_BORROW", 14, None, "LocalPair"),
    ("BINARY_OP", 11, None, "BinaryOp"),
    ("CALL_INTRINSIC_1", 12, None, "Intrinsic1"),
    ("CALL_INTRINSIC_2", 12, None, "Intrinsic2"),
    ("FORMAT_VALUE", 8, 12, "FormatValue"),
    ("CONVERT_VALUE", 13, None, "ConvertValue"),
    ("LOAD_COMMON_CONSTANT", 14, None, "CommonConstant"),
    ("LOAD_SMALL_INT", 14, None, "SmallInt"),
    ("LOAD_SPECIAL", 14, None, "SpecialMethod"),
    # 3.14's metadata puts LOAD_DEREF in haslocal instead of hasfree (CPython
    # gh-151321); it still reads a cell, as in every other version.
    ("LOAD_DEREF", 14, None, "Free"),
]

# Relative jumps whose oparg counts backward from the end of the instruction.
_POP_JUMP_BACKWARD_311 = [
    "POP_JUMP_BACKWARD_IF_TRUE",
    "POP_JUMP_BACKWARD_IF_FALSE",
    "POP_JUMP_BACKWARD_IF_NONE",
    "POP_JUMP_BACKWARD_IF_NOT_NONE",
]
BACKWARD_JUMPS = {
    8: [],
    9: [],
    10: [],
    11: ["JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"] + _POP_JUMP_BACKWARD_311,
    12: ["JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"],
    13: ["JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT"],
    14: ["JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "END_ASYNC_FOR"],
}

# Real opcode numbers that never occur in marshalled co_code (inserted at run
# time), beside the INSTRUMENTED_* range: they must decode as unknown.
RUNTIME_ONLY = {"ENTER_EXECUTOR"}

# ---------------------------------------------------------------------------
# The --dump half: runs under the target interpreter, prints its raw facts.

_PROBE_SOURCE = """
def probe(x, a, b):
    if x:
        y = 1
    else:
        y = 2
    while a:
        a = a - 1
    return y, a > b
"""


def dump_interpreter() -> dict:
    """The facts of the running interpreter, as plain JSON data."""
    import dis
    import importlib.util
    import marshal
    import opcode

    names = {}
    for number, name in enumerate(opcode.opname[:256]):
        if not name.startswith("<"):
            names[number] = name
    if hasattr(opcode, "hasarg"):
        has_arg = sorted(set(opcode.hasarg))
    else:
        has_arg = [n for n in names if n >= opcode.HAVE_ARGUMENT]

    caches = {}
    entries = getattr(opcode, "_inline_cache_entries", None)
    if isinstance(entries, dict):  # 3.13+: by name
        caches = {name: count for name, count in entries.items() if count}
    elif entries is not None:  # 3.11-3.12: by number
        caches = {names[n]: count for n, count in enumerate(entries) if count and n in names}

    backward = None
    if hasattr(dis, "_is_backward_jump"):
        jumps = set(opcode.hasjrel)
        backward = sorted(names[n] for n in names if n in jumps and dis._is_backward_jump(n))

    # Jump and COMPARE_OP encodings as the compiler and dis really use them.
    namespace = {}
    exec(compile(_PROBE_SOURCE, "<probe>", "exec"), namespace)
    probes = []
    for ins in dis.get_instructions(namespace["probe"]):
        probes.append([ins.offset, ins.opcode, ins.opname, ins.arg,
                       ins.argval if isinstance(ins.argval, (int, str)) else None])

    return {
        "version": "%d.%d.%d" % sys.version_info[:3],
        "minor": sys.version_info[1],
        "names": names,
        "has_arg": has_arg,
        "hasconst": sorted(set(opcode.hasconst)),
        "hasname": sorted(set(opcode.hasname)),
        "haslocal": sorted(set(opcode.haslocal)),
        "hasfree": sorted(set(opcode.hasfree)),
        "hascompare": sorted(set(opcode.hascompare)),
        "hasjrel": sorted(set(opcode.hasjrel)),
        "hasjabs": sorted(set(opcode.hasjabs)),
        "caches": caches,
        "backward_from_dis": backward,
        "min_instrumented": getattr(opcode, "MIN_INSTRUMENTED_OPCODE", 256),
        "cmp_op": list(opcode.cmp_op),
        "nb_ops": [symbol for _, symbol in getattr(opcode, "_nb_ops", [])],
        "intrinsic_1": list(getattr(opcode, "_intrinsic_1_descs", [])),
        "intrinsic_2": list(getattr(opcode, "_intrinsic_2_descs", [])),
        "common_constants": [],
        "special_methods": [],
        "extended_arg": opcode.EXTENDED_ARG,
        "magic": int.from_bytes(importlib.util.MAGIC_NUMBER[:2], "little"),
        "marshal_version": marshal.version,
        "probes": probes,
    }


def load_json_314(path: str) -> dict:
    """The 3.14 facts, in the shape dump_interpreter() produces."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    names = {int(k): v for k, v in data["opname"].items() if int(k) < 256}
    return {
        "version": "3.14",
        "minor": 14,
        "names": names,
        "has_arg": sorted(set(data["hasarg"])),
        "hasconst": data["hasconst"],
        "hasname": data["hasname"],
        "haslocal": data["haslocal"],
        "hasfree": data["hasfree"],
        "hascompare": data["hascompare"],
        "hasjrel": sorted(set(data["hasjrel"]) | set(data["hasjump"])),
        "hasjabs": data["hasjabs"],
        "caches": {k: v for k, v in data["inline_cache_entries"].items() if v},
        "backward_from_dis": sorted(data["backward_jumps"]),
        "min_instrumented": data["MIN_INSTRUMENTED_OPCODE"],
        "cmp_op": data["cmp_op"],
        "nb_ops": [symbol for _, symbol in data["nb_ops"]],
        "intrinsic_1": data["intrinsic_1_descs"],
        "intrinsic_2": data["intrinsic_2_descs"],
        "common_constants": data["common_constants"],
        "special_methods": data["special_method_names"],
        "extended_arg": data["EXTENDED_ARG"],
        "magic": data["magic_number_int"],
        "marshal_version": data["marshal_version"],
        "probes": None,
    }


# ---------------------------------------------------------------------------
# Finding the interpreters.

def pyenv_root() -> str:
    if os.environ.get("PYENV_ROOT"):
        return os.environ["PYENV_ROOT"]
    try:
        out = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return os.path.expanduser("~/.pyenv")


def find_interpreter(minor: int):
    """The newest pyenv Python 3.<minor>.x, or None."""
    best = None
    for path in glob.glob(os.path.join(pyenv_root(), "versions", "3.%d.*" % minor, "bin", "python")):
        match = re.search(r"3\.%d\.(\d+)/bin/python$" % minor, path)
        if match and (best is None or int(match.group(1)) > best[0]):
            best = (int(match.group(1)), path)
    return best[1] if best else None


def facts_from(python: str) -> dict:
    out = subprocess.run([python, os.path.abspath(__file__), "--dump"],
                         capture_output=True, text=True, check=True)
    facts = json.loads(out.stdout)
    facts["names"] = {int(k): v for k, v in facts["names"].items()}
    return facts


# ---------------------------------------------------------------------------
# From raw facts to the table.

class TableError(Exception):
    pass


def build_table(facts: dict) -> dict:
    """Checks the facts against the rule tables and returns what the .inc holds."""
    minor = facts["minor"]
    rules = VERSION_FACTS[minor]
    names = {n: name for n, name in facts["names"].items()
             if n < facts["min_instrumented"] and name not in RUNTIME_ONLY}
    numbers = {name: n for n, name in names.items()}
    has_arg = set(facts["has_arg"])
    lists = {k: set(facts[k]) for k in ("hasconst", "hasname", "haslocal", "hasfree",
                                        "hascompare", "hasjrel", "hasjabs")}

    special = {}
    for name, first, last, kind in ARG_KIND_RULES:
        if minor < first or (last is not None and minor > last):
            continue
        if name not in numbers:
            raise TableError("3.%d: rule for %s names no opcode" % (minor, name))
        if numbers[name] not in has_arg:
            raise TableError("3.%d: rule for %s, which takes no argument" % (minor, name))
        special[name] = kind

    backward = set(BACKWARD_JUMPS[minor])
    for name in backward:
        if name not in numbers or numbers[name] not in lists["hasjrel"]:
            raise TableError("3.%d: backward jump %s is not a relative jump" % (minor, name))
    if facts["backward_from_dis"] is not None:
        from_dis = set(facts["backward_from_dis"]) & set(numbers)
        if from_dis != backward:
            raise TableError("3.%d: dis says the backward jumps are %s, the rules %s"
                             % (minor, sorted(from_dis), sorted(backward)))

    opcodes = {}
    for n, name in sorted(names.items()):
        jump = "None"
        if n not in has_arg:
            kind = "None"
        elif name in special:
            kind = special[name]
        elif n in lists["hasjabs"]:
            kind, jump = "Jump", "Absolute"
        elif n in lists["hasjrel"]:
            kind, jump = "Jump", ("Backward" if name in backward else "Forward")
        elif n in lists["hasconst"]:
            kind = "Const"
        elif n in lists["hasname"]:
            kind = "Name"
        elif n in lists["haslocal"]:
            kind = "Local"
        elif n in lists["hasfree"]:
            kind = "Free"
        elif n in lists["hascompare"]:
            kind = "Compare"
        else:
            kind = "Plain"
        opcodes[n] = (name, kind, jump, facts["caches"].get(name, 0))

    unknown = sorted(set(facts["caches"]) - set(numbers))
    if unknown:
        raise TableError("3.%d: cache sizes for unknown opcodes %s" % (minor, unknown))
    if names.get(facts["extended_arg"]) != "EXTENDED_ARG":
        raise TableError("3.%d: EXTENDED_ARG is not opcode %d" % (minor, facts["extended_arg"]))
    if not rules["magic_first"] <= facts["magic"] < rules["magic_first"] + 100:
        raise TableError("3.%d: magic %d outside the version's range" % (minor, facts["magic"]))
    if facts["probes"] is not None:
        check_probes(facts, rules, opcodes)

    return {
        "minor": minor,
        "magic_first": rules["magic_first"],
        "magic_last": facts["magic"],
        "marshal_version": facts["marshal_version"],
        "locals": rules["locals"],
        "line_table": rules["line_table"],
        "jump_unit": rules["jump_unit"],
        "compare_shift": rules["compare_shift"],
        "extended_arg": facts["extended_arg"],
        "opcodes": opcodes,
        "cmp_op": facts["cmp_op"],
        "nb_ops": facts["nb_ops"],
        "intrinsic_1": facts["intrinsic_1"],
        "intrinsic_2": facts["intrinsic_2"],
        "common_constants": facts["common_constants"],
        "special_methods": facts["special_methods"],
    }


def check_probes(facts: dict, rules: dict, opcodes: dict) -> None:
    """Confirms jump_unit and compare_shift on code the interpreter compiled."""
    minor = facts["minor"]
    unit = rules["jump_unit"]
    shift = rules["compare_shift"]
    seen_jump = seen_compare = False
    for offset, number, name, arg, argval in facts["probes"]:
        _, kind, jump, caches = opcodes[number]
        if jump != "None" and arg:
            end = offset + 2 + 2 * caches
            expected = {"Absolute": arg * unit, "Forward": end + arg * unit,
                        "Backward": end - arg * unit}[jump]
            if expected != argval:
                raise TableError("3.%d: %s %d at %d: dis says target %s, the rules %d"
                                 % (minor, name, arg, offset, argval, expected))
            seen_jump = True
        if kind == "Compare":
            index = arg >> shift
            if index >= len(facts["cmp_op"]) or facts["cmp_op"][index] != argval:
                raise TableError("3.%d: COMPARE_OP %d is %r, not cmp_op[arg >> %d]"
                                 % (minor, arg, argval, shift))
            seen_compare = True
    if not (seen_jump and seen_compare):
        raise TableError("3.%d: the probe function has no jump or no comparison" % minor)


# ---------------------------------------------------------------------------
# Writing the .inc file.

def cpp_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def string_array(name: str, items) -> str:
    if not items:
        return ""
    body = ", ".join(cpp_string(s) for s in items)
    lines = wrap("constexpr std::string_view %s[] = {" % name, body, "};")
    return lines + "\n"


def wrap(head: str, body: str, tail: str, width: int = 100) -> str:
    text = head + body + tail
    if len(text) <= width:
        return text
    out, line = [head], "    "
    for item in body.split(", "):
        piece = item + ","
        if len(line) + len(piece) + 1 > width and line.strip():
            out.append(line.rstrip())
            line = "    "
        line += piece + " "
    out.append(line.rstrip())
    out.append(tail)
    return "\n".join(out)


def render(table: dict) -> str:
    minor = table["minor"]
    ns = "python_3%d" % minor
    source = ("/work/shared/reference/opcodes/opcodes_314.json" if minor in FROM_JSON
              else "CPython 3.%d's opcode, dis, importlib and marshal modules" % minor)
    out = []
    out.append("// Python 3.%d opcode table, generated by tools/gen_opcode_tables.py from\n" % minor)
    out.append("// %s. Do not edit; rerun the script.\n" % source)
    out.append("// Included by core/opcodes/version.cpp inside namespace unveil.\n\n")
    out.append("namespace %s {\n\n" % ns)
    spans = {}
    for field, array in (("cmp_op", "kCmpOp"), ("nb_ops", "kNbOps"),
                         ("intrinsic_1", "kIntrinsic1"), ("intrinsic_2", "kIntrinsic2"),
                         ("common_constants", "kCommonConstants"),
                         ("special_methods", "kSpecialMethods")):
        text = string_array(array, table[field])
        if text:
            out.append(text)
            spans[field] = array
        else:
            spans[field] = "{}"
    if any(v != "{}" for v in spans.values()):
        out.append("\n")
    out.append("constexpr VersionTraits kTraits{\n")
    out.append("    .minor = %d,\n" % minor)
    out.append("    .magic_first = %d,\n" % table["magic_first"])
    out.append("    .magic_last = %d,\n" % table["magic_last"])
    out.append("    .marshal_version = %d,\n" % table["marshal_version"])
    out.append("    .locals_layout = LocalsLayout::%s,\n" % table["locals"])
    out.append("    .line_table = LineTableFormat::%s,\n" % table["line_table"])
    out.append("    .jump_unit = %d,\n" % table["jump_unit"])
    out.append("    .compare_shift = %d,\n" % table["compare_shift"])
    out.append("    .extended_arg = %d,\n" % table["extended_arg"])
    out.append("    .cache = 0,\n")
    out.append("    .opcodes = {{\n")
    for n in range(256):
        entry = table["opcodes"].get(n)
        if entry is None:
            out.append("        /* %3d */ {},\n" % n)
            continue
        name, kind, jump, caches = entry
        out.append("        /* %3d */ {%s, ArgKind::%s, JumpKind::%s, %d, Op::%s},\n"
                   % (n, cpp_string(name), kind, jump, caches, name))
    out.append("    }},\n")
    for field in ("cmp_op", "nb_ops", "intrinsic_1", "intrinsic_2", "common_constants",
                  "special_methods"):
        out.append("    .%s = %s,\n" % (field, spans[field]))
    out.append("};\n\n")
    out.append("}  // namespace %s\n" % ns)
    return "".join(out)


OPS_FILE = "ops.inc"


def render_ops(names) -> str:
    """The Op enum: one value per opname of any version, sorted, Unknown first."""
    ordered = sorted(set(names))
    for name in ordered:
        if not re.match(r"^[A-Z][A-Z0-9_]*$", name):
            raise TableError("opname %r is not an identifier the Op enum can hold" % name)
    out = []
    out.append("// Every opname of Python 3.%d-3.%d, generated by tools/gen_opcode_tables.py from the\n"
               % (MINORS[0], MINORS[-1]))
    out.append("// per-version tables. Do not edit; rerun the script.\n")
    out.append("// Included by core/opcodes/version.h inside namespace unveil.\n\n")
    out.append("// One value per opname, the same in every version (opcode numbers are not):\n")
    out.append("// later stages switch and index on it instead of comparing names.\n")
    out.append("enum class Op : std::uint16_t {\n    Unknown,\n")
    for name in ordered:
        out.append("    %s,\n" % name)
    out.append("};\n\n")
    out.append("// kOpNames[Op] is its name; sorted, so that op_named() can search it.\n")
    out.append(string_array("kOpNames", [""] + ordered).replace("constexpr", "inline constexpr", 1))
    return "".join(out)


# ---------------------------------------------------------------------------

def generate(json_314: str, skip_missing: bool) -> dict:
    """{file name: contents} for every version that can be generated."""
    files = {}
    tables = []
    missing = []
    for minor in MINORS:
        if minor in FROM_JSON:
            facts = load_json_314(json_314)
            origin = json_314
        else:
            python = find_interpreter(minor)
            if python is None:
                missing.append("3.%d" % minor)
                continue
            facts = facts_from(python)
            origin = "%s (%s)" % (python, facts["version"])
        table = build_table(facts)
        tables.append(table)
        files["python_3%d.inc" % minor] = render(table)
        print("3.%d: %d opcodes from %s" % (minor, len(table["opcodes"]), origin), file=sys.stderr)
    if missing and not skip_missing:
        raise SystemExit("gen_opcode_tables: no pyenv Python for %s under %s (--skip-missing "
                         "to generate the others)" % (", ".join(missing), pyenv_root()))
    if missing:  # the union would lack their names: keep the committed enum
        print("%s not regenerated: versions missing" % OPS_FILE, file=sys.stderr)
    else:
        files[OPS_FILE] = render_ops(name for table in tables for name, _, _, _ in
                                     table["opcodes"].values())
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="compare with the committed tables instead of writing them")
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--json314", default=DEFAULT_JSON_314, help="the 3.14 opcode JSON")
    parser.add_argument("--skip-missing", action="store_true",
                        help="leave out versions with no local interpreter")
    args = parser.parse_args()

    if args.dump:
        json.dump(dump_interpreter(), sys.stdout)
        return 0
    try:
        files = generate(args.json314, args.skip_missing)
    except TableError as e:
        print("gen_opcode_tables: %s" % e, file=sys.stderr)
        return 1

    stale = 0
    for name, text in sorted(files.items()):
        path = os.path.join(TABLES_DIR, name)
        old = None
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                old = f.read()
        if old == text:
            continue
        if args.check:
            stale += 1
            print("%s is stale:" % os.path.relpath(path, ROOT), file=sys.stderr)
            diff = difflib.unified_diff((old or "").splitlines(True), text.splitlines(True),
                                        "committed", "generated", n=1)
            sys.stderr.writelines(list(diff)[:40])
        else:
            os.makedirs(TABLES_DIR, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="\n") as f:
                f.write(text)
            print("wrote %s" % os.path.relpath(path, ROOT), file=sys.stderr)
    if args.check:
        print("%d of %d tables stale" % (stale, len(files)) if stale
              else "all %d tables up to date" % len(files), file=sys.stderr)
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
