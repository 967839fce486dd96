// The bearer token that mutating API calls need: a fresh random one written to a file only its
// owner may read, or one the user keeps in such a file (--api-token-file).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/status.h"

namespace fe::control::api {

// 32 random bytes from the system's entropy source (/dev/urandom through std::random_device),
// as 64 hexadecimal digits.
StatusOr<std::string> NewToken();
// Writes `token` and a newline to `path` with mode 0600, replacing any file there.
Status WriteTokenFile(const std::string& path, const std::string& token);
// A token from --api-token-file is refused below this many bytes: one so short could be guessed
// in a few requests (16 random hex digits are 64 bits; NewToken gives 64 digits).
inline constexpr size_t kMinTokenBytes = 16;

// The first line of `path`, without surrounding blanks. Refused when the file is readable or
// writable by others than its owner, or its token is shorter than kMinTokenBytes (it would not
// be a secret).
StatusOr<std::string> ReadTokenFile(const std::string& path);
// Whether an Authorization header value is "Bearer <token>". Takes the same time for any header
// of a given length, wherever it differs from the token: a client cannot find it byte by byte.
bool BearerMatches(std::string_view authorization, std::string_view token);

}  // namespace fe::control::api
