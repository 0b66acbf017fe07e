# expect: MemoryError
print(format(1, ">99999999999"))
