# min: 3.8
def main():
    try:
        int("x")
    except ValueError as e:
        msg = str(e)
    return msg
