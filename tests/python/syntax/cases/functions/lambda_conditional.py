# min: 3.8
def main():
    clamp = lambda v: 0 if v < 0 else 10 if v > 10 else v
    return [clamp(v) for v in (-5, 5, 50)]
