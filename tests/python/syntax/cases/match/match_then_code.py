# min: 3.10
def f(cmd, log):
    match cmd.split():
        case ["go", direction]:
            log.append(direction)
        case ["drop", *objects]:
            log.extend(objects)
        case ["quit" | "exit"]:
            return None
    log.append("done")
    match len(log):
        case 0:
            return "empty"
    return log

def main():
    return f("go north", []), f("drop a b", []), f("quit", []), f("look", [])
