# expect: SyntaxError
x = 'abc
