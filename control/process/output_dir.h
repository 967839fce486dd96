// The run's output directory. A run refuses, before anything runs, a directory it cannot write
// and an output name taken by something other than a file or a symlink (a directory, a FIFO);
// it then removes every output of the run before, so the directory never mixes two runs. A run
// writes its outputs as a set (control/process/output_set.h); each file is written under a
// temporary name and renamed into place, so a reader sees the old file or the new one, never
// half of one. No output follows a symlink: the
// rename and the removal replace or remove the link, not what it points to.
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fe::control {

// Every file a run may write besides its capture (docs/scenario.md, "Outputs").
inline constexpr std::array<std::string_view, 11> kRunOutputNames = {
    "summary.json", "flows.csv",  "rates.csv", "queues.csv",         "collectives.csv", "jobs.csv",
    "kv.csv",       "events.csv", "links.csv", "scenario.textproto", "report.html"};

bool IsRunOutputName(std::string_view name);

// The file in the output directory that holds the HTTP API's fresh token (no
// --api-token-file): not a run output, as it is written before the run and not removed.
inline constexpr std::string_view kApiTokenFileName = "api-token";

// Creates out_dir if needed and readies it for a run: refuses (with the reason) a path that is
// not a directory, a directory this process cannot create a file in, a run output name or
// `capture_file` (empty: none) that exists as anything but a regular file or a symlink, and one
// that is the same file as one of `inputs` (the scenario, a trace it replays: the run would
// remove or replace what it reads); then removes those names, and the staging directories of
// runs killed outright, so that what the run leaves is its own outputs alone. The refusals come
// before any removal: a refused directory is left as it was.
Status PrepareOutputDir(const std::string& out_dir, const std::string& capture_file,
                        std::span<const std::string> inputs = {});

// Writes `contents` to `path` under a temporary name in the same directory, then renames it to
// `path`, replacing a file or a symlink there (not the link's target).
Status WriteFileAtomically(const std::string& path, const std::string& contents);
// The same, with the file's contents given as pieces, written in order.
Status WriteFileAtomically(const std::string& path, std::span<const std::string_view> parts);

// Writes a file the user named (`export -o FILE`) as a shell's `>` would, but never half of one:
// a regular file, or what a symlink leads to, is replaced atomically (the link kept); a device
// or a FIFO (/dev/null, a pipe) is written into; a directory is refused.
Status WriteNamedFile(const std::string& path, const std::string& contents);

}  // namespace fe::control
