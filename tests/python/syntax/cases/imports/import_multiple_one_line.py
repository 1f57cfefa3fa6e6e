# min: 3.8
import sys, os.path, math as m

def main():
    return m.floor(2.5), callable(os.path.join), hasattr(sys, "version_info")
