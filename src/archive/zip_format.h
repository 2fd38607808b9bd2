// Byte layout of the zip records torchlet reads and writes, and little-endian field
// access. Shared by the reader and the writer so both spell every field once.
//
//   local file header (30 bytes + name + extra), then the record's bytes, then (when
//   flag bit 3 is set, as PyTorch writes) a data descriptor:
//     0  u32 signature 0x04034b50      14 u32 crc-32
//     4  u16 version needed            18 u32 compressed size
//     6  u16 flags                     22 u32 uncompressed size
//     8  u16 method (0 stored, 8 deflate)  26 u16 name length
//    10  u16 dos time  12 u16 dos date 28 u16 extra length
//   central directory header (46 bytes + name + extra + comment):
//     0 u32 0x02014b50, 4 u16 made by, 6 u16 needed, 8 u16 flags, 10 u16 method,
//    12 u16 time, 14 u16 date, 16 u32 crc, 20 u32 csize, 24 u32 usize, 28 u16 name len,
//    30 u16 extra len, 32 u16 comment len, 34 u16 disk, 36 u16 int attr, 38 u32 ext attr,
//    42 u32 local header offset
//   end of central directory (EOCD, 22 bytes + comment):
//     0 u32 0x06054b50, 4 u16 disk, 6 u16 cd disk, 8 u16 entries here, 10 u16 entries,
//    12 u32 cd size, 16 u32 cd offset, 20 u16 comment length
//   zip64 EOCD locator (20 bytes): 0 u32 0x07064b50, 4 u32 disk, 8 u64 zip64 EOCD offset,
//    16 u32 disks
//   zip64 EOCD (56 bytes): 0 u32 0x06064b50, 4 u64 size of rest (44), 12 u16 made by,
//    14 u16 needed, 16 u32 disk, 20 u32 cd disk, 24 u64 entries here, 32 u64 entries,
//    40 u64 cd size, 48 u64 cd offset
//   zip64 extra field (id 0x0001): the 64-bit values whose 32-bit fields hold 0xffffffff,
//    in the order usize, csize, local header offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace torchlet::zip {

inline constexpr uint32_t kLocalHeaderSignature = 0x04034b50;
inline constexpr uint32_t kCentralHeaderSignature = 0x02014b50;
inline constexpr uint32_t kEocdSignature = 0x06054b50;
inline constexpr uint32_t kZip64EocdSignature = 0x06064b50;
inline constexpr uint32_t kZip64LocatorSignature = 0x07064b50;
inline constexpr uint32_t kDataDescriptorSignature = 0x08074b50;

inline constexpr size_t kLocalHeaderSize = 30;
inline constexpr size_t kCentralHeaderSize = 46;
inline constexpr size_t kEocdSize = 22;
inline constexpr size_t kZip64EocdSize = 56;
inline constexpr size_t kZip64LocatorSize = 20;
inline constexpr uint16_t kZip64ExtraId = 0x0001;
// PyTorch pads each record so its bytes start aligned: an extra field "FB" + u16
// length + that many 'Z' bytes.
inline constexpr uint16_t kPaddingExtraId = 0x4246;  // "FB" little-endian

inline constexpr uint16_t kMethodStored = 0;
inline constexpr uint16_t kMethodDeflate = 8;
inline constexpr uint32_t kZip64Marker32 = 0xffffffffu;

inline uint16_t load_u16(const std::byte* p) {
  return static_cast<uint16_t>(std::to_integer<uint16_t>(p[0]) |
                               (std::to_integer<uint16_t>(p[1]) << 8));
}
inline uint32_t load_u32(const std::byte* p) {
  return static_cast<uint32_t>(load_u16(p)) | (static_cast<uint32_t>(load_u16(p + 2)) << 16);
}
inline uint64_t load_u64(const std::byte* p) {
  return static_cast<uint64_t>(load_u32(p)) | (static_cast<uint64_t>(load_u32(p + 4)) << 32);
}

inline void put_u16(std::string& out, uint16_t v) {
  out.push_back(static_cast<char>(v & 0xff));
  out.push_back(static_cast<char>(v >> 8));
}
inline void put_u32(std::string& out, uint32_t v) {
  put_u16(out, static_cast<uint16_t>(v & 0xffff));
  put_u16(out, static_cast<uint16_t>(v >> 16));
}
inline void put_u64(std::string& out, uint64_t v) {
  put_u32(out, static_cast<uint32_t>(v & 0xffffffffu));
  put_u32(out, static_cast<uint32_t>(v >> 32));
}

}  // namespace torchlet::zip
