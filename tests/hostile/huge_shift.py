# expect: OverflowError
x = 1 << 10**10
