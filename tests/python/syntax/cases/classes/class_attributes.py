# min: 3.8
class Config:
    debug = False
    level = 3
    name = "cfg"

def main():
    return Config.debug, Config.level, Config.name
