# min: 3.12
def call[*Ts, **P](f, *args):
    return f(*args)

def main():
    ts, p = call.__type_params__
    return call(max, 1, 5), type(ts).__name__, type(p).__name__
