// The report's CSV reader (control/report/html/csv_reader.h): RFC 4180 fields as the run's
// writers quote them (traffic/csv_field.h), and every malformed record refused with its file and
// the line it starts on.
#include "control/report/html/csv_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "traffic/csv_field.h"

namespace fe::control::html {
namespace {

class CsvReaderTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& contents) {
    path_ = (std::filesystem::temp_directory_path() /
             ("report_csv_" + std::to_string(::getpid()) + "_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".csv"))
                .string();
    std::ofstream(path_, std::ios::binary) << contents;
    return path_;
  }
  void TearDown() override { std::filesystem::remove(path_); }

  // Every record's fields, or the first error.
  StatusOr<std::vector<std::vector<std::string>>> ReadAll(const std::string& contents) {
    StatusOr<CsvReader> csv = CsvReader::Open(Write(contents));
    if (!csv.ok()) return csv.status();
    std::vector<std::vector<std::string>> rows;
    while (true) {
      StatusOr<bool> next = csv->Next();
      if (!next.ok()) return next.status();
      if (!*next) return rows;
      rows.push_back({csv->Text(0), csv->Text(1)});
    }
  }

  std::string path_;
};

TEST_F(CsvReaderTest, ReadsWhatTheWritersQuote) {
  // A job name with a comma, a quote and a line break, as CsvField writes it; a CRLF line.
  const std::string name = "a,b \"c\"\nd";
  const auto rows = ReadAll("job,n\n" + CsvField(name) + ",1\r\nplain,\n");
  ASSERT_TRUE(rows.ok()) << rows.status().message();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ(rows.value()[0][0], name);
  EXPECT_EQ(rows.value()[0][1], "1");
  EXPECT_EQ(rows.value()[1][1], "");
}

TEST_F(CsvReaderTest, NamesFileAndLineOfABadRecord) {
  // The record after a two-line quoted field starts on line 4.
  const auto rows = ReadAll("a,b\n\"x\ny\",1\n1,2,3\n");
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().message(), path_ + ":4: 3 fields, the header has 2");
  EXPECT_EQ(ReadAll("a,b\n1,\"open\n").status().message(),
            path_ + ":2: a quoted field is not closed at the end of the file");
  EXPECT_EQ(ReadAll("a,b\n\"x\"y,1\n").status().message(),
            path_ + ":2: text after the closing quote of field 1");
  EXPECT_EQ(ReadAll("").status().message(), path_ + ":1: empty file, expected a header");
}

TEST_F(CsvReaderTest, NumbersParseWhole) {
  StatusOr<CsvReader> csv = CsvReader::Open(Write("t,v\n1.5,\n2e3,12ab\nnan,1\n"));
  ASSERT_TRUE(csv.ok());
  ASSERT_TRUE(csv->Next().value());
  EXPECT_EQ(csv->Number(0).value(), 1.5);
  EXPECT_FALSE(csv->OptionalNumber(1)->has_value());
  ASSERT_TRUE(csv->Next().value());
  EXPECT_EQ(csv->Number(0).value(), 2000);
  EXPECT_EQ(csv->Number(1).status().message(), path_ + ":3: column 'v': '12ab' is not a number");
  ASSERT_TRUE(csv->Next().value());
  EXPECT_FALSE(csv->Number(0).ok());  // not finite
  EXPECT_EQ(csv->Column("w").status().message(), path_ + ":1: no column 'w' in the header");
  EXPECT_FALSE(csv->Next().value());
}

TEST_F(CsvReaderTest, MissingFileIsAnError) {
  EXPECT_EQ(CsvReader::Open("/nonexistent/x.csv").status().message(),
            "/nonexistent/x.csv: cannot open");
}

}  // namespace
}  // namespace fe::control::html
