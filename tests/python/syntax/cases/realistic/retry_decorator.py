# min: 3.8
import functools

def retry(times, exceptions=(Exception,)):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            last = None
            for attempt in range(1, times + 1):
                try:
                    return fn(*args, attempt=attempt, **kwargs)
                except exceptions as e:
                    last = e
                    print("attempt", attempt, "failed:", e)
            raise RuntimeError("gave up") from last
        return wrapper
    return deco

@retry(3, exceptions=(ValueError,))
def flaky(limit, attempt):
    if attempt < limit:
        raise ValueError(attempt)
    return "ok on %d" % attempt

def main():
    out = [flaky(2)]
    try:
        flaky(5)
    except RuntimeError as e:
        out.append((e.args, type(e.__cause__).__name__))
    return out
