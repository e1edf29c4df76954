// SPDX-License-Identifier: Apache-2.0
// The file format between the Windows runner (DirectML results) and the Linux comparer: one
// record per case, little-endian: u64 case index, u32 status code (0 = ok), u32 message length,
// message bytes, u32 output count, then per output: u64 length, bytes.
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
  std::vector<std::vector<uint8_t>> outputs;  // binding order
};

inline bool WriteRecord(std::FILE* f, const Record& r) {
  const uint32_t message_bytes = static_cast<uint32_t>(r.message.size());
  const uint32_t output_count = static_cast<uint32_t>(r.outputs.size());
  bool ok = std::fwrite(&r.index, 8, 1, f) == 1 && std::fwrite(&r.code, 4, 1, f) == 1 &&
            std::fwrite(&message_bytes, 4, 1, f) == 1 &&
            std::fwrite(r.message.data(), 1, message_bytes, f) == message_bytes &&
            std::fwrite(&output_count, 4, 1, f) == 1;
  for (const std::vector<uint8_t>& output : r.outputs) {
    const uint64_t output_bytes = output.size();
    ok = ok && std::fwrite(&output_bytes, 8, 1, f) == 1 &&
         std::fwrite(output.data(), 1, output_bytes, f) == output_bytes;
  }
  return ok;
}

// False at the end of the file or on a truncated record.
inline bool ReadRecord(std::FILE* f, Record* r) {
  uint32_t message_bytes = 0;
  uint32_t output_count = 0;
  if (std::fread(&r->index, 8, 1, f) != 1 || std::fread(&r->code, 4, 1, f) != 1 ||
      std::fread(&message_bytes, 4, 1, f) != 1 || message_bytes > (1u << 20)) {
    return false;
  }
  r->message.resize(message_bytes);
  if (std::fread(&r->message[0], 1, message_bytes, f) != message_bytes) return false;
  if (std::fread(&output_count, 4, 1, f) != 1 || output_count > 1024) return false;
  r->outputs.assign(output_count, {});
  for (std::vector<uint8_t>& output : r->outputs) {
    uint64_t output_bytes = 0;
    if (std::fread(&output_bytes, 8, 1, f) != 1 || output_bytes > (uint64_t{1} << 32)) return false;
    output.resize(output_bytes);
    if (std::fread(output.data(), 1, output_bytes, f) != output_bytes) return false;
  }
  return true;
}

}  // namespace dmlcpu_crosscheck

#endif  // DMLCPU_TESTS_D3D12_CROSSCHECK_RECORD_H_
