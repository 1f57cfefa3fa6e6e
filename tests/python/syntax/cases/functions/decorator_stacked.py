# min: 3.8
import functools

def tag(t):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper():
            return "<%s>%s</%s>" % (t, fn(), t)
        return wrapper
    return deco

@tag("b")
@tag("i")
def text():
    return "x"

def main():
    return text(), text.__name__
