# expect: TimeoutError
# args: --timeout 1
items = list(iter(int, 1))
