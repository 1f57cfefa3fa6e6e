# min: 3.8
from dataclasses import dataclass, field

@dataclass
class Item:
    name: str
    price: float = 0.0
    tags: list = field(default_factory=list)

def main():
    i = Item("pen", 1.5)
    return repr(i), i == Item("pen", 1.5)
