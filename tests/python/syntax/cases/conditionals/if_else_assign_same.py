# min: 3.8
def f(flag):
    if flag:
        value = [1]
    else:
        value = [2]
    value.append(0)
    return value

def main():
    return f(True), f(False)
