// A run's outputs as one set: every file is written into a private staging directory inside the
// output directory (the same file system, so a rename moves it), and only once all of them are
// written are they renamed into place. A write that fails (a full disk, a file-size limit) leaves
// no file of the set behind: summary.json without flows.csv, or a complete-looking flows.csv
// without summary.json, could pass for a run's results.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace fe::control {

class OutputSet {
 public:
  // Creates the staging directory in out_dir (which PrepareOutputDir has readied).
  static StatusOr<OutputSet> Open(const std::string& out_dir);
  OutputSet(OutputSet&& other) noexcept;
  OutputSet& operator=(OutputSet&&) = delete;
  OutputSet(const OutputSet&) = delete;
  // Without Commit: removes the staging directory and everything in it.
  ~OutputSet();

  // Where writers that open their file themselves (the capture) put it.
  const std::string& staging_dir() const { return staging_; }
  // Writes out_dir/NAME's contents into the staging directory; the error names out_dir/NAME.
  Status Write(std::string_view name, std::span<const std::string_view> parts);
  Status Write(std::string_view name, const std::string& contents);
  // Renames every file of the staging directory into out_dir, replacing what is there, and
  // removes the staging directory.
  Status Commit();

 private:
  OutputSet(std::string out_dir, std::string staging)
      : out_dir_(std::move(out_dir)), staging_(std::move(staging)) {}
  // The names in the staging directory now.
  std::vector<std::string> Staged() const;
  void Discard();

  std::string out_dir_;
  std::string staging_;  // empty once committed or discarded (or moved from)
};

// The staging directories' name prefix: "out/x/.fabric-emu-new-<pid>-XXXXXX".
inline constexpr std::string_view kStagingPrefix = ".fabric-emu-new-";

// Removes the staging directories in out_dir that a process which no longer runs left behind
// (one killed outright, by SIGKILL or a power cut, never reaches its cleanup).
void RemoveAbandonedStaging(const std::string& out_dir);

}  // namespace fe::control
