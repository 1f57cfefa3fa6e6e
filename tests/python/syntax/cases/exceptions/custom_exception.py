# min: 3.8
class AppError(Exception):
    def __init__(self, code, msg="failure"):
        super().__init__(code, msg)
        self.code = code

def main():
    try:
        raise AppError(7)
    except AppError as e:
        return e.code, e.args
