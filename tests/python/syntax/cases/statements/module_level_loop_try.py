# min: 3.8
RESULTS = []
for _i in range(3):
    try:
        RESULTS.append(10 // (_i - 1))
    except ZeroDivisionError:
        RESULTS.append(None)

def main():
    return RESULTS
