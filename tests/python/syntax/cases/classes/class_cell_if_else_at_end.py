# min: 3.8
# A class whose body ends in if/else and whose methods use __class__ (super()):
# 3.12+ copies the body's `return __classcell__` into both arms.
import sys


class Base:
    def name(self):
        return "base"


class Child(Base):
    def name(self):
        return "child of " + super().name()

    if sys.maxsize > 2:
        size = "big"
    else:
        size = "small"


def main():
    return Child().name(), Child.size
