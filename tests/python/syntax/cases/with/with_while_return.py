# min: 3.8
import threading

def main():
    lock = threading.Lock()
    n = 0
    while True:
        with lock:
            n += 1
            if n == 3:
                return n, lock.locked()
