// Intra-op parallelism as torch exposes it (torch.get_num_threads, torch.set_num_threads,
// ATen's Parallel.h): how many threads one operator may split its work over.
#pragma once

namespace torchlet {

// Default: the machine's hardware concurrency (or OMP_NUM_THREADS).
int get_num_threads();
// Below 1 counts as 1.
void set_num_threads(int n);

}  // namespace torchlet
