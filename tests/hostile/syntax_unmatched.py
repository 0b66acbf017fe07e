# expect: SyntaxError
x = [1, 2)
