# expect: IndentationError
def f():
return 1
