#pragma once

#include <QByteArray>
#include <QString>
#include <QtGlobal>

class QFile;

// Resource limits of the importers (core/store/README.md, "Import limits"): how large a file,
// how many rows, how long a field or line each reader accepts. Every limit is checked before
// the memory it guards is allocated, and a file past one is refused with a StoreError naming
// the file, the line or field where there is one, and the limit.
namespace headroom::store {

struct ImportLimits {
    const char *kind;          // "rate card CSV", for messages ("a rate card CSV file")
    qint64 maxBytes;           // size of the whole file
    qint64 maxRows;            // data rows (CSV records, trace lines, catalog entries)
    qsizetype maxFieldChars;   // one CSV field, or one line of a line-based trace
};

namespace limits {
constexpr qint64 kMiB = qint64(1) << 20;
// Every CSV record holds at most this many fields (the widest header, a FOCUS export, has
// about 50 columns plus provider-specific ones).
constexpr qsizetype kMaxCsvFields = 256;
// Characters of a value echoed in an error message; longer ones are cut and end in "…".
constexpr qsizetype kShownChars = 40;

constexpr ImportLimits kAzureTrace{"trace CSV (Azure)", 512 * kMiB, 10'000'000, 4096};
constexpr ImportLimits kMooncakeTrace{"trace JSONL (Mooncake)", 512 * kMiB, 10'000'000, 4 * kMiB};
// hash_ids of one Mooncake request: 65,536 blocks of 512 tokens = a 32 M-token prompt.
constexpr qsizetype kMaxMooncakeHashIds = 65'536;
// Prompt or output tokens of one trace request (Azure ContextTokens/GeneratedTokens, Mooncake
// input_length/output_length): ten times the longest context any catalog model serves, small
// enough that simulating the request's KV blocks stays within memory and time.
constexpr qint64 kMaxRequestTokens = 10'000'000;
constexpr ImportLimits kNodeList{"node list CSV", 16 * kMiB, 100'000, 4096};
constexpr ImportLimits kPodList{"pod list CSV", 64 * kMiB, 1'000'000, 4096};
// Twenty leap years of hours, the longest span any hourly series may cover.
constexpr qint64 kMaxHours = 20 * 8784;
constexpr ImportLimits kDemandCsv{"demand CSV", 32 * kMiB, kMaxHours, 4096};
constexpr ImportLimits kSeriesCsv{"series CSV", 32 * kMiB, 1'000'000, 4096};
constexpr ImportLimits kNumberLines{"number list", 1 * kMiB, 100'000, 4096};
constexpr ImportLimits kTelemetryCsv{"telemetry CSV", 128 * kMiB, 2'000'000, 4096};
// GPUs one telemetry sample may count: far beyond any fleet, and small enough that squared
// forecast errors stay finite.
constexpr double kMaxTelemetryGpus = 10'000'000;
// DCGM / vLLM range-query exports: a week of one-minute samples of 10 series for 50 replicas
// is 5 M rows.
constexpr ImportLimits kServingMetricsCsv{"serving metrics CSV", 512 * kMiB, 8'000'000, 4096};
constexpr ImportLimits kRateCardCsv{"rate card CSV", 8 * kMiB, 100'000, 4096};
// Training jobs' GPU and CPU telemetry (the stall audit): a day of one-minute scrapes of 8 jobs on
// 64 GPUs with their nodes' CPU is under 1 M rows.
constexpr ImportLimits kJobTelemetryCsv{"job telemetry CSV", 512 * kMiB, 8'000'000, 4096};
// GPU claims of a shared pool: a year of hourly re-claims on 100 GPUs is under 1 M rows.
// Training cluster what-if: a workload of jobs, and applications' per-epoch traces (Pollux's
// six applications hold 2,152 rows).
constexpr ImportLimits kClusterWorkloadCsv{"cluster workload CSV", 16 * kMiB, 100'000, 4096};
constexpr ImportLimits kClusterTraceCsv{"application trace CSV", 64 * kMiB, 1'000'000, 4096};
constexpr ImportLimits kClaimsCsv{"GPU claims CSV", 256 * kMiB, 2'000'000, 4096};
// FOCUS cost-and-usage exports: a year of hourly rows for 500 resources is 4.4 M rows,
// about 2.5 GB with every column; streamed, never held whole.
constexpr ImportLimits kFocusCsv{"FOCUS CSV", 8192 * kMiB, 20'000'000, 4096};
constexpr ImportLimits kCatalogJson{"catalog JSON", 16 * kMiB, 100'000, 0};
constexpr ImportLimits kWorkloadJson{"workload JSON", 1 * kMiB, 1, 0};
constexpr ImportLimits kTrainingJson{"training job JSON", 1 * kMiB, 1, 0};
constexpr ImportLimits kScenarioJson{"scenario JSON", 16 * kMiB, 1, 0};
// A `vllm bench serve` result; with --save-detailed it holds every request's texts and
// inter-token times.
constexpr ImportLimits kBenchResultJson{"benchmark result JSON", 256 * kMiB, 1'000'000, 0};
// A vLLM server's log, start-up lines first; days of request logging fit.
constexpr ImportLimits kVllmLog{"vLLM log", 64 * kMiB, 0, 0};
} // namespace limits

// Throws StoreError("<source>: the file has N bytes; a <kind> file may have at most X MiB ...").
void checkImportBytes(qint64 bytes, const QString &source, const ImportLimits &limits);

// The longest physical line (bytes up to a line break) a CSV reader accepts: as many fields
// of the longest length as a record may hold, quoted, at four bytes a character. A streaming
// reader refuses a longer line as soon as it has read that much of it.
qint64 maxCsvLineBytes(const ImportLimits &limits);

// Throws StoreError("<path>: not a regular file (...)") for a device (such as /dev/zero), a
// socket or a folder, which could feed a reader without end. Pipes (FIFOs) are read, bounded by
// the limits like any file.
void checkImportFileKind(const QString &path);

// Reads an opened file whole after checking its size (and reading no more than the limit
// allows from a file whose size is not known in advance, such as a pipe).
QByteArray readImportFile(QFile &file, const QString &source, const ImportLimits &limits);

// Throws StoreError("<source>: line N: more than M rows; a <kind> file may have at most M ...").
void failTooManyRows(const QString &source, int line, const ImportLimits &limits);

// A value for an error message: at most limits::kShownChars characters, then "…"; control
// characters (a NUL byte, a line break) are shown as \0, \n, \xHH.
QString shownValue(const QString &value);
QString shownValue(const QByteArray &utf8);

} // namespace headroom::store
