# expect: NameError
print(vars())
