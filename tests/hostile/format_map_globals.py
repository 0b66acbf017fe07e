# expect: AttributeError
def f():
    pass


print("{x.__globals__}".format_map({"x": f}))
