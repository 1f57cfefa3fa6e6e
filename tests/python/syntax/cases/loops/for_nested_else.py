# min: 3.8
def primes(n):
    out = []
    for k in range(2, n):
        for d in range(2, k):
            if k % d == 0:
                break
        else:
            out.append(k)
    return out

def main():
    return primes(20)
