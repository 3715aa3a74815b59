"""A PyTorch job with a process tree: 4 DataLoader workers that each put a tensor on the
GPU (a CUDA context apiece), and a child forked before CUDA starts in the parent, which
holds 1 GiB itself. The parent trains for STEPS steps (default 30) and prints each step's
time. `python3 tree_job.py [STEPS]`."""
import os, sys, time
import torch

class Data(torch.utils.data.Dataset):
    def __len__(self):
        return 10**6

    def __getitem__(self, i):
        return torch.randn(1024)


def touch_cuda(_):
    global held
    held = torch.ones(64 * 2**20 // 4, device="cuda")


# Spawned workers import this file again: only the parent runs the job.
if __name__ == "__main__":
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    child = os.fork()
    if child == 0:
        y = torch.empty(2**30, dtype=torch.uint8, device="cuda")
        time.sleep(30)
        os._exit(0)

    loader = torch.utils.data.DataLoader(Data(), batch_size=256, num_workers=4,
                                         worker_init_fn=touch_cuda, multiprocessing_context="spawn",
                                         persistent_workers=True)
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(), torch.nn.Linear(4096, 1024)).cuda()
    opt = torch.optim.AdamW(model.parameters())
    it = iter(loader)
    for step in range(steps):
        t0 = time.time()
        # 32 copies of the batch and 100 updates: about 0.2 s of GPU work a step on an H100.
        x = next(it).cuda().repeat(32, 1)
        for _ in range(100):
            loss = model(x).square().mean()
            loss.backward()
            opt.step()
            opt.zero_grad(set_to_none=True)
        torch.cuda.synchronize()
        print(f"step {step}: {time.time() - t0:.4f} s", flush=True)
    os.kill(child, 9)
    os.waitpid(child, 0)
