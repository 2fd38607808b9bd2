// A pickle disassembler in the spirit of `python -m pickletools`: one line per opcode
// with its offset, name and decoded argument, indented by MARK depth. It reads with the
// same table and argument decoder as the unpickler, and builds nothing.
#pragma once

#include <span>
#include <string>

namespace torchlet::pickle {

// Disassembles the pickle at the start of `data`; stops after STOP. Malformed input
// ends the listing with a line naming the error instead of throwing.
std::string disassemble(std::span<const std::byte> data, const std::string& label);

}  // namespace torchlet::pickle
