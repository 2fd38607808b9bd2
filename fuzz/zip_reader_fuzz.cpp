// Fuzz target: the zip reader on arbitrary bytes, then every record read with CRC
// checks. Any torchlet::Error is a correct refusal; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include <torchlet/error.h>

#include "archive/zip_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    auto z = torchlet::ZipReader::from_bytes(
        std::span<const std::byte>(reinterpret_cast<const std::byte*>(data), size), "fuzz.zip");
    for (const auto& r : z.records()) {
      if (r.uncompressed_size > (1u << 24)) continue;  // keep each run fast and small
      (void)z.read(r, /*verify_crc=*/true);
    }
  } catch (const torchlet::Error&) {
  }
  return 0;
}
