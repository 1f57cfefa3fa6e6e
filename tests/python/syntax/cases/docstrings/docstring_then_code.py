# min: 3.8
class C:
    """Class doc."""
    x = 1

    def m(self):
        """Method doc."""
        y = 2
        return y

def main():
    return C.__doc__, C.m.__doc__, C().m()
