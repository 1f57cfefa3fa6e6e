# min: 3.8
def main():
    try:
        yield "body"
    finally:
        yield "finally"
