"""The OS jail: what a child process does to itself before it runs untrusted code.

`lockdown` applies every protection this machine allows (namespaces and an empty root, Landlock,
rlimits, no_new_privs, a seccomp allow-list); `probe` says which of them hold here. The parent
side (forking, deadlines, output) is `cli/jail/isolation.py`.
"""
