# min: 3.8
# A module-level `while True:` left by `break`: 3.10+ copies the module's
# final return into the break, and a module has no return statement.
items = [3, 2, 1]
seen = []
while True:
    x = items.pop()
    if x > 2:
        break
    seen.append(x)

def main():
    return seen, items
