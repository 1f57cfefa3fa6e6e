# min: 3.8
def make():
    global created
    created = "yes"

def main():
    make()
    return created
