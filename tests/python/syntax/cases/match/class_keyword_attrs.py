# min: 3.10
class User:
    def __init__(self, name, admin):
        self.name, self.admin = name, admin

def role(u):
    match u:
        case User(admin=True, name=name):
            return "admin " + name
        case User(name=name):
            return "user " + name

def main():
    return role(User("a", True)), role(User("b", False))
