// The streaming CSV reader keeps memory bounded whatever the input: CR, CRLF and LF end lines
// alike (so a CR-only file is read line by line, not whole), a line without a break is refused
// once it passes the longest line a record may have, and devices are refused before reading.
#include "storetestsupport.h"

#include "store/common/csvreader.h"
#include "store/common/importlimits.h"
#include "store/tracking/focuscsv.h"

#include <QBuffer>
#include <QElapsedTimer>
#include <QTemporaryDir>

using namespace headroom;
using namespace headroom::store;
using namespace headroom::store::test;
using Catch::Matchers::Contains;

namespace {

const QString kFolder = QStringLiteral(HEADROOM_SHARED_DATA "/focus-examples/");

// A sequential device of `size` bytes of one character, made as it is read (like a pipe).
class RepeatedDevice : public QIODevice {
public:
    RepeatedDevice(char byte, qint64 size) : m_byte(byte), m_size(size) { open(QIODevice::ReadOnly); }
    bool isSequential() const override { return true; }
    qint64 produced() const { return m_produced; }

protected:
    qint64 readData(char *data, qint64 maxSize) override
    {
        const qint64 n = std::min(maxSize, m_size - m_produced);
        std::fill(data, data + n, m_byte);
        m_produced += n;
        return n;
    }
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    char m_byte;
    qint64 m_size;
    qint64 m_produced = 0;
};

} // namespace

TEST_CASE("a FOCUS file with CR line ends reads exactly as with LF or CRLF", "[csvreader]")
{
    QByteArray lf = readBytes(kFolder + QStringLiteral("aws_underutilized_50pct.csv"));
    lf.replace("\r\n", "\n");
    REQUIRE(lf.count('\n') > 10);
    REQUIRE_FALSE(lf.contains('\r'));
    QByteArray cr = lf;
    cr.replace('\n', '\r');
    QByteArray crlf = lf;
    crlf.replace("\n", "\r\n");
    QTemporaryDir dir;
    const QString lfPath = dir.filePath(QStringLiteral("lf.csv"));
    const QString crPath = dir.filePath(QStringLiteral("cr.csv"));
    const QString crlfPath = dir.filePath(QStringLiteral("crlf.csv"));
    writeBytes(lfPath, lf);
    writeBytes(crPath, cr);
    writeBytes(crlfPath, crlf);
    const engine::FocusCharges a = readFocusCsv(lfPath);
    for (const QString &path : {crPath, crlfPath}) {
        INFO(path.toStdString());
        const engine::FocusCharges b = readFocusCsv(path);
        REQUIRE(b.rows.size() == a.rows.size());
        for (size_t i = 0; i < a.rows.size(); ++i) {
            CHECK(b.rows[i].line == a.rows[i].line);
            CHECK(b.rows[i].periodStart == a.rows[i].periodStart);
            CHECK(b.rows[i].periodEnd == a.rows[i].periodEnd);
            CHECK(b.rows[i].effectiveCost == a.rows[i].effectiveCost);
            CHECK(b.rows[i].billedCost == a.rows[i].billedCost);
            CHECK(b.rows[i].commitment == a.rows[i].commitment);
            CHECK(b.rows[i].status == a.rows[i].status);
        }
        CHECK(b.names == a.names);
        CHECK(b.currencies == a.currencies);
    }
}

TEST_CASE("CR-only text is streamed line by line, not held whole", "[csvreader]")
{
    // 16 MiB of short CR-ended lines: the first record must come long before the end is read.
    QByteArray csv;
    const QByteArray line = "a,b,c,0123456789\r";
    csv.reserve(16 << 20);
    while (csv.size() < (16 << 20))
        csv += line;
    QBuffer buffer(&csv);
    buffer.open(QIODevice::ReadOnly);
    qint64 readAtFirstRecord = -1;
    qint64 records = 0;
    qint64 misread = 0;
    streamCsvRecords(buffer, QStringLiteral("cr.csv"), limits::kFocusCsv, [&](CsvRecord &record) {
        if (readAtFirstRecord < 0)
            readAtFirstRecord = buffer.pos();
        misread += record.fields.size() != 4;
        ++records;
    });
    CHECK(records == csv.size() / line.size());
    CHECK(misread == 0);
    CHECK(readAtFirstRecord <= (8 << 20));
}

TEST_CASE("a line longer than a record may be is refused naming it, before the rest is read", "[csvreader]")
{
    // A header, then a line of 64 MiB without a break (it would be 128 MiB as text).
    QByteArray head = "a,b\n1,2\n";
    RepeatedDevice endless('x', 64 << 20);
    QBuffer start(&head);
    start.open(QIODevice::ReadOnly);
    int records = 0;
    // The two-part input: first the header lines, then the endless line.
    class Concatenated : public QIODevice {
    public:
        Concatenated(QIODevice &a, QIODevice &b) : m_a(a), m_b(b) { open(QIODevice::ReadOnly); }
        bool isSequential() const override { return true; }

    protected:
        qint64 readData(char *data, qint64 maxSize) override
        {
            const qint64 n = m_a.read(data, maxSize);
            return n > 0 ? n : m_b.read(data, maxSize);
        }
        qint64 writeData(const char *, qint64) override { return -1; }

    private:
        QIODevice &m_a;
        QIODevice &m_b;
    } input(start, endless);
    const std::string error = storeErrorOf([&] {
        streamCsvRecords(input, QStringLiteral("long.csv"), limits::kFocusCsv, [&](CsvRecord &) { ++records; });
    });
    CHECK_THAT(error, Contains("long.csv: line 3: longer than") && Contains("without a line break")
                          && Contains("Import limits"));
    CHECK(records == 2);
    CHECK(endless.produced() <= 16 << 20);
    CHECK(maxCsvLineBytes(limits::kFocusCsv) >= limits::kMaxCsvFields * limits::kFocusCsv.maxFieldChars);
}

TEST_CASE("a device is refused as an import file without reading it", "[csvreader]")
{
    QElapsedTimer timer;
    timer.start();
    const std::string error = storeErrorOf([] { readFocusCsv(QStringLiteral("/dev/zero")); });
    CHECK_THAT(error, Contains("/dev/zero") && Contains("not a regular file") && Contains("character device"));
    CHECK(timer.elapsed() < 5000);
    const std::string folder = storeErrorOf([] { checkImportFileKind(QStringLiteral("/tmp")); });
    CHECK_THAT(folder, Contains("/tmp") && Contains("a folder"));
}
