# min: 3.8
try:
    import definitely_not_a_module_xyz as mod
except ImportError:
    mod = None

def main():
    return mod
