#include "traffic/trace/mooncake.h"

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "core/file_text.h"
#include "core/json_nesting.h"

namespace fe {
namespace {

using nlohmann::json;

// A value as the error shows it: its JSON text, cut so that a mistaken huge line stays readable.
std::string Shown(const json& v) {
  std::string text = v.dump();
  if (text.size() > 40) text = text.substr(0, 40) + "...";
  return text;
}

// The whole number at key `name` of `object`, within [min, max]; false with the reason otherwise.
bool WholeNumber(const json& object, const char* name, uint64_t min, uint64_t max, uint64_t* out,
                 std::string* reason) {
  const auto it = object.find(name);
  if (it == object.end()) {
    *reason = std::string("no \"") + name + "\"";
    return false;
  }
  if (!it->is_number_unsigned() || it->get<uint64_t>() < min || it->get<uint64_t>() > max) {
    *reason = std::string("\"") + name + "\" must be a whole number in [" + std::to_string(min) +
              ", " + std::to_string(max) + "], got " + Shown(*it);
    return false;
  }
  *out = it->get<uint64_t>();
  return true;
}

// Parses one non-blank line into `r` and its hash ids; false with the reason when it is refused.
bool ParseLine(std::string_view line, uint32_t block_tokens, MooncakeRequest* r,
               std::vector<uint64_t>* hash_ids, std::string* reason) {
  json object;
  // A key given twice would otherwise be taken from its last place without a word.
  std::set<std::string> keys;
  std::string twice;
  const json::parser_callback_t note_keys = [&](int depth, json::parse_event_t event,
                                                json& parsed) {
    if (event == json::parse_event_t::key && depth == 1) {
      std::string key = parsed.get<std::string>();
      if (twice.empty() && !keys.insert(key).second) twice = std::move(key);
    }
    return true;
  };
  if (Status deep = CheckJsonNesting(line); !deep.ok()) {
    *reason = "not a request: " + deep.message();
    return false;
  }
  try {
    object = json::parse(line, note_keys);
  } catch (const json::parse_error& e) {
    // what() reads "[json.exception.parse_error.101] parse error at line 1, column 5: ...".
    const std::string what = e.what();
    const size_t at = what.find("] ");
    *reason = "not JSON: " + (at == std::string::npos ? what : what.substr(at + 2));
    return false;
  }
  if (!twice.empty()) {
    *reason = "\"" + twice + "\" is given twice";
    return false;
  }
  if (!object.is_object()) {
    *reason =
        "expected a JSON object {\"timestamp\", \"input_length\", \"output_length\", "
        "\"hash_ids\"}, got " +
        Shown(object);
    return false;
  }
  if (!WholeNumber(object, "timestamp", 0, kMaxMooncakeTimestampMs, &r->timestamp_ms, reason) ||
      !WholeNumber(object, "input_length", 1, kMaxMooncakeInputTokens, &r->input_tokens, reason) ||
      !WholeNumber(object, "output_length", 0, UINT32_MAX, &r->output_tokens, reason)) {
    return false;
  }
  const auto hashes = object.find("hash_ids");
  if (hashes == object.end()) {
    *reason = "no \"hash_ids\"";
    return false;
  }
  if (!hashes->is_array()) {
    *reason = "\"hash_ids\" must be an array of whole numbers, got " + Shown(*hashes);
    return false;
  }
  const uint64_t blocks = (r->input_tokens + block_tokens - 1) / block_tokens;
  if (hashes->size() != blocks) {
    *reason = "\"hash_ids\" has " + std::to_string(hashes->size()) + " ids, but " +
              std::to_string(r->input_tokens) + " input tokens make " + std::to_string(blocks) +
              " blocks of " + std::to_string(block_tokens) + " tokens";
    return false;
  }
  for (const json& id : *hashes) {
    if (!id.is_number_unsigned()) {
      *reason = "\"hash_ids\" must hold whole numbers >= 0, got " + Shown(id);
      return false;
    }
    hash_ids->push_back(id.get<uint64_t>());
  }
  return true;
}

}  // namespace

StatusOr<MooncakeTrace> ParseMooncakeTrace(std::string_view text, std::string_view source,
                                           uint32_t block_tokens, uint64_t max_requests) {
  if (block_tokens == 0) return Status::Error(std::string(source) + ": block_tokens must be > 0");
  MooncakeTrace trace;
  uint32_t line_number = 0;
  while (!text.empty() && (max_requests == 0 || trace.requests.size() < max_requests)) {
    ++line_number;
    const size_t end = text.find('\n');
    const std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;

    MooncakeRequest r;
    r.line = line_number;
    r.hash_begin = static_cast<uint32_t>(trace.hash_ids.size());
    std::string reason;
    if (ParseLine(line, block_tokens, &r, &trace.hash_ids, &reason) && !trace.requests.empty() &&
        r.timestamp_ms < trace.requests.back().timestamp_ms) {
      reason = "timestamp " + std::to_string(r.timestamp_ms) +
               " is before the previous request's " +
               std::to_string(trace.requests.back().timestamp_ms) +
               ": requests must come in arrival order";
    }
    if (!reason.empty()) {
      return Status::Error(std::string(source) + ":" + std::to_string(line_number) + ": " + reason);
    }
    r.hash_end = static_cast<uint32_t>(trace.hash_ids.size());
    trace.requests.push_back(r);
  }
  if (trace.requests.empty()) return Status::Error(std::string(source) + ": no requests");
  return trace;
}

StatusOr<MooncakeTrace> ReadMooncakeTrace(const std::string& file, const std::string& scenario_dir,
                                          uint32_t block_tokens, uint64_t max_requests) {
  namespace fs = std::filesystem;
  fs::path path(file);
  if (path.is_relative() && !scenario_dir.empty()) path = fs::path(scenario_dir) / path;
  StatusOr<std::string> text =
      ReadCappedFile(path.string(), kMaxMooncakeTraceBytes, "a request trace", file);
  if (!text.ok()) return text.status();
  return ParseMooncakeTrace(*text, file, block_tokens, max_requests);
}

}  // namespace fe
