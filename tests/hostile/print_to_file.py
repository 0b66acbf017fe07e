# expect: TypeError
print("x", file=None)
