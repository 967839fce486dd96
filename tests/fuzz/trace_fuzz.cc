// Fuzz target: arbitrary bytes as a trace file of each format a scenario can replay: Mooncake
// JSONL requests, the native CSV, an htsim connection matrix and an ns-3 (HPCC) flow file. The
// first byte picks the format, the rest is the file's text. Every input must end in a trace or
// in an error naming its line; a crash, a hang, a leak or undefined behaviour is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "traffic/trace/file.h"
#include "traffic/trace/htsim.h"
#include "traffic/trace/mooncake.h"
#include "traffic/trace/native.h"
#include "traffic/trace/ns3.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  fe::TraceParams params;
  params.source = "fuzz";
  params.hosts = 16;  // a k = 4 fat-tree's
  switch (data[0] % 4) {
    case 0:
      // 512 tokens a block, as the shipped KV-cache scenarios; at most a thousand requests, as
      // a scenario's max_requests may ask.
      (void)fe::ParseMooncakeTrace(text, "fuzz.jsonl", 512, 1000);
      break;
    case 1:
      (void)fe::ParseNativeTrace(text, params);
      break;
    case 2:
      (void)fe::ParseHtsimTrace(text, params);
      break;
    default:
      (void)fe::ParseNs3FlowFile(text, params);
      break;
  }
  return 0;
}
