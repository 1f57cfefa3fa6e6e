# min: 3.8
def main():
    order = []
    data = {"k": 1}
    def obj():
        order.append("obj")
        return data
    def key():
        order.append("key")
        return "k"
    def val():
        order.append("val")
        return 5
    obj()[key()] += val()
    return data, order
