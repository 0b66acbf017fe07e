# A small MLP with BatchNorm1d trained by SGD: losses, running statistics, train vs eval outputs,
# the module's repr and state_dict, num_batches_tracked and momentum=None (cumulative average).
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.linspace(-1.0, 1.0, 24).reshape(8, 3)
y = (x[:, :1] * 2.0 - x[:, 1:2] + 0.5 * x[:, 2:] ** 2).sin()

model = nn.Sequential(nn.Linear(3, 5), nn.BatchNorm1d(5), nn.Tanh(), nn.Linear(5, 1))
print(model)
print(list(model.state_dict().keys()))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(6):
    opt.zero_grad()
    out = model(x)
    loss = ((out - y) ** 2).mean()
    loss.backward()
    opt.step()
    print(step, f"{loss.item():.6f}", out.grad_fn.next_functions[0][0].name())
bn = model[1]
print(bn.num_batches_tracked)
print(bn.running_mean)
print(bn.running_var)
print(bn.weight.grad)
print(bn.bias.grad)
with torch.no_grad():
    train_out = model(x[:4])
model.eval()
with torch.no_grad():
    eval_out = model(x[:4])
print(train_out)
print(eval_out)
print(bn.num_batches_tracked, bn.training)

cumulative = nn.BatchNorm1d(2, momentum=None, affine=False)
print(cumulative)
for k in range(3):
    cumulative(torch.tensor([[1.0, 2.0], [3.0, 5.0], [0.0, -1.0]]) * (k + 1))
    print(cumulative.running_mean, cumulative.running_var, cumulative.num_batches_tracked)
cumulative.reset_running_stats()
print(cumulative.running_mean, cumulative.running_var, cumulative.num_batches_tracked)

stateless = nn.BatchNorm1d(3, track_running_stats=False, bias=False)
print(stateless, stateless.running_mean, list(stateless.state_dict().keys()))
stateless.eval()
print(stateless(x[:4]))
