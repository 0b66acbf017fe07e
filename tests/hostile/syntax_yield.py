# expect: SyntaxError
def g():
    yield 1
