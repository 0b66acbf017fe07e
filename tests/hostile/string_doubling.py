# expect: MemoryError
s = "x"
while True:
    s = s + s
