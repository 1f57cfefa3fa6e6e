# min: 3.8
def first_upper(s):
    for ch in s:
        if ch.isupper():
            return ch
    return None

def main():
    return first_upper("abCd"), first_upper("xyz")
