# min: 3.8
temp = 1

def drop():
    global temp
    del temp

def main():
    drop()
    return "temp" in globals()
