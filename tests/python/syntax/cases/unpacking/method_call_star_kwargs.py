# min: 3.8
class T:
    def m(self, *a, **k):
        return len(a), len(k)

def main():
    t = T()
    args = [1, 2, 3]
    return t.m(*args), t.m(**{"x": 1}), t.m(*args, y=2)
