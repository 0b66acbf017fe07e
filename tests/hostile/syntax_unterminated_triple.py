# expect: SyntaxError
x = '''abc
y = 1
