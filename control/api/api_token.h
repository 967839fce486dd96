// The bearer token that mutating API calls need: a fresh random one written to a file only its
// owner may read, or one the user keeps in such a file (--api-token-file).
#pragma once

#include <string>
#include <string_view>

#include "core/status.h"

namespace fe::control::api {

// The file in the output directory that holds a fresh token (no --api-token-file).
inline constexpr std::string_view kTokenFileName = "api-token";

// 32 random bytes from the system's entropy source (/dev/urandom through std::random_device),
// as 64 hexadecimal digits.
StatusOr<std::string> NewToken();
// Writes `token` and a newline to `path` with mode 0600, replacing any file there.
Status WriteTokenFile(const std::string& path, const std::string& token);
// The first line of `path`, without surrounding blanks. Refused when the file is empty, or
// readable or writable by others than its owner (the token would not be a secret).
StatusOr<std::string> ReadTokenFile(const std::string& path);
// Whether an Authorization header value is "Bearer <token>". Takes the same time for any header
// of a given length, wherever it differs from the token: a client cannot find it byte by byte.
bool BearerMatches(std::string_view authorization, std::string_view token);

}  // namespace fe::control::api
