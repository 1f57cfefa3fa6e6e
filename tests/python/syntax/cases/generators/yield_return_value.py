# min: 3.8
def main():
    yield "a"
    return "finished"
