# min: 3.8
class Sock:
    def __init__(self, chunks):
        self.chunks = list(chunks)

    def send(self, data):
        step = self.chunks.pop(0)
        if step is None:
            raise BlockingIOError
        return min(step, len(data))


def send_all(data, sock_send):
    total = 0
    while True:
        try:
            sent = sock_send(data)
        except BlockingIOError:
            continue
        else:
            total += sent
            if sent < len(data):
                data = data[sent:]
            else:
                break
    return total


def send_with_finally(data, sock_send, log):
    total = 0
    try:
        while True:
            try:
                sent = sock_send(data)
            except BlockingIOError:
                continue
            total += sent
            if sent < len(data):
                data = data[sent:]
            else:
                break
        return total
    finally:
        if total > 0:
            log.append(total)


def main():
    log = []
    return [
        send_all(b"abcdef", Sock([2, None, 3, None, 5]).send),
        send_with_finally(b"abcd", Sock([None, 1, 9]).send, log),
        log,
    ]
