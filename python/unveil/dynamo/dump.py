"""The dump directory: one folder per process or rank, files named by compile id."""
import json
import os
import re
import time
from pathlib import Path
from typing import Dict, List, Optional

MANIFEST = "unveil_dump.json"
_OWNER = ".unveil-owner"


def safe_name(text: str) -> str:
    """A file-name-safe form of a function name or compile id ("0/1" -> "0_1")."""
    out = re.sub(r"[^A-Za-z0-9_]+", "_", text).strip("_")
    return out or "anonymous"


def compile_key(compile_id: Optional[str]) -> str:
    """The file key of a compile id: "0/0" -> "0_0", "!1/0/2" -> "ca1_0_2"."""
    if not compile_id:
        return "unknown"
    cid = compile_id.strip()
    prefix = ""
    if cid.startswith("!"):
        first, _, cid = cid[1:].partition("/")
        prefix = f"ca{first}_"
    return prefix + safe_name(cid)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _claim(owner: Path) -> bool:
    """Atomically make this process the writer of ``owner``'s folder, unless a
    live other process already is."""
    for _ in range(3):
        try:
            fd = os.open(owner, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                other = int(owner.read_text().strip() or "0")
            except (OSError, ValueError):
                other = 0
            if other == os.getpid():
                return True
            if other and _pid_alive(other):
                return False
            try:  # a dead owner: take over
                owner.unlink()
            except FileNotFoundError:
                pass
            continue
        with os.fdopen(fd, "w") as f:
            f.write(str(os.getpid()))
        return True
    return False


def resolve_folder(root: Path, rank: Optional[int]) -> Path:
    """``root/rank_<r>`` for a distributed rank; ``root`` for a lone process, or
    ``root/process_<pid>`` when another live process already writes ``root``."""
    if rank is None and os.environ.get("RANK", "").isdigit() and os.environ.get("WORLD_SIZE"):
        rank = int(os.environ["RANK"])
    if rank is not None:
        return root / f"rank_{rank}"
    return root if _claim(root / _OWNER) else root / f"process_{os.getpid()}"


class DumpDir:
    def __init__(self, root: "os.PathLike[str] | str", rank: Optional[int] = None) -> None:
        self.root = Path(root).expanduser().resolve()
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PermissionError(f"unveil: cannot create dump directory {self.root}: {exc}") from exc
        if not os.access(self.root, os.W_OK | os.X_OK):
            raise PermissionError(f"unveil: dump directory {self.root} is not writable")
        self.folder = resolve_folder(self.root, rank)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            probe = self.folder / f".unveil-probe-{os.getpid()}"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise PermissionError(f"unveil: dump directory {self.folder} is not writable: {exc}") from exc
        self.written: List[Path] = []
        self.manifest: Dict[str, Dict[str, str]] = {}
        self.seconds: Dict[str, float] = {}  # "decompile", "write": where dumping spends time

    @classmethod
    def existing(cls, folder: "os.PathLike[str] | str") -> "DumpDir":
        """An earlier dump's folder, opened to reuse its files (no ownership claimed)."""
        self = cls.__new__(cls)
        self.root = self.folder = Path(folder).resolve()
        self.written, self.manifest, self.seconds = [], {}, {}
        return self

    def clean_stale(self) -> int:
        """Remove the files an earlier process's dump listed in this folder (only
        those: nothing else in the directory is touched). Returns how many."""
        mpath = self.folder / MANIFEST
        try:
            old = json.loads(mpath.read_text())
        except (OSError, ValueError):
            return 0
        if old.get("pid") == os.getpid():
            return 0  # an earlier block of this process: its files stay
        removed = 0
        for name in old.get("files", {}):
            p = (self.folder / name).resolve()
            if self.folder in p.parents and p.is_file():
                p.unlink()
                removed += 1
        mpath.unlink()
        return removed

    def path(self, name: str) -> Path:
        return self.folder / name

    def write(self, name: str, text: str, **meta: str) -> Path:
        t0 = time.perf_counter()
        try:
            return self._write(name, text, **meta)
        finally:
            self.seconds["write"] = self.seconds.get("write", 0.0) + time.perf_counter() - t0

    def _write(self, name: str, text: str, **meta: str) -> Path:
        path = self.folder / name
        tmp = path.with_name(path.name + f".tmp{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)  # readers never see half a file
        if path not in self.written:
            self.written.append(path)
        self.manifest[name] = dict(meta)
        return path

    def unique(self, stem: str, suffix: str = ".py") -> str:
        """``stem + suffix``, or ``stem.<n> + suffix`` when this dump already has it."""
        name = stem + suffix
        n = 1
        while self.folder / name in self.written:
            name = f"{stem}.{n}{suffix}"
            n += 1
        return name

    def finish(self) -> Path:
        old = {}
        mpath = self.folder / MANIFEST
        if mpath.exists():
            try:
                old = json.loads(mpath.read_text())
            except ValueError:
                old = {}
        files = dict(old.get("files", {}))
        files.update(self.manifest)
        self.write(MANIFEST, json.dumps({"pid": os.getpid(), "files": files}, indent=1))
        if self.folder == self.root:
            try:
                (self.root / _OWNER).unlink()
            except OSError:
                pass
        return mpath


def find_dump(root: "os.PathLike[str] | str") -> Optional[Path]:
    """The folder under ``root`` holding a dump manifest (root itself first)."""
    root = Path(root).expanduser().resolve()
    if (root / MANIFEST).exists():
        return root
    rank = os.environ.get("RANK")
    for cand in ([root / f"rank_{rank}"] if rank else []) + sorted(root.glob("*")):
        if (cand / MANIFEST).exists():
            return cand
    return None
