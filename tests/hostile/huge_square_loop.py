# expect: OverflowError
x = 3
while True:
    x = x * x
