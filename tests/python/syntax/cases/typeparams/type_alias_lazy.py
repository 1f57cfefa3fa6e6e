# min: 3.12
type Later = Undefined

def main():
    try:
        Later.__value__
    except NameError as e:
        return "lazy", Later.__name__
