// `torchlet script` and `torchlet graph SOURCE.py` (save_script_archive and
// source_graphs, declared in the public <torchlet/jit.h>): TorchScript source -> a
// torch.jit.save archive real torch.jit.load reads. The source is compiled by torchlet
// (so errors are reported here, with torch's highlight), wrapped in a module — the
// layout torch.jit.save gives a scripted function: a PlaceholderModule whose forward
// calls the chosen function — and saved through the python printer, so the archive
// holds torch-style code for the functions and every class they use. The module also
// has one method per function of the source, so each can be called on the loaded module.
#pragma once

#include <torchlet/jit.h>
