"""A real PyTorch training job that runs out of memory: a small MLP whose batch doubles
every step until an allocation fails. Prints its step times; the OOM ends it with
PyTorch's own message and exit code 1."""
import time
import torch

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4096, 8192), torch.nn.ReLU(), torch.nn.Linear(8192, 4096)).cuda()
opt = torch.optim.AdamW(model.parameters())
batch = 1024
while True:
    t0 = time.time()
    x = torch.randn(batch, 4096, device="cuda")
    loss = model(x).square().mean()
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    torch.cuda.synchronize()
    print(f"batch {batch}: step {time.time() - t0:.3f} s", flush=True)
    batch *= 2
