#include "steptimecsv.h"

#include "store/common/csvreader.h"
#include "engine/common/errors.h"
#include "store/common/importlimits.h"
#include "store/common/storeerror.h"

#include <QFile>
#include <cmath>
#include <limits>
#include <map>
#include <utility>

namespace headroom::store {

namespace {

constexpr ImportLimits kStepTimesCsv{"step-time CSV", 8 * limits::kMiB, 100'000, 4096};

const QString kPhase = QStringLiteral("phase");
const QString kBatch = QStringLiteral("batch");
const QString kContext = QStringLiteral("context_tokens");
const QString kPrefill = QStringLiteral("prefill_tokens");
const QString kMs = QStringLiteral("ms");
// The longest step a row may give: an hour.
constexpr double kMaxStepMs = 3'600'000;

// Comment lines (first character "#") become blank lines, so line numbers stay those of the file.
QByteArray withoutComments(const QByteArray &csv)
{
    QByteArray out = csv;
    bool lineStart = true;
    bool inComment = false;
    // A UTF-8 byte-order mark stays (the CSV reader skips it) and the line still starts after it.
    const qsizetype first = out.startsWith("\xEF\xBB\xBF") ? 3 : 0;
    for (qsizetype i = first; i < out.size(); ++i) {
        const char ch = out[i];
        if (ch == '\n') {
            lineStart = true;
            inComment = false;
            continue;
        }
        if (lineStart && ch == '#')
            inComment = true;
        lineStart = false;
        if (inComment && ch != '\r')
            out[i] = ' ';
    }
    return out;
}

int64_t wholeNumber(const QString &source, int line, const QString &column, const QString &text, int64_t least)
{
    if (text.isEmpty())
        failCsvField(source, line, column, QStringLiteral("is empty"));
    bool ok = false;
    const qlonglong value = text.toLongLong(&ok);
    if (!ok)
        failCsvField(source, line, column, QStringLiteral("'%1' is not a whole number").arg(shownValue(text)));
    if (value < least)
        failCsvField(source, line, column, QStringLiteral("%1 is below %2").arg(value).arg(least));
    if (value > (int64_t(1) << 40))
        failCsvField(source, line, column, QStringLiteral("%1 is beyond any real step (at most 2^40)").arg(value));
    return value;
}

void mustBeEmpty(const QString &source, int line, const QString &column, const QString &text, const QString &phase)
{
    if (!text.isEmpty())
        failCsvField(source, line, column, QStringLiteral("must be empty in a %1 row (got '%2')").arg(phase, shownValue(text)));
}

} // namespace

engine::StepTimeTable parseStepTimes(const QByteArray &csv, const QString &sourceName)
{
    const CsvTable table = readCsvTable(
        withoutComments(csv), sourceName, kStepTimesCsv, {kPhase, kBatch, kContext, kPrefill, kMs},
        QStringLiteral("expected the header phase,batch,context_tokens,prefill_tokens,ms"),
        QStringLiteral("the header must name phase, batch, context_tokens, prefill_tokens and ms"));

    engine::StepTimeTable out;
    std::map<std::pair<int64_t, int64_t>, int> decodeLines;
    std::map<int64_t, int> prefillLines;
    for (const CsvRecord &record : table.rows) {
        auto field = [&](const QString &name) { return table.field(record, name); };
        const int line = record.line;
        const QString msText = field(kMs);
        bool ok = false;
        const double ms = msText.toDouble(&ok);
        if (msText.isEmpty())
            failCsvField(sourceName, line, kMs, QStringLiteral("is empty"));
        if (!ok || !std::isfinite(ms))
            failCsvField(sourceName, line, kMs, QStringLiteral("'%1' is not a finite number").arg(shownValue(msText)));
        if (ms <= 0)
            failCsvField(sourceName, line, kMs, QStringLiteral("%1 ms is not above 0").arg(shownValue(msText)));
        // Sums of step times stay finite (1e308 ms used to print "inf ms").
        if (ms > kMaxStepMs)
            failCsvField(sourceName, line, kMs, QStringLiteral("%1 ms is beyond any real step (at most %2 ms, an hour)")
                                                    .arg(shownValue(msText))
                                                    .arg(kMaxStepMs, 0, 'f', 0));
        const QString phase = field(kPhase).toLower();
        if (phase == QLatin1String("decode")) {
            mustBeEmpty(sourceName, line, kPrefill, field(kPrefill), phase);
            const int64_t batch = wholeNumber(sourceName, line, kBatch, field(kBatch), 1);
            const int64_t context = wholeNumber(sourceName, line, kContext, field(kContext), 0);
            const auto [where, fresh] = decodeLines.emplace(std::make_pair(batch, context), line);
            if (!fresh)
                failCsvField(sourceName, line, kBatch, QStringLiteral("batch %1 at context_tokens %2 is already on line %3")
                                                           .arg(batch).arg(context).arg(where->second));
            out.decode.push_back({batch, context, ms});
        } else if (phase == QLatin1String("prefill")) {
            mustBeEmpty(sourceName, line, kBatch, field(kBatch), phase);
            mustBeEmpty(sourceName, line, kContext, field(kContext), phase);
            const int64_t tokens = wholeNumber(sourceName, line, kPrefill, field(kPrefill), 1);
            const auto [where, fresh] = prefillLines.emplace(tokens, line);
            if (!fresh)
                failCsvField(sourceName, line, kPrefill, QStringLiteral("%1 tokens is already on line %2")
                                                             .arg(tokens).arg(where->second));
            out.prefill.push_back({tokens, ms});
        } else {
            failCsvField(sourceName, line, kPhase,
                         QStringLiteral("'%1' is not decode or prefill").arg(shownValue(field(kPhase))));
        }
    }
    // Per-row checks are done above with line numbers; what is left is the table as a whole
    // (a phase with no rows, a gap in the decode grid).
    try {
        engine::validate(out);
    } catch (const engine::InputError &e) {
        throw StoreError(QStringLiteral("%1: %2").arg(sourceName, QString::fromStdString(e.what())));
    }
    return out;
}

engine::StepTimeTable readStepTimes(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw StoreError(QStringLiteral("%1: cannot read the file (%2)").arg(path, file.errorString()));
    return parseStepTimes(readImportFile(file, path, kStepTimesCsv), path);
}

} // namespace headroom::store
