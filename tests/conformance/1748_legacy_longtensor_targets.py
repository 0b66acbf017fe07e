# Classifier tutorials build cross-entropy targets with torch.LongTensor(labels).
import torch
import torch.nn as nn

torch.manual_seed(0)
labels = [2, 0, 1, 2]
target = torch.LongTensor(labels)
print(target, target.dtype, target.type())
logits = torch.FloatTensor([[0.1, 0.2, 0.9], [1.2, 0.1, -0.3], [0.0, 0.5, 0.2], [0.3, 0.3, 1.5]])
logits.requires_grad_()
loss = nn.CrossEntropyLoss()(logits, target)
print(loss)
loss.backward()
print(logits.grad)
print(isinstance(target, torch.LongTensor), isinstance(target, torch.IntTensor))
