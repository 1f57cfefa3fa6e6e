# min: 3.8
def main():
    import json
    from itertools import chain as ch
    return json.dumps([1]), list(ch([1], [2]))
