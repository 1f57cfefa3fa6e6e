# min: 3.8
def main():
    out = []
    for attempt in range(2):
        try:
            raise ValueError(attempt)
        except ValueError as err:
            out.append(err.args)
    err = "reassigned"
    return out, err
