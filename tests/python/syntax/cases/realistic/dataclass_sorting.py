# min: 3.8
from dataclasses import dataclass
from typing import List, Optional

@dataclass(order=True)
class Task:
    priority: int
    name: str = ""
    parent: Optional["Task"] = None

def schedule(tasks: List[Task]) -> List[str]:
    ready = sorted(t for t in tasks if t.parent is None or t.parent in tasks)
    return [f"{t.priority}:{t.name}" for t in ready]

def main():
    a = Task(2, "a")
    return schedule([Task(3, "c", a), a, Task(1, "b", Task(9))])
