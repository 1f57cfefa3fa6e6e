# min: 3.8
class Documented:
    """The class docstring."""
    def method(self):
        """The method docstring."""
        return 1

def main():
    return Documented.__doc__, Documented.method.__doc__
