# expect: AttributeError
class A:
    def m(self):
        pass


A().m.__func__.__globals__
