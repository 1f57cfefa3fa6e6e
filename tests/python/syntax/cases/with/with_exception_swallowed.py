# min: 3.8
class Swallow:
    def __enter__(self):
        return self
    def __exit__(self, kind, value, tb):
        self.seen = kind.__name__ if kind else None
        return True

def main():
    s = Swallow()
    with s:
        raise ValueError("gone")
    return s.seen
