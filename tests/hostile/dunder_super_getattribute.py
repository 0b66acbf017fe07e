# expect: AttributeError
class A:
    def f(self):
        return super().__getattribute__("__dict__")


A().f()
