# min: 3.11
def main():
    try:
        try:
            raise ExceptionGroup("g", [ValueError("v"), OSError("o")])
        except* ValueError:
            print("handled value")
    except ExceptionGroup as rest:
        return [type(e).__name__ for e in rest.exceptions]
