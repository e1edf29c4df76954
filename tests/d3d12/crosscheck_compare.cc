// SPDX-License-Identifier: Apache-2.0
// Linux side of the cross-check: regenerates the cases of a seeded run, executes each on the
// native CPU backend and on the naive reference, and compares with the DirectML records the
// Windows runner wrote.
//
//   crosscheck_compare SEED COUNT RECORDS_FILE [--raw] [CRASHED_INDEX...]
// --raw: the records come from DMLCPU_D3D12_RAW_DIRECTML=1 (descriptors passed unchanged).
//
// Per case: the CPU backend must equal the reference (dmlcpu's own rule, always). DirectML must
// have run and written every output element and nothing else (sentinel). In-range cases must be
// byte-identical to the CPU (the scatters' in-range cases never send two updates to one element).
// Out-of-range cases: DirectML clamps a gather's read address, dmlcpu each coordinate
// (docs/semantics.md#observed-directml-behaviour); DirectML drops a scatter's write by address,
// dmlcpu by coordinate (docs/semantics.md#scatter-and-scatter_nd); so only "DirectML ran" is
// required. Descriptors of the two DirectML bugs listed there, and cases DirectML crashed on under
// wine, are reported, not counted as failures of either side; the D3D12 backend avoids the two bugs
// with equivalent descriptors, so without --raw those cases must be byte-identical too.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "d3d12/crosscheck_cases.h"
#include "d3d12/crosscheck_record.h"
#include "dmlcpu/dmlcpu.h"
#include "reference/reference.h"

namespace {

using dmlcpu_crosscheck::Case;

using Outputs = std::vector<std::vector<uint8_t>>;

// Every logical element of every output was written (its first byte is no longer the sentinel,
// which no input element starts with) and no other byte changed, except where `gaps_may_change`
// (then *gap_written says whether one did).
bool WroteExactlyTheOutputs(const Case& c, const Outputs& outs, bool gaps_may_change,
                            bool* gap_written, std::string* why) {
  *gap_written = false;
  for (size_t o = 0; o < c.outputs.size(); ++o) {
    const std::vector<uint8_t>& out = outs[o];
    const std::string name = "output " + std::to_string(o);
    std::vector<uint8_t> expect_untouched(out.size(), 1);
    const uint32_t width = dmlcpu_crosscheck::ElementBytes(c.outputs[o].data_type);
    for (uint64_t off : dmlcpu_crosscheck::ElementOffsets(c.outputs[o])) {
      if (out[off] == dmlcpu_crosscheck::kSentinelByte) {
        *why = name + " element at byte " + std::to_string(off) + " was not written";
        return false;
      }
      std::memset(expect_untouched.data() + off, 0, width);
    }
    for (size_t i = 0; i < out.size(); ++i) {
      if (expect_untouched[i] && out[i] != c.output_init[o][i]) {
        if (!*gap_written) {
          *why = name + " byte " + std::to_string(i) + " outside its elements was written";
        }
        *gap_written = true;
        if (!gaps_may_change) return false;
      }
    }
  }
  return true;
}

std::string FirstDifference(const Outputs& a, const Outputs& b) {
  if (a.size() != b.size()) return "output counts differ";
  for (size_t o = 0; o < a.size(); ++o) {
    if (a[o].size() != b[o].size()) return "output " + std::to_string(o) + " sizes differ";
    for (size_t i = 0; i < a[o].size(); ++i) {
      if (a[o][i] != b[o][i]) {
        char text[112];
        std::snprintf(text, sizeof(text),
                      "output %zu: first difference at byte %zu: 0x%02X vs 0x%02X", o, i, a[o][i],
                      b[o][i]);
        return text;
      }
    }
  }
  return "identical";
}

bool SameSizes(const Outputs& a, const Outputs& b) {
  if (a.size() != b.size()) return false;
  for (size_t o = 0; o < a.size(); ++o) {
    if (a[o].size() != b[o].size()) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr,
                 "usage: %s SEED COUNT RECORDS_FILE [--raw] [--windows-cpu=FILE] "
                 "[CRASHED_INDEX...]\n",
                 argv[0]);
    return 2;
  }
  const uint64_t seed = std::strtoull(argv[1], nullptr, 0);
  const uint64_t count = std::strtoull(argv[2], nullptr, 0);
  std::set<uint64_t> crashed;
  bool raw = false;
  const char* windows_cpu_path = nullptr;  // records of the Windows build's CPU backend
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "--raw") == 0) {
      raw = true;
    } else if (std::strncmp(argv[i], "--windows-cpu=", 14) == 0) {
      windows_cpu_path = argv[i] + 14;
    } else {
      crashed.insert(std::strtoull(argv[i], nullptr, 0));
    }
  }

  std::map<uint64_t, dmlcpu_crosscheck::Record> records;
  if (std::FILE* f = std::fopen(argv[3], "rb")) {
    dmlcpu_crosscheck::Record r;
    while (dmlcpu_crosscheck::ReadRecord(f, &r)) records[r.index] = r;
    std::fclose(f);
  } else {
    std::fprintf(stderr, "crosscheck_compare: cannot open %s\n", argv[3]);
    return 1;
  }

  std::map<uint64_t, dmlcpu_crosscheck::Record> windows_cpu;
  if (windows_cpu_path != nullptr) {
    std::FILE* f = std::fopen(windows_cpu_path, "rb");
    if (f == nullptr) {
      std::fprintf(stderr, "crosscheck_compare: cannot open %s\n", windows_cpu_path);
      return 1;
    }
    dmlcpu_crosscheck::Record r;
    while (dmlcpu_crosscheck::ReadRecord(f, &r)) windows_cpu[r.index] = r;
    std::fclose(f);
  }
  uint64_t windows_cpu_identical = 0;

  const dmlcpu::Device cpu(dmlcpu::DeviceOptions{0, nullptr});
  uint64_t identical = 0, out_of_range = 0, known_bug = 0, known_bug_differ = 0, crash = 0;
  uint64_t scatter_gap_writes = 0;
  uint64_t failures = 0;
  std::map<std::string, uint64_t> per_op;
  auto fail = [&](const Case& c, const std::string& what) {
    ++failures;
    if (failures <= 40) std::printf("FAIL %s\n     %s\n", c.Describe().c_str(), what.c_str());
  };
  for (uint64_t i = 0; i < count; ++i) {
    std::unique_ptr<Case> c = dmlcpu_crosscheck::GenerateCase(seed, i);
    // CPU backend.
    Outputs cpu_out = c->output_init;
    auto op = cpu.Compile(c->desc);
    if (!op.ok()) {
      fail(*c, "CPU Compile: " + op.status().message());
      continue;
    }
    std::vector<dmlcpu::Binding> inputs;
    std::vector<const void*> input_pointers;
    for (size_t j = 0; j < c->inputs.size(); ++j) {
      inputs.push_back({c->input_bytes[j].data(), c->inputs[j].total_bytes});
      input_pointers.push_back(c->input_bytes[j].data());
    }
    std::vector<dmlcpu::OutputBinding> outputs;
    for (size_t j = 0; j < c->outputs.size(); ++j) {
      outputs.push_back({cpu_out[j].data(), c->outputs[j].total_bytes});
    }
    dmlcpu::Status s = op->Execute(inputs.data(), inputs.size(), outputs.data(), outputs.size());
    if (!s.ok()) {
      fail(*c, "CPU Execute: " + s.message());
      continue;
    }
    // Reference (dmlcpu's documented rule).
    Outputs ref_out = c->output_init;
    std::vector<void*> output_pointers;
    for (std::vector<uint8_t>& out : ref_out) output_pointers.push_back(out.data());
    const dmlcpu_test::ReferenceResult ref =
        dmlcpu_test::RunReference(c->desc, input_pointers.data(), output_pointers.data());
    if (!ref.ok) {
      fail(*c, "reference rejected the case: " + ref.error);
      continue;
    }
    if (cpu_out != ref_out) {
      fail(*c, "CPU backend differs from the reference: " + FirstDifference(cpu_out, ref_out));
      continue;
    }
    // The Windows build's CPU backend: byte-identical to this one (and so to the reference).
    if (windows_cpu_path != nullptr) {
      auto w = windows_cpu.find(i);
      if (w == windows_cpu.end()) {
        fail(*c, "no Windows CPU record for this case");
        continue;
      }
      if (w->second.code != 0) {
        fail(*c, "Windows CPU backend failed: " + w->second.message);
        continue;
      }
      if (w->second.outputs != cpu_out) {
        fail(*c, "Windows CPU backend differs from the Linux one: " +
                     FirstDifference(w->second.outputs, cpu_out));
        continue;
      }
      ++windows_cpu_identical;
    }
    // DirectML.
    if (crashed.count(i)) {
      ++crash;
      std::printf("CRASH (DirectML under wine, reported) %s\n", c->Describe().c_str());
      continue;
    }
    auto it = records.find(i);
    if (it == records.end()) {
      fail(*c, "no DirectML record for this case");
      continue;
    }
    const dmlcpu_crosscheck::Record& rec = it->second;
    if (rec.code != 0) {
      fail(*c, "DirectML side failed: " + rec.message);
      continue;
    }
    if (!SameSizes(rec.outputs, cpu_out)) {
      fail(*c, "DirectML outputs have the wrong count or size");
      continue;
    }
    const bool same = rec.outputs == cpu_out;
    const bool bug_class = !c->known_directml_bug.empty();
    if (bug_class && raw && !same) {
      // Unmodified descriptors (--raw): DirectML's own bug, reported, not a failure.
      ++known_bug_differ;
      std::printf("KNOWN DIRECTML BUG (%s; raw DirectML differs) %s\n",
                  c->known_directml_bug.c_str(), c->Describe().c_str());
      continue;
    }
    // DirectML drops an out-of-range scatter write only when its address leaves the tensor, so
    // it may land in a stride gap (docs/semantics.md#scatter-and-scatter_nd): reported.
    const bool by_address = ref.index_out_of_range && (c->type == DML_OPERATOR_SCATTER ||
                                                       c->type == DML_OPERATOR_SCATTER_ND);
    std::string why;
    bool gap_written = false;
    if (!WroteExactlyTheOutputs(*c, rec.outputs, by_address, &gap_written, &why)) {
      fail(*c, "DirectML " + why);
      continue;
    }
    if (gap_written) {
      ++scatter_gap_writes;
      std::printf("DIRECTML SCATTER BY ADDRESS (%s) %s\n", why.c_str(), c->Describe().c_str());
    }
    if (ref.index_out_of_range) {
      ++out_of_range;
      continue;
    }
    if (bug_class) {
      // The D3D12 backend rewrites these descriptors into equivalent ones DirectML gets right,
      // so they must agree too; they are listed to show the bug class was exercised.
      ++known_bug;
      std::printf("KNOWN DIRECTML BUG CLASS (%s; outputs %s) %s\n",
                  c->known_directml_bug.c_str(), same ? "agree" : "differ",
                  c->Describe().c_str());
      if (!same) fail(*c, "DirectML bug not avoided: " + FirstDifference(rec.outputs, cpu_out));
      continue;
    }
    if (!same) {
      fail(*c, "in-range case: DirectML differs from the CPU backend: " +
                   FirstDifference(rec.outputs, cpu_out));
      continue;
    }
    ++identical;
    // The operator's name: the Describe() token after "case N: ", without a trailing ';'.
    const std::string text = c->Describe();
    const size_t name_begin = text.find(": ") + 2;
    std::string name = text.substr(name_begin, text.find(' ', name_begin) - name_begin);
    if (!name.empty() && name.back() == ';') name.pop_back();
    ++per_op[name];
  }
  std::printf("\ncross-check (seed %llu): %llu cases\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(count));
  std::printf("  in range, byte-identical to DirectML: %llu (",
              static_cast<unsigned long long>(identical));
  bool first = true;
  for (const auto& kv : per_op) {
    std::printf("%s%s %llu", first ? "" : ", ", kv.first.c_str(),
                static_cast<unsigned long long>(kv.second));
    first = false;
  }
  std::printf(")\n");
  std::printf("  out-of-range indices (DirectML ran; CPU follows dmlcpu's rule): %llu\n",
              static_cast<unsigned long long>(out_of_range));
  std::printf("    of which DirectML wrote a scatter update into a stride gap (reported): %llu\n",
              static_cast<unsigned long long>(scatter_gap_writes));
  std::printf("  in range, in a known DirectML bug class (the D3D12 backend's "
              "equivalent descriptor; byte-identical): %llu\n",
              static_cast<unsigned long long>(known_bug));
  if (raw) {
    std::printf("  known DirectML bug reproduced (--raw; reported): %llu\n",
                static_cast<unsigned long long>(known_bug_differ));
  }
  if (windows_cpu_path != nullptr) {
    std::printf("  Windows build's CPU backend byte-identical to the Linux one: %llu\n",
                static_cast<unsigned long long>(windows_cpu_identical));
  }
  std::printf("  DirectML crashes under wine (reported): %llu\n",
              static_cast<unsigned long long>(crash));
  std::printf("  failures: %llu\n", static_cast<unsigned long long>(failures));
  return failures == 0 ? 0 : 1;
}
