"""What a corpus entry is: a name, a family and a function that builds the model
and its example inputs with random weights (nothing is downloaded)."""
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Tuple

# (module, positional inputs, keyword inputs)
Built = Tuple[Any, Tuple[Any, ...], Dict[str, Any]]


@dataclass(frozen=True)
class ModelSpec:
    name: str                         # unique across the corpus, e.g. "hf/bert"
    family: str                       # "hf", "timm" or "vision"
    build: Callable[[], Built] = field(compare=False, repr=False)
    train: bool = True                # False: inference only (say why in note)
    note: str = ""


def spec(family: str, name: str, build: Callable[[], Built], **kw: Any) -> ModelSpec:
    return ModelSpec(f"{family}/{name}", family, build, **kw)
