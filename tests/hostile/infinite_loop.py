# expect: TimeoutError
# args: --timeout 1
while True:
    pass
