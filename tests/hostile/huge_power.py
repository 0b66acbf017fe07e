# expect: OverflowError
x = 10**10**10
