# min: 3.10
def run(events):
    state = "idle"
    trace = []
    for ev in events:
        match state, ev:
            case "idle", "start":
                state = "running"
            case "running", ("tick", n) if n > 0:
                trace.append(n)
            case "running", "stop":
                state = "stopped"
                break
            case _, unknown:
                trace.append(("ignored", unknown))
    return state, trace

def main():
    return run(["start", ("tick", 1), ("tick", 0), "stop", "start"])
