# min: 3.8
def main():
    try:
        1 / 0
    except:
        return "caught"
