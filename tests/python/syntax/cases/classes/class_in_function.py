# min: 3.8
def factory(base_value):
    class Local:
        value = base_value
        def double(self):
            return self.value * 2
    return Local

def main():
    return factory(21)().double(), factory(1).__qualname__
