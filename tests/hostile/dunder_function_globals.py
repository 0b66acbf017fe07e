# expect: AttributeError
def f():
    pass


builtins = f.__globals__["__builtins__"]
