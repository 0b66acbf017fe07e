import numpy as np

a = np.zeros((2, 3))
try:
    a + np.zeros(4)
except ValueError as error:
    print("ValueError:", error)
try:
    a.sum(axis=2)
except Exception as error:
    print("axis:", error)
try:
    a[5]
except IndexError as error:
    print("IndexError:", error)
try:
    a.reshape(4, 2)
except ValueError as error:
    print("ValueError:", error)
try:
    bool(a)
except ValueError as error:
    print("ValueError:", error)
try:
    np.zeros(2, dtype=np.int64) + "text"
except TypeError:
    print("TypeError")
try:
    np.ones((2, 2)) @ np.ones((3, 3))
except ValueError as error:
    print("ValueError:", error)
print(np.array([1.0, 0.0]) / 0)
print(np.log(np.array([0.0, -1.0])))
