"""reports/models/<tag>.json and <tag>.md: one row per model, a summary line."""
import collections
import json
import platform
import re
import time
from pathlib import Path
from typing import Any, Dict, List


def versions() -> Dict[str, str]:
    out = {"python": platform.python_version()}
    import importlib.metadata as md

    for mod in ("torch", "torchvision", "transformers", "timm", "unveil"):
        try:
            out[mod] = md.version(mod)
        except md.PackageNotFoundError:
            out[mod] = "not installed"
    return out


def summary_line(results: List[Dict[str, Any]]) -> str:
    ok = sum(1 for r in results if r["verified"])
    return f"{ok}/{len(results)} models verified"


def reason_key(text: str) -> str:
    """A failure reason with model-specific numbers and names blurred, for counting."""
    text = re.sub(r"\d+/\d+ frames", "N frames", text)
    text = re.sub(r"compile [!\d/]+", "compile X", text)
    return re.sub(r"'[^']*'", "'…'", text)


def run_counts(results: List[Dict[str, Any]]) -> str:
    """Verified runs per kind ("infer/eager": 15/17, ...), the finer grain under the model count."""
    kinds: Dict[str, List[int]] = collections.defaultdict(lambda: [0, 0])
    for r in results:
        for run in r["runs"]:
            k = kinds[run["label"]]
            k[0] += bool(run["verified"])
            k[1] += 1
    return ", ".join(f"{label} {v[0]}/{v[1]}" for label, v in sorted(kinds.items()))


def top_reasons(results: List[Dict[str, Any]], n: int = 12) -> List[tuple]:
    counts: "collections.Counter[str]" = collections.Counter()
    for r in results:
        seen = set()
        if not r["built"] or not r["runs"]:
            seen.add(reason_key(r["failure"]))
        for run in r["runs"]:
            for part in filter(None, (p.strip() for p in run["failure"].split(";"))):
                seen.add(reason_key(part))
            for w in run["warnings"]:
                seen.add("warning: " + reason_key(re.sub(r"^unveil: \S+ \(compile [^)]*\): ", "", w)))
        counts.update(seen)
    return counts.most_common(n)


def _runs_cell(r: Dict[str, Any]) -> str:
    return ", ".join(f"{run['label']} {'ok' if run['verified'] else 'no'}{'*' if run.get('note') else ''}"
                     for run in r["runs"])


def markdown(results: List[Dict[str, Any]], tag: str, seconds: float, vers: Dict[str, str]) -> str:
    cpu = sum(r.get("cpu_seconds", 0.0) for r in results)
    lines = [f"# unveil model corpus: {tag}", "",
             f"**{summary_line(results)}** (wall time {seconds / 60:.1f} min, CPU time {cpu / 60:.1f} min; "
             + ", ".join(f"{k} {v}" for k, v in vers.items()) + ")", ""]
    fam: Dict[str, List[int]] = collections.defaultdict(lambda: [0, 0, 0])
    for r in results:
        f = fam[r["family"]]
        f[0] += 1
        f[1] += bool(r["built"])
        f[2] += bool(r["verified"])
    lines += ["| family | models | built | verified |", "| --- | --- | --- | --- |"]
    lines += [f"| {k} | {v[0]} | {v[1]} | {v[2]} |" for k, v in sorted(fam.items())]
    lines += ["", f"Runs verified by kind: {run_counts(results)}."]
    lines += ["", "A model is verified when, in every run below, every transformed code object (resume "
              "functions included) was decompiled and the code that ran was compiled from the dumped file, "
              "and the outputs (and for training: loss, gradients and updated parameters) under "
              "`prepare_debug` and under `debug` equal plain `torch.compile` and eager mode "
              "(bitwise for eager/aot_eager, rtol=atol=1e-3 for inductor).", "",
              "| model | verified | frames | resume | from source | graphs | breaks | s | cpu s | runs | failure |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in results:
        frames = sum(x["frames"] for x in r["runs"])
        resume = sum(x["resume_frames"] for x in r["runs"])
        src = sum(x["recompiled"] for x in r["runs"])
        graphs = sum(x["graphs"] for x in r["runs"])
        breaks = sum(x["graph_breaks"] for x in r["runs"])
        fail = r["failure"].replace("|", "/").replace("\n", " ")[:300]
        lines.append(f"| {r['name']} | {'yes' if r['verified'] else 'no'} | {frames} | {resume} | {src} | "
                     f"{graphs} | {breaks} | {r['seconds']:.1f} | {r.get('cpu_seconds', 0.0):.1f} | {_runs_cell(r)} | {fail} |")
    notes = [f"- {r['name']} {run['label']}: {run['note']}" for r in results for run in r["runs"] if run.get("note")]
    if notes:
        lines += ["", "## Waived comparisons (marked *)", ""] + notes
    reasons = top_reasons(results)
    if reasons:
        lines += ["", "## Most frequent reasons (models affected)", ""]
        lines += [f"- {n}: {text[:400]}" for text, n in reasons]
    lines += ["", summary_line(results), ""]
    return "\n".join(lines)


def write_reports(results: List[Dict[str, Any]], out_dir: Path, tag: str, seconds: float) -> None:
    vers = versions()
    doc = {"tag": tag, "summary": summary_line(results), "runs_verified": run_counts(results),
           "seconds": round(seconds, 1),
           "cpu_seconds": round(sum(r.get("cpu_seconds", 0.0) for r in results), 1),
           "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "versions": vers, "models": results}
    (out_dir / f"{tag}.json").write_text(json.dumps(doc, indent=1) + "\n")
    (out_dir / f"{tag}.md").write_text(markdown(results, tag, seconds, vers))
