# Where Python tests truth (and how often): if/elif/while, conditional expressions, assert,
# comprehension filters, not, and/or in both value and test position.
class B:
    def __init__(self, name, value):
        self.name = name
        self.value = value

    def __bool__(self):
        print("  bool", self.name)
        return self.value

    def __repr__(self):
        return self.name


t, f = B("t", True), B("f", False)
print("value or:", f or t)
print("value and:", t and f)
print("value or3:", f or f or t)
print("value and3:", t and t and f)
print("value not-or:", not (t or f))
print("value not-and:", not (t and f))
print("if or")
if t or f:
    print("  taken")
print("if and / else")
if f and t:
    print("  no")
else:
    print("  else")
print("if not or")
if not (f or t):
    print("  no")
print("elif")
if f:
    print("  no")
elif f or t:
    print("  elif taken")
print("mixed")
if (f and t) or (t and not f):
    print("  taken")
print("ternary:", 1 if f or t else 2)
print("ternary not:", 1 if not (t and f) else 2)
print("comprehension:", [i for i in range(2) if t and f or t])
print("comprehension not:", [i for i in range(2) if not (f or f)])
print("while")
count = 0
while f or count < 2:
    count += 1
print("  count", count)
print("assert")
assert t or f, "not raised"
assert not (f and t)
try:
    assert f or f, "raised"
except AssertionError as error:
    print("  AssertionError:", error)
print("chains")
print(1 < 2 < B("c", True).value, 3 < 2 < 1)
