# The kernels PyTorch's cuBLAS(Lt) launches for given shapes, with their mean device time (profiler).
import sys, torch
from torch.profiler import profile, ProfilerActivity
for spec in sys.argv[1:]:
    shape, _, dt = spec.partition('/')
    shape, _, lay = shape.partition(':')
    m, n, k = (int(x) for x in shape.split('x'))
    t = {'bf16': torch.bfloat16, 'f16': torch.float16, 'f32': torch.float32}[dt or 'bf16']
    a = torch.rand(m, k, device='cuda', dtype=t) - 0.5
    b = (torch.rand(n, k, device='cuda', dtype=t) - 0.5).t() if lay == 'nt' else torch.rand(k, n, device='cuda', dtype=t) - 0.5
    for _ in range(3): a @ b
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(10): a @ b
        torch.cuda.synchronize()
    for e in p.key_averages():
        if e.device_type.name == 'CUDA':
            print(spec, "%8.2f us x%d" % (e.device_time_total / max(e.count, 1), e.count), e.key, flush=True)
