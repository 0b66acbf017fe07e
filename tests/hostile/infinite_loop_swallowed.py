# expect: TimeoutError
# args: --timeout 1
while True:
    try:
        while True:
            pass
    except:
        pass
