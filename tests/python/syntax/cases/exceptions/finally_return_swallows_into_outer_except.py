# min: 3.8
class Stop(Exception):
    pass


def swallow(k):
    try:
        try:
            if k:
                raise Stop
        finally:
            return None
    except Stop:
        return 7


def swallow_value(k):
    try:
        try:
            if k:
                raise Stop
        finally:
            return 5
    except Stop:
        return 7


def main():
    return swallow(True), swallow(False), swallow_value(True), swallow_value(False)
