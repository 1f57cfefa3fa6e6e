# min: 3.8
import collections as col
import os.path as osp

def main():
    return col.Counter("aab")["a"], osp.splitext("x.py")
