# min: 3.8
class Secret:
    def __init__(self):
        self.__hidden = "h"
    def reveal(self):
        return self.__hidden

def main():
    s = Secret()
    return s.reveal(), "_Secret__hidden" in vars(s)
