# expect: NameError
print(__builtins__)
