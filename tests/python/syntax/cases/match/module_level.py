# min: 3.10
import sys
match sys.version_info[:2]:
    case (3, minor) if minor >= 10:
        KIND = "new"
    case _:
        KIND = "old"

def main():
    return KIND, minor
