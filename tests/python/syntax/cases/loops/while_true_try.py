# min: 3.8
def main():
    attempts = 0
    while True:
        try:
            attempts += 1
            if attempts < 3:
                raise OSError(attempts)
            break
        except OSError as e:
            print("retry", e.args)
    return attempts
