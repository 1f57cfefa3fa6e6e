"""The harness's own logic: dump classification, comparison, run plans, report."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

torch = pytest.importorskip("torch")
if not hasattr(torch, "compile"):
    pytest.skip("torch is not installed", allow_module_level=True)

from models import BREAK_IF, BREAK_PRINT, DYNAMIC, INDUCTOR, SAMPLE, TORCH_AOT_DIFFERS  # noqa: E402
from models.harness import RunConfig, Subject, classify_dump, compare, plan, tensors_of  # noqa: E402
from models.report import markdown, summary_line, top_reasons  # noqa: E402

HEAD = "# Dynamo's transformed code of f (x.py:1),\n# compile id 0/0, written by unveil.\n"


def _dump(tmp_path: Path, files: dict) -> Path:
    manifest = {"pid": 1, "files": {}}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        manifest["files"][name] = {"kind": "transformed"}
    (tmp_path / "graph.py").write_text("")
    manifest["files"]["graph.py"] = {"kind": "graph"}
    (tmp_path / "unveil_dump.json").write_text(json.dumps(manifest))
    return tmp_path


def test_classify_dump_counts_each_outcome(tmp_path):
    folder = _dump(tmp_path, {
        "__transformed_code_0_0_for_f.py": HEAD + "# Dynamo runs the code compiled from this file: ...\ndef f():\n",
        "__transformed_code_1_0_for_torch_dynamo_resume_in_f_at_3.py":
            HEAD + "# NOT what runs (x)\n# NOTE: this source is NOT what runs (x); Dynamo runs its own bytecode:\n",
        "__transformed_code_2_0_for_g.py": HEAD + "# unveil could not decompile this code: boom\n",
    })
    got = classify_dump(folder)
    assert got == {"frames": 3, "resume_frames": 1, "recompiled": 1, "not_decompiled": 1, "not_recompiled": 1}


def test_compare_bitwise_and_tolerance():
    a = torch.tensor([1.0, float("nan"), 3.0])
    b = a.clone()
    assert compare([a], [b], bitwise=True) == (True, 0.0)
    c = a + torch.tensor([0.0, 0.0, 1e-6])
    ok, diff = compare([a], [c], bitwise=True)
    assert not ok and diff > 0
    assert compare([a], [c], bitwise=False)[0]
    assert not compare([a], [a[:2]], bitwise=True)[0]
    assert compare([None], [None], bitwise=True)[0]
    assert not compare([None], [a], bitwise=True)[0]


def test_tensors_of_walks_nested_outputs():
    t1, t2, t3 = torch.zeros(1), torch.ones(1), torch.zeros(2)
    assert [id(t) for t in tensors_of({"a": (t1, [t2]), "b": None, "c": t3})] == [id(t1), id(t2), id(t3)]


def test_plans_and_subsets():
    assert len(SAMPLE) >= 15 and len(INDUCTOR) >= 10
    for fam in ("hf/", "timm/", "vision/"):
        assert sum(n.startswith(fam) for n in SAMPLE) >= 3
    runs = plan("hf/bert")
    assert RunConfig("infer", "eager") in runs and RunConfig("train", "aot_eager") in runs
    assert any(r.dynamic for r in runs) == ("hf/bert" in DYNAMIC)
    assert any(r.brk == "print" for r in runs) == ("hf/bert" in BREAK_PRINT)
    assert not any(r.brk == "if" for r in plan("hf/bert")) or "hf/bert" in BREAK_IF
    assert not any(r.backend == "inductor" for r in plan("hf/bert"))
    assert {r.mode for r in plan("hf/bert", inductor=True) if r.backend == "inductor"} == {"infer", "train"}
    assert all(r.mode == "infer" for r in plan("vision/ncf", train=False))


def test_a_declared_torch_difference_adds_an_eager_training_run():
    name = next(iter(TORCH_AOT_DIFFERS))
    runs = plan(name)
    assert RunConfig("train", "aot_eager") in runs and RunConfig("train", "eager") in runs
    assert RunConfig("train", "eager") not in plan("hf/bert")


def test_reset_puts_back_a_replaced_non_persistent_buffer():
    class Cache(torch.nn.Module):  # replaces its buffer on the first call, as timm's ConViT does
        def __init__(self):
            super().__init__()
            self.lin = torch.nn.Linear(2, 2)
            self.register_buffer("cache", torch.zeros(1), persistent=False)

        def forward(self, x):
            if self.cache.shape[0] != x.shape[0]:
                self.cache = torch.ones(x.shape[0])
            return self.lin(x) * self.cache[:, None]

    subject = Subject(Cache(), (torch.ones(3, 2),), {})
    m = subject.fresh("")
    m(*subject.args)
    assert m.cache.shape == (3,)
    subject.reset(m, "")
    assert m.cache.shape == (1,) and float(m.cache[0]) == 0.0


def _result(name, verified, failure=""):
    run = {"label": "infer/eager", "verified": verified, "frames": 2, "resume_frames": 1, "recompiled": 2,
           "graphs": 1, "graph_breaks": 1, "failure": failure, "warnings": []}
    return {"name": name, "family": name.split("/")[0], "built": True, "verified": verified,
            "runs": [run], "failure": failure, "seconds": 1.0}


def test_report_summary_and_reasons():
    results = [_result("hf/a", True), _result("timm/b", False, "1/2 frames not decompiled"),
               _result("vision/c", False, "2/5 frames not decompiled")]
    assert summary_line(results) == "1/3 models verified"
    assert top_reasons(results)[0] == ("N frames not decompiled", 2)
    md = markdown(results, "t", 60.0, {"torch": "x"})
    assert "| hf/a | yes |" in md and md.rstrip().endswith("1/3 models verified")
    assert "Waived" not in md
    results[0]["runs"][0]["note"] = "eager comparison waived: torch differs"
    md = markdown(results, "t", 60.0, {"torch": "x"})
    assert "infer/eager ok*" in md and "- hf/a infer/eager: eager comparison waived: torch differs" in md


def test_corpus_names_are_unique_and_large_enough():
    from models import corpus

    names = [s.name for s in corpus()]
    assert len(names) == len(set(names))
    fams = {f: sum(n.startswith(f + "/") for n in names) for f in ("hf", "timm", "vision")}
    assert fams["hf"] >= 40 and fams["timm"] >= 60 and fams["vision"] >= 30 and len(names) >= 140
    assert set(SAMPLE) <= set(names)
