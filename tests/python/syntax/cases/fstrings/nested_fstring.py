# min: 3.8
def main():
    a = 3
    return f"outer {f'inner {a}'} done"
