# min: 3.8
import os

def main():
    return os.path.basename("/a/b.txt")
