// Fuzz target: arbitrary bytes as the summary.json of a run's output directory, through what
// `fabric-emu report DIR` runs: the JSON guard and parse, then every section of the page drawn
// from whatever fields parse. Every input must end in a page or in an error; a crash, a hang, a
// leak or undefined behaviour is a bug.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "control/report/html/report_html.h"

namespace {

// One directory for the process's inputs, each written over the one before.
const std::string& Dir() {
  static const std::string* dir = [] {
    const std::filesystem::path d =
        std::filesystem::temp_directory_path() / ("report_fuzz." + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return new std::string(d.string());
  }();
  return *dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(Dir() + "/summary.json", std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  (void)fe::control::html::BuildReport(Dir());
  return 0;
}
