import torch
import torch.nn as nn

# An "optimizer comparison" blog post: the same linear regression trained with each optimizer
# from one initialisation; the loss after each epoch block and the final weights.
torch.manual_seed(0)
X = torch.randn(64, 3)
true_w = torch.tensor([[2.0], [-3.4], [1.2]])
y = X @ true_w + 4.2 + 0.01 * torch.randn(64, 1)
optimizers = {
    "ASGD": lambda p: torch.optim.ASGD(p, lr=0.05),
    "Adadelta": lambda p: torch.optim.Adadelta(p),
    "Adamax": lambda p: torch.optim.Adamax(p, lr=0.1),
    "NAdam": lambda p: torch.optim.NAdam(p, lr=0.1),
    "RAdam": lambda p: torch.optim.RAdam(p, lr=0.1),
    "Rprop": lambda p: torch.optim.Rprop(p),
}
for name, make in optimizers.items():
    torch.manual_seed(1)
    net = nn.Linear(3, 1)
    opt = make(net.parameters())
    losses = []
    for epoch in range(30):
        opt.zero_grad()
        loss = nn.functional.mse_loss(net(X), y)
        loss.backward()
        opt.step()
        if epoch % 10 == 9:
            losses.append(f"{loss.item():.4f}")
    print(name, losses, net.weight.data, net.bias.data)
