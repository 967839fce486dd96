// JSON written as text (control/report/json_text.h) against nlohmann's own dump(2) of the same
// values, the layout every reader of summary.json has seen: random documents of nested arrays and
// objects, empty ones, escaped strings and doubles of every magnitude, byte for byte.
#include "control/report/json_text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

namespace fe::control {
namespace {

using Json = nlohmann::ordered_json;

// Builds a random value into the tree and, in step, into the writer.
class Twin {
 public:
  explicit Twin(uint32_t seed) : rng_(seed) {}

  Json Value(JsonTextWriter* w, int levels) {
    switch (levels > 0 ? Pick(5) : Pick(3)) {
      case 0: {
        const uint64_t v = rng_() >> Pick(64);
        w->Value(v);
        return Json(v);
      }
      case 1: {
        const double v = Double();
        w->Value(v);
        return Json(v);
      }
      case 2: {
        const std::string v = String();
        w->Value(v);
        return Json(v);
      }
      case 3: {
        Json a = Json::array();
        w->BeginArray();
        for (size_t n = Pick(4); n > 0; --n) a.push_back(Value(w, levels - 1));
        w->EndArray();
        return a;
      }
      default: {
        Json o = Json::object();
        w->BeginObject();
        for (size_t n = Pick(4); n > 0; --n) {
          const std::string key = "k" + std::to_string(o.size());
          w->Key(key);
          o[key] = Value(w, levels - 1);
        }
        w->EndObject();
        return o;
      }
    }
  }

 private:
  size_t Pick(size_t n) { return rng_() % n; }
  double Double() {
    switch (Pick(4)) {
      case 0:
        return static_cast<double>(Pick(1000));  // integral: dump writes 12.0
      case 1:
        return std::ldexp(static_cast<double>(rng_()), static_cast<int>(Pick(200)) - 100);
      case 2:
        return -1.0 / static_cast<double>(1 + Pick(1000));
      default:
        switch (Pick(4)) {
          case 0:
            return std::numeric_limits<double>::quiet_NaN();  // null, as infinities
          case 1:
            return -std::numeric_limits<double>::infinity();
          case 2:
            return -0.0;
          default:
            return 0.1;
        }
    }
  }
  std::string String() {
    static constexpr char kChars[] = "ab \"\\/\n\t\x01\x1f\xc3\xa9";  // é as UTF-8
    std::string s;
    for (size_t n = Pick(6); n > 0; --n) {
      const size_t i = Pick(sizeof(kChars) - 1);
      if (kChars[i] == '\xc3') {
        s += "\xc3\xa9";
      } else if (kChars[i] != '\xa9') {
        s += kChars[i];
      }
    }
    return s;
  }
  std::mt19937_64 rng_;
};

TEST(JsonTextWriterTest, WritesWhatDumpWritesAtTheSameDepth) {
  for (uint32_t seed = 1; seed <= 500; ++seed) {
    Twin twin(seed);
    JsonTextWriter w(1);
    Json doc;
    doc["before"] = 1;
    doc["section"] = kSplicedMember;
    doc["after"] = Json::array({1, 2});
    const Json section = twin.Value(&w, 4);
    const std::string spliced = SpliceMember(doc.dump(2), "section", w.text());
    doc["section"] = section;
    ASSERT_EQ(spliced, doc.dump(2)) << "seed " << seed;
  }
}

TEST(JsonTextWriterTest, EmptyContainersStayOnTheirLine) {
  JsonTextWriter w(0);
  w.BeginObject();
  w.Key("a");
  w.BeginArray();
  w.EndArray();
  w.Key("o");
  w.BeginObject();
  w.EndObject();
  w.EndObject();
  EXPECT_EQ(w.text(), "{\n  \"a\": [],\n  \"o\": {}\n}");
}

TEST(JsonTextWriterTest, RefusesTextThatIsNotUtf8AsDumpDoes) {
  JsonTextWriter w(0);
  EXPECT_THROW(w.Value(std::string("\xff")), nlohmann::json::type_error);
}

TEST(SpliceMemberTest, FillsOnlyTheTopLevelMember) {
  // A string value holding the placeholder, even under the same key one level down, is data.
  Json doc;
  doc["name"] = kSplicedMember;
  doc["nested"] = Json{{"section", kSplicedMember}};
  doc["section"] = kSplicedMember;
  const std::string out = SpliceMember(doc.dump(2), "section", "[]");
  Json expected = doc;
  expected["section"] = Json::array();
  EXPECT_EQ(out, expected.dump(2));
}

TEST(SpliceMemberTest, PartsHoldTheSplicedDocumentWithoutCopyingIt) {
  Json doc;
  doc["before"] = 1;
  doc["section"] = kSplicedMember;
  doc["after"] = "x";
  const SplicedJson spliced(doc.dump(2), "section", "[\n    7\n  ]", "\n");
  std::string concatenated;
  for (std::string_view part : spliced.Parts()) concatenated += part;
  doc["section"] = Json::array({7});
  EXPECT_EQ(concatenated, doc.dump(2) + "\n");
  EXPECT_EQ(spliced.Joined(), concatenated);
}

TEST(SpliceMemberTest, MissingMemberIsAnError) {
  Json doc;
  doc["other"] = kSplicedMember;
  EXPECT_THROW(SpliceMember(doc.dump(2), "section", "[]"), std::logic_error);
  EXPECT_THROW(SplicedJson(doc.dump(2), "section", "[]"), std::logic_error);
}

}  // namespace
}  // namespace fe::control
