"""Compile a small model under unveil's prepare_debug and show where the dump is.

    python examples/torch_demo.py [DUMP_DIR] [--backend eager|aot_eager|inductor]

Then open the files it lists: __transformed_code_*.py (what Dynamo runs),
__compiled_fn_*.<stage>.py (every graph stage), full_code_for_*.py (guards and
dispatch). Run it again with --debug to run the dumped code under pdb.
"""
import argparse
import os
import sys
import tempfile

import torch

import unveil.dynamo as ud


class TinyNet(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 4)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        if h.mean() > 0:  # a data-dependent branch: a graph break and two resume functions
            h = h * 2
        return self.fc2(h)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump_dir", nargs="?", default=os.path.join(tempfile.gettempdir(), "unveil_demo_dump"))
    ap.add_argument("--backend", default="aot_eager", choices=["eager", "aot_eager", "inductor"])
    ap.add_argument("--debug", action="store_true", help="stop in pdb before running the dumped code")
    args = ap.parse_args()

    torch.manual_seed(0)
    model = TinyNet()
    compiled = torch.compile(model, backend=args.backend)
    x = torch.randn(8, 16)
    with ud.prepare_debug(args.dump_dir) as folder:
        loss = compiled(x).pow(2).mean()
        loss.backward()
    print(f"loss {loss.item():.6f}; the dump is in {folder}:")
    for name in sorted(os.listdir(folder)):
        if not name.startswith("."):
            print("  ", name)
    with ud.debug(pause=args.debug):
        again = compiled(x).pow(2).mean()
    assert torch.equal(again, loss), "debug() changed the result"
    return 0


if __name__ == "__main__":
    sys.exit(main())
