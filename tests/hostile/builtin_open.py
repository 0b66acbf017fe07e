# expect: NameError
open("pwned.txt", "w").write("x")
