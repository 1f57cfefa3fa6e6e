# min: 3.8
def main():
    k = "key"
    return {k: 1, "b": [2], 3: {4}}, {1, 2, 2}, {}, set(), (), [], (1,)
