# min: 3.8
def main():
    rows = [("a", 1), ("bb", 22)]
    text = ""
    for k, v in rows:
        text += f"""{k:<3}|
{v:03d}
"""
    return text
