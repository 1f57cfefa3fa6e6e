# min: 3.8
class Bank:
    def __init__(self):
        self.balance = 0
    def depositor(self):
        def deposit(n):
            self.balance += n
            return self.balance
        return deposit

def main():
    b = Bank()
    d = b.depositor()
    d(5)
    return d(7)
