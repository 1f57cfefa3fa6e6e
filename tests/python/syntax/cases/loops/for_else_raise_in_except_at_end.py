# min: 3.8
# The loop is the except clause's last statement and the function's end:
# 3.12+ copies the implicit `return None` into each `break`.
import errno


def check(err, names):
    if names is not None:
        try:
            if err:
                raise OSError(err, "boom")
        except OSError as why:
            for name in names:
                if hasattr(errno, name) and why.errno == getattr(errno, name):
                    break
            else:
                raise


def main():
    out = []
    for err, names in [(errno.ENOENT, ("EPERM", "ENOENT")), (errno.EPERM, ("ENOENT",)), (0, ())]:
        try:
            out.append(check(err, names))
        except OSError as e:
            out.append(("raised", e.errno))
    return out
