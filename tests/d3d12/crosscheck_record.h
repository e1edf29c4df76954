// SPDX-License-Identifier: Apache-2.0
// The file format between the Windows runner (DirectML results) and the Linux comparer: one
// record per case, little-endian: u64 case index, u32 status code (0 = ok), u32 message length,
// message bytes, u64 output length, output bytes.
#ifndef DMLCPU_TESTS_D3D12_CROSSCHECK_RECORD_H_
#define DMLCPU_TESTS_D3D12_CROSSCHECK_RECORD_H_

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace dmlcpu_crosscheck {

struct Record {
  uint64_t index = 0;
  uint32_t code = 0;
  std::string message;
  std::vector<uint8_t> output;
};

inline bool WriteRecord(std::FILE* f, const Record& r) {
  const uint32_t message_bytes = static_cast<uint32_t>(r.message.size());
  const uint64_t output_bytes = r.output.size();
  return std::fwrite(&r.index, 8, 1, f) == 1 && std::fwrite(&r.code, 4, 1, f) == 1 &&
         std::fwrite(&message_bytes, 4, 1, f) == 1 &&
         std::fwrite(r.message.data(), 1, message_bytes, f) == message_bytes &&
         std::fwrite(&output_bytes, 8, 1, f) == 1 &&
         std::fwrite(r.output.data(), 1, output_bytes, f) == output_bytes;
}

// False at the end of the file or on a truncated record.
inline bool ReadRecord(std::FILE* f, Record* r) {
  uint32_t message_bytes = 0;
  uint64_t output_bytes = 0;
  if (std::fread(&r->index, 8, 1, f) != 1 || std::fread(&r->code, 4, 1, f) != 1 ||
      std::fread(&message_bytes, 4, 1, f) != 1 || message_bytes > (1u << 20)) {
    return false;
  }
  r->message.resize(message_bytes);
  if (std::fread(&r->message[0], 1, message_bytes, f) != message_bytes) return false;
  if (std::fread(&output_bytes, 8, 1, f) != 1 || output_bytes > (uint64_t{1} << 32)) return false;
  r->output.resize(output_bytes);
  return std::fread(r->output.data(), 1, output_bytes, f) == output_bytes;
}

}  // namespace dmlcpu_crosscheck

#endif  // DMLCPU_TESTS_D3D12_CROSSCHECK_RECORD_H_
