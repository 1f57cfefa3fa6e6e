# min: 3.8
class Plugin:
    registry = []
    def __init_subclass__(cls, name="?", **kw):
        super().__init_subclass__(**kw)
        Plugin.registry.append(name)

class One(Plugin, name="one"):
    pass

class Two(Plugin):
    pass

def main():
    return Plugin.registry
