# expect: IndentationError
x = 1
    y = 2
