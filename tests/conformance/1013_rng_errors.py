import torch


def attempt(label, f):
    try:
        print(label, f())
    except Exception as e:
        print(label, type(e).__name__, e)


attempt("randint", lambda: torch.randint(5, 3, (2,)))
attempt("uniform_ int", lambda: torch.empty(3, dtype=torch.int64).uniform_())
attempt("normal_ int", lambda: torch.empty(3, dtype=torch.int64).normal_())
attempt("randn int", lambda: torch.randn(3, dtype=torch.int32))
attempt("uniform_ bounds", lambda: torch.empty(3).uniform_(2, 1))
attempt("normal_ std", lambda: torch.empty(3).normal_(0, -1))
attempt("normal std", lambda: torch.normal(torch.zeros(2), -torch.ones(2)))
attempt("bernoulli_ p", lambda: torch.empty(3).bernoulli_(1.5))
attempt("bernoulli probs", lambda: torch.bernoulli(torch.tensor([1.5])))
attempt("multinomial 3d", lambda: torch.multinomial(torch.ones(2, 2, 2), 1))
attempt("multinomial 0", lambda: torch.multinomial(torch.ones(3), 0))
attempt("multinomial many", lambda: torch.multinomial(torch.ones(3), 4))
attempt("multinomial zero", lambda: torch.multinomial(torch.zeros(3), 1))
attempt("multinomial negative", lambda: torch.multinomial(torch.tensor([1.0, -1.0]), 1))
attempt("multinomial int", lambda: torch.multinomial(torch.ones(3, dtype=torch.int64), 1))
attempt("exponential_", lambda: torch.empty(3).exponential_(-1))
attempt("randperm", lambda: torch.randperm(-1))
attempt("set_state size", lambda: torch.Generator().set_state(torch.zeros(10, dtype=torch.uint8)))
attempt("set_state dtype", lambda: torch.Generator().set_state(torch.zeros(5056)))
attempt("set_rng_state", lambda: torch.set_rng_state([1, 2]))
attempt("seed overflow", lambda: torch.manual_seed(2**64))
attempt("leaf", lambda: torch.ones(3, requires_grad=True).uniform_())
attempt("dropout p", lambda: torch.nn.functional.dropout(torch.ones(3), 1.5))
